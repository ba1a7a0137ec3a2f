/**
 * The large demo mode (`npm run seed -- --invoices 1000000`): appends generated history to a database
 * that holds the demo company — buyers, projects, contracts, then invoices with one line each, in
 * batches, each batch in its own transaction. Deterministic (largeData.ts) and resumable: invoices
 * already loaded (order numbers LG…) are skipped. Works on SQLite and PostgreSQL alike.
 */
import { sql, type Kysely } from 'kysely';
import { InvoiceColour } from '@zhyy/shared';
import type { Db } from '../db/index.js';
import type { Database } from '../db/schema.js';
import type { InvoiceLineTable, InvoiceTable } from '../modules/invoice/tables.js';
import { consolidate } from '../modules/invoice/ledger/summary.js';
import { demoId } from '../platform/ids.js';
import { COMPANY_NAME } from './company.js';
import { SELLER } from './invoiceData.js';
import {
  LARGE_BUYERS, LARGE_CONTRACTS, LARGE_PROJECTS, largeBuyer, largeContract, largeInvoice, largeProject, taxCodeFor, type LargeInvoice,
} from './largeData.js';

const CREATED = '2021-01-01T00:00:00.000Z';
/** Rows per INSERT: 26 columns × 600 stays below both engines' limit on bound parameters. */
const ROWS_PER_INSERT = 600;

async function chunks<T>(rows: T[], size: number, run: (part: T[]) => Promise<unknown>): Promise<void> {
  for (let k = 0; k < rows.length; k += size) await run(rows.slice(k, k + size));
}

async function reference(db: Kysely<Database>): Promise<void> {
  const buyers = Array.from({ length: LARGE_BUYERS }, (_, k) => largeBuyer(k));
  await chunks(buyers, 200, (part) =>
    db.insertInto('invoice_buyers').values(part.map((b) => ({ id: b.id, name: b.name, tax_no: b.taxNo, address: '', phone: '', bank: '', account: '', email: '', mobile: '', remark: '', created_by: null, default_kind: 9, created_at: CREATED, updated_at: CREATED }))).onConflict((oc) => oc.doNothing()).execute(),
  );
  const projects = Array.from({ length: LARGE_PROJECTS }, (_, k) => largeProject(k));
  await db.insertInto('projects').values(projects.map((p) => ({ id: p.id, code: p.code, name: p.name, customer: largeBuyer(0).name, amount: 0, source: p.temp ? 0 : 2, is_temp: p.temp ? 1 : 0, created_at: CREATED, updated_at: CREATED }))).onConflict((oc) => oc.doNothing()).execute();
  const contracts = Array.from({ length: LARGE_CONTRACTS }, (_, k) => largeContract(k));
  await chunks(contracts, 200, (part) =>
    db.insertInto('contracts').values(part.map((c) => ({ id: c.id, code: c.code, name: c.name, customer: '', project_id: c.projectId, contract_type: c.type, amount: 0, source: 2, is_temp: 0, created_at: CREATED, updated_at: CREATED }))).onConflict((oc) => oc.doNothing()).execute(),
  );
}

function rows(list: LargeInvoice[], creators: Array<{ id: string; name: string }>) {
  const invoices = list.map((v) => {
    const b = largeBuyer(v.buyer);
    const who = creators[v.creator % creators.length]!;
    const at = `${v.day}T${String(1 + Math.floor(v.minute / 60)).padStart(2, '0')}:${String(v.minute % 60).padStart(2, '0')}:00.000Z`;
    return {
      id: v.id, order_no: `LG${String(v.i).padStart(18, '0')}`, serial_no: `LS${String(v.i).padStart(18, '0')}`, kind: v.kind, colour: v.colour, status: v.status, source: v.source,
      project_id: largeProject(v.project).id, contract_id: v.contract === null ? null : largeContract(v.contract).id, buyer_id: b.id, buyer_name: b.name, buyer_tax_no: b.taxNo,
      seller_name: COMPANY_NAME, seller_tax_no: SELLER.taxNo, red_reason: v.colour === InvoiceColour.red ? 2 : null, blue_invoice_id: v.blue?.id ?? null, blue_invoice_no: v.blue?.no ?? '',
      invoice_no: v.invoiceNo, invoice_code: v.invoiceCode, digital_no: v.digitalNo, issued_at: at, issue_date: v.day,
      amount_excl: v.amountExcl, tax: v.tax, amount_incl: v.amountExcl + v.tax, created_by: who.id, created_by_name: who.name, created_at: at, updated_at: at,
    };
  });
  const lines = list.map((v) => {
    const c = taxCodeFor(v.taxRate);
    return {
      id: demoId(`large-line:${v.i}`), invoice_id: v.id, line_no: 1, goods_name: `*${c.shortName}*${c.name}`, tax_code: c.code, unit: '项', quantity: v.colour === InvoiceColour.red ? '-1' : '1',
      unit_price: ((v.amountExcl < 0 ? -v.amountExcl : v.amountExcl) / 100).toFixed(2), price_includes_tax: 0, tax_rate: v.taxRate, amount_excl: v.amountExcl, tax: v.tax, amount_incl: v.amountExcl + v.tax,
    };
  });
  return { invoices, lines };
}

export interface LargeOptions {
  invoices: number;
  /** Invoices per transaction. */
  batch?: number;
  log?: (line: string) => void;
}

/** Loads invoices 0 … n−1 of the large mode that are not there yet; returns how many it added. */
export async function seedLarge(db: Db, opts: LargeOptions): Promise<number> {
  const k = db.kysely;
  const log = opts.log ?? (() => undefined);
  const batch = opts.batch ?? 5000;
  await reference(k);
  const creators = await k.selectFrom('users as u').innerJoin('user_roles as r', 'r.user_id', 'u.id').select(['u.id', 'u.name']).where('r.role', '=', '5').orderBy('u.login_name').execute();
  if (!creators.length) throw new Error('large mode needs the demo company (a user with role 5)');
  const have = Number((await k.selectFrom('invoices').select(sql<number>`count(*)`.as('n')).where('order_no', 'like', 'LG%').executeTakeFirstOrThrow()).n);
  const started = Date.now();
  let added = 0;
  for (let from = have; from < opts.invoices; from += batch) {
    const list = Array.from({ length: Math.min(batch, opts.invoices - from) }, (_, j) => largeInvoice(from + j));
    const { invoices, lines } = rows(list, creators);
    await k.transaction().execute(async (trx) => {
      // Columns left out (addresses, remark, policy flags …) take their defaults of migration 0004: fewer bound parameters per row.
      await chunks(invoices, ROWS_PER_INSERT, (part) => trx.insertInto('invoices').values(part as unknown as InvoiceTable[]).execute());
      await chunks(lines, ROWS_PER_INSERT, (part) => trx.insertInto('invoice_lines').values(part as unknown as InvoiceLineTable[]).execute());
    });
    added += list.length;
    if ((from / batch) % 20 === 0 || from + batch >= opts.invoices) log(`  ${from + list.length} / ${opts.invoices} invoices (${Math.round((added * 1000) / Math.max(1, Date.now() - started))} a second)`);
  }
  log('  analysing and building the ledger summary…');
  // PostgreSQL: VACUUM sets the visibility map, so the ledger's id-only subqueries are index-only scans.
  await (db.dialect === 'postgres' ? sql`vacuum analyze` : sql`analyze`).execute(k);
  await consolidate(k, true);
  return added;
}
