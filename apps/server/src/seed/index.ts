/**
 * First start: the demo company (default) or, with --no-demo / DEMO=0, one administrator `admin`
 * with a random initial password. Later areas append their demo data to SEEDERS.
 */
import type { Kysely } from 'kysely';
import { exclusive, type Db } from '../db/index.js';
import type { Database } from '../db/schema.js';
import { newUserRow } from '../modules/account/user-row.js';
import { demoId } from '../platform/ids.js';
import { generateInitialPassword, hashPassword } from '../platform/passwords.js';
import { nowIso } from '../platform/time.js';
import { buildDemoUsers, insertCompany, type DemoUser } from './company.js';
import { Rng } from './rng.js';
import type { SeedContext } from './context.js';
import { insertSisterTodos } from './sister.js';
import { seedSystem } from '../modules/system/seed.js';
import { insertTemplates, seedWorkflow } from './workflow.js';
import { insertTaxCodes, seedInvoices } from './invoice.js';
import { seedInvoiceApportionment } from './invoice-apportionment.js';
import { seedIncome } from './income.js';
import { seedReimbursement } from './reimbursement.js';
import { seedCost } from './cost.js';
import { seedTenderPeople } from './tender-people.js';
import path from 'node:path';
import { LocalStorage, type FileStorage } from '../platform/storage/index.js';
import { deriveRegisteredManagers, seedTenderContracts } from './tender-contracts.js';
import { seedTenderExports } from './tender-exports.js';
import { seedTenderInvoices } from './tender-invoices.js';
import { seedTenderScans } from './tender-scans.js';

export const DEMO_PASSWORD = 'demo123';
const DEMO_SEED = 20261121;

export type { SeedContext } from './context.js';

export interface DemoOptions {
  /** Test servers draw the same demo pool at a lower daily volume (see docs/income.md, "Demo seed"). */
  incomePerDay?: number;
  /** Test servers draw fewer reimbursement bills a month (docs/reimbursement.md, "Demo data"). */
  reimbPerMonth?: number;
  /** Test servers draw fewer cost orders a month (docs/cost.md, "Demo data"). */
  costPerMonth?: number;
  /** Test servers seed the staff users' people only (docs/tender.md). */
  tenderPeople?: number;
  /** Where demo files go; default: the local driver under DATA_DIR of the environment (platform/storage). */
  storage?: FileStorage;
  /** Test servers draw fewer tender contracts (docs/tender.md, "Contracts and projects"). */
  tenderFrames?: number;
  /** Tender file exports a month; test servers draw none (docs/tender.md, "导出日志 and 导出统计"). */
  tenderExports?: number;
  /** Test servers store no demo scans (TEST_DEMO; tender-scans-demo.test.ts seeds them at the test volume). */
  tenderScans?: boolean;
}

export interface Seeder {
  name: string;
  run(ctx: SeedContext): Promise<void>;
}

/** Demo data of each area, in order; each gets the same context (users, a seeded RNG). */
export const SEEDERS: Seeder[] = [
  { name: 'sister-systems', run: async (ctx) => void (await insertSisterTodos(ctx.db, ctx.users, ctx.rng, ctx.now)) },
  { name: 'system', run: seedSystem },
  { name: 'workflow', run: seedWorkflow },
  { name: 'invoice', run: seedInvoices },
  { name: 'invoice-apportionment', run: seedInvoiceApportionment },
  { name: 'income', run: seedIncome },
  { name: 'reimbursement', run: seedReimbursement },
  { name: 'cost', run: seedCost },
  { name: 'tender-contracts', run: seedTenderContracts },
  // After the tender contracts it invoices (own RNG: the draws of the seeders after it do not change).
  { name: 'tender-invoices', run: seedTenderInvoices },
  { name: 'tender-people', run: seedTenderPeople },
  { name: 'tender-registered', run: deriveRegisteredManagers },
  { name: 'tender-scans', run: seedTenderScans },
  { name: 'tender-exports', run: seedTenderExports },
];

// Every demo account shares one password, so they share one argon2id hash (computed once per process).
let demoHash: Promise<string> | null = null;
const demoPasswordHash = () => (demoHash ??= hashPassword(DEMO_PASSWORD));

export async function seedDemo(db: Db, now: Date = new Date(), opts: DemoOptions = {}): Promise<DemoUser[]> {
  const hash = await demoPasswordHash();
  return db.kysely.transaction().execute((trx) => insertDemo(trx, hash, now, opts));
}

/** The demo company, written with `k` (a transaction: nothing here opens one). */
async function insertDemo(k: Kysely<Database>, hash: string, now: Date, opts: DemoOptions = {}): Promise<DemoUser[]> {
  const rng = new Rng(DEMO_SEED);
  const users = buildDemoUsers(rng);
  await insertCompany(k, users, hash, now.toISOString());
  const volumes = {
    ...(opts.incomePerDay === undefined ? {} : { incomePerDay: opts.incomePerDay }),
    ...(opts.reimbPerMonth === undefined ? {} : { reimbPerMonth: opts.reimbPerMonth }),
    ...(opts.costPerMonth === undefined ? {} : { costPerMonth: opts.costPerMonth }),
    ...(opts.tenderFrames === undefined ? {} : { tenderFrames: opts.tenderFrames }),
    ...(opts.tenderPeople === undefined ? {} : { tenderPeople: opts.tenderPeople }),
    ...(opts.tenderExports === undefined ? {} : { tenderExports: opts.tenderExports }),
    ...(opts.tenderScans === undefined ? {} : { tenderScans: opts.tenderScans }),
  };
  const storage = opts.storage ?? new LocalStorage(path.resolve(process.env.DATA_DIR || './data', 'storage'));
  for (const s of SEEDERS) await s.run({ db: k, rng, now, users, storage, ...volumes });
  await k.insertInto('app_meta').values({ key: 'demo', value: now.toISOString() }).execute();
  return users;
}

/** The administrator `admin` with an initial password (its hash given), which must be changed at first sign-in. */
async function insertAdmin(k: Kysely<Database>, passwordHash: string): Promise<void> {
  const now = nowIso();
  const id = demoId('user:admin');
  const dept = demoId('dept:company');
  await k.insertInto('departments').values({ id: dept, parent_id: null, name: '本公司', sort: 0, manager_id: null, created_at: now, updated_at: now }).execute();
  await k
    .insertInto('users')
    .values(newUserRow({ id, loginName: 'admin', name: '系统管理员', deptId: dept, position: '系统管理员', passwordHash, initialPassword: true }, now))
    .execute();
  await k.insertInto('user_roles').values({ user_id: id, role: 'admin' }).execute();
  // Reference data a company needs from day one: the standard approval templates (named approvers
  // are the administrator until people exist) and the tax classification codes.
  const admin: DemoUser = { id, loginName: 'admin', name: '系统管理员', dept: 'company', position: '系统管理员', roles: ['admin'], phone: '', email: '' };
  await insertTemplates(k, [admin], now);
  await insertTaxCodes(k);
}

export type FirstStart = { kind: 'none' } | { kind: 'demo'; users: number } | { kind: 'admin'; password: string };

/**
 * Fills an empty database: the demo company, or the administrator alone. Does nothing otherwise.
 * Safe with any number of servers starting at once: "count users, then fill" runs under one lock
 * (`exclusive`), so exactly one server fills the database and the others find users and do nothing
 * (only the one that created the administrator gets — and prints — its password).
 */
export async function prepareFirstStart(db: Db, opts: { demo: boolean; storage?: FileStorage; volumes?: Omit<DemoOptions, 'storage'> }): Promise<FirstStart> {
  const hasUsers = async (k: Kysely<Database>) => Number((await k.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n) > 0;
  if (await hasUsers(db.kysely)) return { kind: 'none' };
  // Hashing is slow, so it is done before taking the lock.
  const password = opts.demo ? '' : generateInitialPassword();
  const hash = opts.demo ? await demoPasswordHash() : await hashPassword(password);
  return exclusive(db, 'first-start', async (k): Promise<FirstStart> => {
    if (await hasUsers(k)) return { kind: 'none' };
    if (opts.demo) {
      // `volumes`: the test suite's smaller demo (multi-server.test.ts); a real first start draws the full one.
      await insertDemo(k, hash, new Date(), { ...opts.volumes, ...(opts.storage ? { storage: opts.storage } : {}) });
      // Every user the demo wrote: the demo accounts and staff, and the tender area's field staff.
      const users = Number((await k.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
      return { kind: 'demo', users };
    }
    await insertAdmin(k, hash);
    return { kind: 'admin', password };
  });
}
