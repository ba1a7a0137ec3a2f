/**
 * Red invoices received against blue ones (issue 29): the sum of the linked red invoices' 价税合计 (negative) for each
 * blue invoice, so that what a blue invoice can still back (a reimbursement line, a tick's effective tax) is its net amount.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import '../pool/tables.js';

/** Blue invoice id → the sums of its red invoices' 价税合计 and 税额 in 分 (≤ 0); absent when none. */
export async function redSumsOf(db: Kysely<Database>, blueIds: readonly string[]): Promise<Map<string, { amountIncl: number; tax: number }>> {
  const out = new Map<string, { amountIncl: number; tax: number }>();
  if (!blueIds.length) return out;
  const rows = await db
    .selectFrom('income_invoices')
    .select((eb) => ['blue_id', eb.fn.sum<number | string>('amount_incl').as('total'), eb.fn.sum<number | string>('tax').as('tax')])
    .where('blue_id', 'in', [...blueIds])
    .where('amount_incl', '<', 0)
    .groupBy('blue_id')
    .execute();
  for (const r of rows) if (r.blue_id) out.set(r.blue_id, { amountIncl: Number(r.total), tax: Number(r.tax) });
  return out;
}

/** Blue invoice id → the sum of its red invoices' 价税合计 in 分 (≤ 0); absent when none. */
export async function redTotalsOf(db: Kysely<Database>, blueIds: readonly string[]): Promise<Map<string, number>> {
  return new Map([...(await redSumsOf(db, blueIds))].map(([id, s]) => [id, s.amountIncl]));
}
