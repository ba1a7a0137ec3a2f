/**
 * 投标设置: key/value rows in tender_settings over TENDER_SETTING_DEFAULTS (watermark, windowYears,
 * thresholdFen, remindDays). A value that is missing or no longer valid reads as its default, so
 * tenderSettings() always answers a complete, valid set.
 */
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { OperationLogType, TENDER_SETTING_DEFAULTS, TenderSettingsBody, type TenderSettings, type TenderSettingsView } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import type { OperationLogService } from '../../../platform/oplog.js';
import { nowIso } from '../../../platform/time.js';
import '../files/tables.js';

type Db = Kysely<Database>;
const KEYS = Object.keys(TENDER_SETTING_DEFAULTS) as (keyof TenderSettings)[];

/** The settings with who saved them last. */
export async function tenderSettingsView(db: Db): Promise<TenderSettingsView> {
  const rows = await db.selectFrom('tender_settings').selectAll().where('key', 'in', KEYS).execute();
  const merged: Record<string, unknown> = { ...TENDER_SETTING_DEFAULTS };
  for (const r of rows) {
    try {
      merged[r.key] = JSON.parse(r.value);
    } catch {
      /* unreadable: the default */
    }
  }
  const parsed = TenderSettingsBody.safeParse(merged);
  const value = parsed.success ? parsed.data : { ...TENDER_SETTING_DEFAULTS, remindDays: [...TENDER_SETTING_DEFAULTS.remindDays] };
  const last = rows.reduce<(typeof rows)[number] | null>((a, r) => (!a || r.updated_at > a.updated_at ? r : a), null);
  return { ...value, updatedBy: last?.updated_by ?? null, updatedAt: last?.updated_at || null };
}

/** The tender settings the other areas use (performance window and threshold, watermark, reminder days). */
export async function tenderSettings(db: Db): Promise<TenderSettings> {
  const { updatedBy: _b, updatedAt: _a, ...s } = await tenderSettingsView(db);
  return s;
}

const describe = (s: TenderSettings) => `默认水印“${s.watermark}”，业绩年限${s.windowYears}年，业绩金额门槛${(s.thresholdFen / 100).toFixed(2)}元，证书到期提醒${s.remindDays.join('、')}天`;

/** Saves all settings in one transaction with the operation log (what changed, from what to what). */
export async function saveTenderSettings(db: Db, oplog: OperationLogService, req: FastifyRequest, s: TenderSettings): Promise<void> {
  const now = nowIso();
  const by = req.user?.name ?? '';
  await db.transaction().execute(async (trx) => {
    const before = await tenderSettings(trx);
    for (const k of KEYS) {
      const value = JSON.stringify(s[k]);
      await trx
        .insertInto('tender_settings')
        .values({ key: k, value, updated_by: by, updated_at: now })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_by: by, updated_at: now }))
        .execute();
    }
    await oplog.record(req, OperationLogType.edit, `修改投标设置：${describe(s)}（原为${describe(before)}）`, trx);
  });
}
