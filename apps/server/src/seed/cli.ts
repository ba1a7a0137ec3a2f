#!/usr/bin/env node
/**
 * npm run seed [-- --invoices N] [--incoming N] [--incoming-lines L] [--bills N] [--cost-orders N] [--contracts N] [--batch B]
 * Opens the database of the environment (DATABASE_URL, else $DATA_DIR/platform.db), migrates, loads the
 * demo company when the database is empty, and with --invoices appends the large mode's generated
 * invoices up to N (seed/large.ts), with --incoming the large mode's incoming pool invoices up to N
 * (seed/largeIncome.ts; --incoming-lines: lines per invoice at most, default 1, 0 none). Re-running with
 * a larger N adds the rest. --bills: the large mode's reimbursement bills up to N (seed/largeReimbursement.ts),
 * --cost-orders: the large mode's cost orders up to N (seed/largeCost.ts), --contracts: the large mode's
 * contracts (frames with their orders, single contracts) and their projects up to N (seed/largeContracts.ts).
 */
import path from 'node:path';
import { sql } from 'kysely';
import { loadConfig } from '../config.js';
import { migrate, openDatabase } from '../db/index.js';
import { prepareFirstStart } from './index.js';
import { seedLarge } from './large.js';
import { seedLargeContracts } from './largeContracts.js';
import { seedLargeCostOrders } from './largeCost.js';
import { seedLargeIncome } from './largeIncome.js';
import { seedLargeBills } from './largeReimbursement.js';

function option(args: string[], name: string): number | undefined {
  const at = args.indexOf(name);
  if (at < 0) return undefined;
  const v = Number(args[at + 1]);
  if (!Number.isInteger(v) || v < 0) throw new Error(`${name} needs a whole number`);
  return v;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const invoices = option(args, '--invoices');
  const incoming = option(args, '--incoming');
  const incomingLines = option(args, '--incoming-lines');
  const bills = option(args, '--bills');
  const costOrders = option(args, '--cost-orders');
  const contracts = option(args, '--contracts');
  const batch = option(args, '--batch');
  const config = loadConfig(process.env, []);
  const db = openDatabase({ databaseUrl: config.databaseUrl, sqlitePath: path.join(config.dataDir, 'platform.db') });
  const where = config.databaseUrl ? 'PostgreSQL' : path.join(config.dataDir, 'platform.db');
  try {
    await migrate(db);
    // A bulk load into large indexes: a bigger page cache (256 MiB) for this connection only.
    if (db.dialect === 'sqlite') await sql`pragma cache_size = -262144`.execute(db.kysely);
    const first = await prepareFirstStart(db, { demo: true });
    console.log(first.kind === 'demo' ? `demo company loaded into ${where}` : `database ${where} already holds data`);
    if (invoices !== undefined) {
      const t = Date.now();
      const added = await seedLarge(db, { invoices, ...(batch ? { batch } : {}), log: (l) => console.log(l) });
      console.log(`large mode: ${added} invoices added (up to ${invoices}) in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    }
    if (incoming !== undefined) {
      const t = Date.now();
      const added = await seedLargeIncome(db, { incoming, ...(batch ? { batch } : {}), ...(incomingLines !== undefined ? { lines: incomingLines } : {}), log: (l) => console.log(l) });
      console.log(`large mode: ${added} incoming invoices added (up to ${incoming}) in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    }
    if (bills !== undefined) {
      const t = Date.now();
      const added = await seedLargeBills(db, { bills, ...(batch ? { batch } : {}), log: (l) => console.log(l) });
      console.log(`large mode: ${added} reimbursement bills added (up to ${bills}) in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    }
    if (costOrders !== undefined) {
      const t = Date.now();
      const added = await seedLargeCostOrders(db, { orders: costOrders, ...(batch ? { batch } : {}), log: (l) => console.log(l) });
      console.log(`large mode: ${added} cost orders added (up to ${costOrders}) in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    }
    if (contracts !== undefined) {
      const t = Date.now();
      const added = await seedLargeContracts(db, { contracts, ...(batch ? { batch } : {}), log: (l) => console.log(l) });
      console.log(`large mode: ${added} contracts added (up to ${contracts}) in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    }
  } finally {
    await db.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
