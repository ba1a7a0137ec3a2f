/**
 * What the other parts of the area read of 报销设置 (issue 15): a category's accounting subject and
 * default tax rate, a department's cost centre, the travel standard of a grade and city tier, a city's
 * tier, a person's grade and payee details, and the key/value settings with their defaults. Settings
 * are edited on /reimbursement/cost-setting (settings/routes.ts); this file only reads.
 */
import type { Kysely } from 'kysely';
import { ReimbCityTier, ReimbGrade } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import { accountingConfigFromEnv, type AccountingConfig } from '../../../integrations/accounting/index.js';
import '../tables.js';

type Db = Kysely<Database>;

/** The key/value settings and their defaults (reimb_settings holds only what was changed). */
export const REIMB_SETTING_DEFAULTS = {
  /** An invoice older than this many days (issue date to the line's save) is flagged 发票超期. */
  invoiceAgeDays: 365,
} as const;
export type ReimbSettingKey = keyof typeof REIMB_SETTING_DEFAULTS;

export async function reimbSetting<K extends ReimbSettingKey>(db: Db, key: K): Promise<(typeof REIMB_SETTING_DEFAULTS)[K]> {
  const r = await db.selectFrom('reimb_settings').select('value').where('key', '=', key).executeTakeFirst();
  if (!r) return REIMB_SETTING_DEFAULTS[key];
  return JSON.parse(r.value) as (typeof REIMB_SETTING_DEFAULTS)[K];
}

export const categoryOf = (db: Db, code: string) => db.selectFrom('reimb_categories').selectAll().where('code', '=', code).executeTakeFirst();
export const enabledCategories = (db: Db) => db.selectFrom('reimb_categories').selectAll().where('enabled', '=', 1).orderBy('sort').orderBy('code').execute();
export const costCentreOf = (db: Db, deptId: string | null) =>
  deptId ? db.selectFrom('reimb_cost_centres').selectAll().where('dept_id', '=', deptId).executeTakeFirst() : Promise.resolve(undefined);

/** A city's tier; cities not listed are 其他城市. */
export async function cityTierOf(db: Db, city: string): Promise<number> {
  const c = city.trim().replace(/市$/, '');
  if (!c) return ReimbCityTier.other;
  const r = await db.selectFrom('reimb_city_tiers').select('tier').where('city', '=', c).executeTakeFirst();
  return r?.tier ?? ReimbCityTier.other;
}

/** A person's grade: as set in 报销设置, else 部门负责人 for a department's manager, else 员工. */
export async function gradeOf(db: Db, userId: string): Promise<string> {
  const p = await db.selectFrom('reimb_profiles').select('grade').where('user_id', '=', userId).executeTakeFirst();
  if (p?.grade) return p.grade;
  const m = await db.selectFrom('departments').select('id').where('manager_id', '=', userId).limit(1).executeTakeFirst();
  return m ? ReimbGrade.manager : ReimbGrade.staff;
}

export const travelStandardOf = (db: Db, grade: string, tier: number) =>
  db.selectFrom('reimb_travel_standards').selectAll().where('grade', '=', grade).where('city_tier', '=', tier).executeTakeFirst();

export const profileOf = (db: Db, userId: string) => db.selectFrom('reimb_profiles').selectAll().where('user_id', '=', userId).executeTakeFirst();

/** reimb_settings key of the accounting interface stored by 报销设置 (JSON StoredAccounting). */
export const ACCOUNTING_SETTING_KEY = 'accounting';
export interface StoredAccounting {
  mode: 'simulator' | 'http';
  url: string;
  /** The credential (never sent to the browser). */
  token: string;
  timeoutMs: number;
}

export async function storedAccounting(db: Db): Promise<StoredAccounting | null> {
  const r = await db.selectFrom('reimb_settings').select('value').where('key', '=', ACCOUNTING_SETTING_KEY).executeTakeFirst();
  if (!r) return null;
  const v = JSON.parse(r.value) as Partial<StoredAccounting>;
  return { mode: v.mode === 'http' ? 'http' : 'simulator', url: v.url ?? '', token: v.token ?? '', timeoutMs: v.timeoutMs ?? 15_000 };
}

/**
 * The accounting gateway's configuration for reimbursement pushes: the one 报销设置 stores (simulator or
 * the i8 endpoint and credentials), else the environment's (ACCOUNTING_*, integrations/accounting).
 * The simulator keeps the environment's answer delay (ACCOUNTING_SIM_DELAY_MS).
 */
export async function reimbAccountingConfig(db: Db): Promise<AccountingConfig> {
  const s = await storedAccounting(db);
  if (!s) return accountingConfigFromEnv();
  if (s.mode === 'http') return { mode: 'http', url: s.url, token: s.token, timeoutMs: s.timeoutMs };
  const env = (() => {
    try {
      return accountingConfigFromEnv();
    } catch {
      return null;
    }
  })();
  return { mode: 'simulator', delayMs: env?.mode === 'simulator' ? (env.delayMs ?? 0) : 0 };
}
