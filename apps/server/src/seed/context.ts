/**
 * What every seeder of the demo company gets (SEEDERS in ./index.ts): the database, the seeded RNG, the
 * demo users and the volumes. Its own file so that the seeders (seed/*.ts, modules/system/seed.ts)
 * import it without importing the index that imports them.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { FileStorage } from '../platform/storage/index.js';
import type { DemoUser } from './company.js';
import type { Rng } from './rng.js';

export interface SeedContext {
  db: Kysely<Database>;
  rng: Rng;
  now: Date;
  users: DemoUser[];
  /** Incoming invoices a day of the demo pool (seed/income.ts; default 60, 21,600 over twelve months). */
  incomePerDay?: number;
  /** Reimbursement bills a month (seed/reimbursement.ts; default 700, 8,400 over twelve months). */
  reimbPerMonth?: number;
  /** Cost orders a month (seed/cost.ts; default 180 over thirteen months; 0: the price list and auditors only). */
  costPerMonth?: number;
  /** People of 投标管理 (seed/tender-people.ts; default 230: field staff are added to the demo users). */
  tenderPeople?: number;
  /** Where demo files go (投标管理's scans: modules/tender/attachment storeAttachment with `{ storage, db, inTransaction: true }`). */
  storage: FileStorage;
  /** Frame contracts of the tender demo (seed/tender-contracts.ts; default 40, with ~300 orders, 200 single contracts, 120 projects). */
  tenderFrames?: number;
  /** Tender file exports a month over the last year (seed/tender-exports.ts; default 40). */
  tenderExports?: number;
  /** Scans of the tender demo's contracts, titles and certificates (seed/tender-scans.ts; default true). */
  tenderScans?: boolean;
}
