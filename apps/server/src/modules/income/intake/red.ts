/**
 * Red invoices received (红字发票, issue 29 item 2): a red invoice names the blue invoice it reverses
 * (对应蓝字发票号码). Whichever of the two reaches the pool second links them (`blue_id` on the red row) and
 * writes it to both histories, so the detail of each shows the other. Only an invoice of the same seller
 * (销方税号) is linked: a red invoice names its own seller's blue invoice, never another supplier's. A number
 * that matches no such pool invoice, or more than one, links nothing: the red invoice keeps the number it stated.
 */
import { sql, type Kysely } from 'kysely';
import { formatFen, IncomeInvoiceState, isRedInvoice } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import { nowIso } from '../../../platform/time.js';
import { addEvent } from '../pool/events.js';
import { displayNo } from '../identity/identity.js';
import { raiseCases } from '../abnormal/raise.js';
import '../pool/tables.js';

interface Arrived {
  id: string;
  invoiceNo: string;
  digitalNo: string;
  amountIncl: number;
  /** The seller's tax number: a red invoice reverses a blue one of the same seller only. */
  sellerTaxNo: string;
  blueInvoiceNo?: string;
}

const yuan = (fen: number) => `${formatFen(fen)}元`;

async function link(trx: Kysely<Database>, red: { id: string; no: string; amount: number }, blue: { id: string; no: string }, userName?: string): Promise<void> {
  await trx.updateTable('income_invoices').set({ blue_id: blue.id }).where('id', '=', red.id).execute();
  await addEvent(trx, red.id, 'red-link', `红字发票，冲减蓝字发票 ${blue.no}`, userName);
  await addEvent(trx, blue.id, 'red-link', `收到红字发票 ${red.no}（价税合计 ${yuan(red.amount)}），冲减本发票`, userName);
  await markReversed(trx, blue.id, userName);
}

const S = IncomeInvoiceState;

async function markReversed(trx: Kysely<Database>, blueId: string, userName?: string): Promise<void> {
  const b = await trx.selectFrom('income_invoices').select(['invoice_state', 'amount_incl']).where('id', '=', blueId).executeTakeFirstOrThrow();
  if (b.invoice_state !== S.normal && b.invoice_state !== S.partRed) return;
  const reds = await trx.selectFrom('income_invoices').select((eb) => eb.fn.sum<number | string>('amount_incl').as('total')).where('blue_id', '=', blueId).where('amount_incl', '<', 0).executeTakeFirstOrThrow();
  const to = Number(b.amount_incl) + Number(reds.total ?? 0) <= 0 ? S.fullRed : S.partRed;
  if (to === b.invoice_state) return;
  await trx.updateTable('income_invoices').set({ invoice_state: to, updated_at: nowIso() }).where('id', '=', blueId).where('invoice_state', '=', b.invoice_state).execute();
  await addEvent(trx, blueId, 'state', `收到红字发票：发票状态「${S.label(b.invoice_state)}」→「${S.label(to)}」`, userName);
  await raiseCases(trx, blueId);
}

/** After an arrival was inserted: link it to its blue invoice (a red one) or to the red invoices naming it (a blue one). */
export async function linkReversal(trx: Kysely<Database>, inv: Arrived, userName?: string): Promise<void> {
  const own = inv.digitalNo.trim() || inv.invoiceNo.trim();
  if (isRedInvoice(inv)) {
    const n = (inv.blueInvoiceNo ?? '').trim();
    if (!n) return;
    const blues = await trx
      .selectFrom('income_invoices')
      .select(['id', 'invoice_code', 'invoice_no', 'digital_no'])
      .where('amount_incl', '>=', 0)
      .where('seller_tax_no', '=', inv.sellerTaxNo)
      .where((eb) => eb.or([eb('digital_no', '=', n), eb.and([eb('digital_no', '=', ''), eb('invoice_no', '=', n)])]))
      .limit(2)
      .execute();
    if (blues.length === 1) await link(trx, { id: inv.id, no: own, amount: inv.amountIncl }, { id: blues[0]!.id, no: displayNo(blues[0]!) }, userName);
    return;
  }
  if (!own) return;
  const reds = await trx
    .selectFrom('income_invoices')
    .select(['id', 'invoice_code', 'invoice_no', 'digital_no', 'amount_incl'])
    .where('blue_no', '=', own)
    // The partial index's own condition, as a literal, so that SQLite and PostgreSQL use it (every arrival asks).
    .where(sql<boolean>`blue_no <> ''`)
    .where('blue_id', 'is', null)
    .where('amount_incl', '<', 0)
    .where('seller_tax_no', '=', inv.sellerTaxNo)
    .execute();
  for (const r of reds) await link(trx, { id: r.id, no: displayNo(r), amount: Number(r.amount_incl) }, { id: inv.id, no: own }, userName);
}
