/**
 * 0025_income_transport (issue 14, 计算抵扣): what the pool keeps about each passenger transport document
 * (rail, air and road/water tickets, and electronic ordinary invoices 10/82 whose lines are passenger
 * transport): the passenger, the day of travel, domestic or international, the air fare and fuel
 * surcharge, and the basis and tax of the deduction formula (0025_income_transport.facts.ts: the rules
 * of that day, frozen). One row per such invoice, deleted with it. Filled for the invoices already in the
 * pool, in batches.
 */
import type { Kysely } from 'kysely';
import { transportFacts, type TransportLine } from './0025_income_transport.facts.js';

const BATCH = 500;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('income_transport')
    .addColumn('invoice_id', 'text', (c) => c.primaryKey().references('income_invoices.id').onDelete('cascade'))
    .addColumn('transport_kind', 'text', (c) => c.notNull())
    .addColumn('passenger_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('travel_date', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('international', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('fare', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('fuel', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('basis', 'bigint', (c) => c.notNull())
    .addColumn('formula_tax', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('income_transport_kind_idx').on('income_transport').columns(['transport_kind', 'invoice_id']).execute();
  await fillTransport(db);
}

/** Records the facts of the pool's invoices that have none yet: tickets by kind, 10/82 by their lines. */
export async function fillTransport(db: Kysely<any>): Promise<number> {
  let added = 0;
  let after = '';
  for (;;) {
    const rows: Array<{ id: string; kind: string; amount_incl: number; tax: number; remark: string }> = await db
      .selectFrom('income_invoices as p')
      .select(['p.id', 'p.kind', 'p.amount_incl', 'p.tax', 'p.remark'])
      .where('p.kind', 'in', ['rail', 'air', 'road', '10', '82'])
      .where('p.id', '>', after)
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('income_transport as t').select('t.invoice_id').whereRef('t.invoice_id', '=', 'p.id'))))
      .orderBy('p.id')
      .limit(BATCH)
      .execute();
    if (!rows.length) break;
    after = rows[rows.length - 1]!.id;
    const lines: Array<TransportLine & { invoice_id: string }> = await db
      .selectFrom('income_invoice_lines')
      .select(['invoice_id', 'name', 'amount', 'tax'])
      .where('invoice_id', 'in', rows.map((r) => r.id))
      .orderBy('invoice_id')
      .orderBy('line_no')
      .execute();
    const byInvoice = new Map<string, TransportLine[]>();
    for (const l of lines) byInvoice.set(l.invoice_id, [...(byInvoice.get(l.invoice_id) ?? []), { name: l.name, amount: Number(l.amount), tax: Number(l.tax) }]);
    const facts = rows
      .map((r) => transportFacts({ invoiceId: r.id, kind: r.kind, amountIncl: Number(r.amount_incl), tax: Number(r.tax), remark: r.remark, lines: byInvoice.get(r.id) ?? [] }))
      .filter((f) => f !== null);
    if (facts.length) await db.insertInto('income_transport').values(facts).execute();
    added += facts.length;
    if (rows.length < BATCH) break;
  }
  return added;
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('income_transport').execute();
}
