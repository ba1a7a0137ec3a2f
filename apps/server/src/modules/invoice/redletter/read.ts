/** 数电红字确认单: rows, detail, the blue invoices one may apply against, and the red invoice a confirmation produces. */
import type { Kysely } from 'kysely';
import {
  InvoiceColour,
  InvoiceKind,
  InvoiceStatus,
  RedConfirmState,
  redConfirmAllowed,
  type InvoiceLineRow,
  type PageResult,
  type RedConfirmDetail,
  type RedConfirmListQuery,
  type RedConfirmRow,
} from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import { notFound } from '../../../platform/envelope.js';
import { newId } from '../../../platform/ids.js';
import { contains, offsetOf, sortOf } from '../../../platform/listing.js';
import { nowIso } from '../../../platform/time.js';
import { emptyInvoice } from '../issuing/entry.js';
import { lineValues, toLineRow } from '../mapping.js';
import type { RedConfirmTable } from '../tables.js';

export type RedLine = InvoiceLineRow & { blueLineNo: number };
type Row = Omit<RedConfirmTable, 'id' | 'next_poll_at' | 'poll_count'> & { id: number; red_invoice_no?: string | null; next_poll_at?: string | null; poll_count?: number };

/** States a blue invoice may not get a new application in (one live confirmation per invoice). */
export const LIVE_STATES = [RedConfirmState.draft, RedConfirmState.applying, RedConfirmState.applyFailed, RedConfirmState.sellerAwaitingBuyer, RedConfirmState.buyerAwaitingSeller, RedConfirmState.noConfirmNeeded, RedConfirmState.confirmed];

export function toRedRow(r: Row): RedConfirmRow {
  return {
    id: Number(r.id),
    billNo: r.bill_no ?? '',
    direction: r.direction === 'buyer' ? 'buyer' : 'seller',
    state: r.state,
    blueInvoiceId: r.blue_invoice_id ?? '',
    blueInvoiceNo: r.blue_invoice_no,
    blueDigitalNo: r.blue_invoice_no,
    buyerName: r.buyer_name,
    redReason: r.red_reason,
    vatUsage: r.vat_usage,
    amountExcl: Number(r.amount_excl),
    tax: Number(r.tax),
    amountIncl: Number(r.amount_incl),
    redInvoiceId: r.red_invoice_id,
    redInvoiceNo: r.red_invoice_no ?? '',
    message: r.message,
    createdByName: r.created_by_name,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

const SORTS = { createdAt: 'r.created_at', updatedAt: 'r.updated_at', amountIncl: 'r.amount_incl', state: 'r.state' } as const;

export async function listRed(db: Kysely<Database>, q: RedConfirmListQuery): Promise<PageResult<RedConfirmRow>> {
  let b = db.selectFrom('invoice_red_confirms as r').leftJoin('invoices as ri', 'ri.id', 'r.red_invoice_id');
  if (q.state) b = b.where('r.state', '=', q.state);
  if (q.direction) b = b.where('r.direction', '=', q.direction);
  if (q.keyword) b = b.where((eb) => eb.or([contains(eb.ref('r.buyer_name'), q.keyword!), contains(eb.ref('r.blue_invoice_no'), q.keyword!), contains(eb.ref('r.bill_no'), q.keyword!)]));
  if (q.from) b = b.where('r.created_at', '>=', q.from);
  if (q.to) b = b.where('r.created_at', '<', q.to);
  const s = sortOf(q.sort, SORTS, { column: 'r.updated_at', order: 'desc' });
  const [rows, n] = await Promise.all([
    b.selectAll('r').select('ri.invoice_no as red_invoice_no').orderBy(s.column, s.order).orderBy('r.id', 'desc').limit(q.pageSize).offset(offsetOf(q)).execute(),
    b.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map((r) => toRedRow(r as Row)), total: Number(n.n) };
}

export async function loadRed(db: Kysely<Database>, id: number): Promise<Row> {
  const r = await db.selectFrom('invoice_red_confirms as r').leftJoin('invoices as ri', 'ri.id', 'r.red_invoice_id').selectAll('r').select('ri.invoice_no as red_invoice_no').where('r.id', '=', id).executeTakeFirst();
  if (!r) throw notFound('红字确认单不存在');
  return r as Row;
}

export async function redDetail(db: Kysely<Database>, id: number): Promise<RedConfirmDetail> {
  const r = await loadRed(db, id);
  const blueLines = r.blue_invoice_id ? (await db.selectFrom('invoice_lines').selectAll().where('invoice_id', '=', r.blue_invoice_id).orderBy('line_no').execute()).map(toLineRow) : [];
  const lines = (JSON.parse(r.lines) as RedLine[]).map((l) => ({ ...l, blueAmountIncl: blueLines.find((b) => b.lineNo === l.blueLineNo)?.amountIncl ?? 0 }));
  const ours = r.direction === 'seller';
  return {
    ...toRedRow(r),
    lines,
    blueLines,
    can: {
      save: ours && redConfirmAllowed('save', r.state),
      apply: ours && redConfirmAllowed('apply', r.state),
      confirm: !ours && redConfirmAllowed('confirm', r.state),
      refuse: !ours && redConfirmAllowed('refuse', r.state),
      cancel: ours && redConfirmAllowed('cancel', r.state),
    },
  };
}

/** Blue 数电 invoices that are created and have no live confirmation. */
export async function blueCandidates(db: Kysely<Database>, q: { keyword?: string; pageIndex: number; pageSize: number }) {
  let b = db
    .selectFrom('invoices as i')
    .where('i.kind', 'in', [InvoiceKind.bs, InvoiceKind.pc])
    .where('i.colour', '=', InvoiceColour.blue)
    .where('i.status', '=', InvoiceStatus.created)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('invoice_red_confirms as r').select('r.id').whereRef('r.blue_invoice_id', '=', 'i.id').where('r.state', 'in', LIVE_STATES))));
  if (q.keyword) b = b.where((eb) => eb.or([contains(eb.ref('i.buyer_name'), q.keyword!), contains(eb.ref('i.invoice_no'), q.keyword!)]));
  const [rows, n] = await Promise.all([
    b.select(['i.id', 'i.invoice_no', 'i.digital_no', 'i.kind', 'i.buyer_name', 'i.amount_incl', 'i.tax', 'i.issued_at']).orderBy('i.issued_at', 'desc').limit(q.pageSize).offset((q.pageIndex - 1) * q.pageSize).execute(),
    b.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map((r) => ({ id: r.id, invoiceNo: r.invoice_no, digitalNo: r.digital_no, kind: r.kind, buyerName: r.buyer_name, amountIncl: Number(r.amount_incl), tax: Number(r.tax), issuedAt: r.issued_at })), total: Number(n.n) };
}

/**
 * A confirmation in 01 / 04 has its red invoice issued by the bureau: record it (creating, with the
 * service's serial) so the poller fetches its result and files. Once per confirmation (unique red_confirm_id).
 */
export async function ensureRedInvoice(trx: Kysely<Database>, confirmId: number): Promise<void> {
  const c = await trx.selectFrom('invoice_red_confirms').selectAll().where('id', '=', confirmId).executeTakeFirstOrThrow();
  if (c.red_invoice_id || !c.red_serial_no || !c.blue_invoice_id) return;
  const existing = await trx.selectFrom('invoices').select('id').where('red_confirm_id', '=', confirmId).executeTakeFirst();
  if (existing) {
    await trx.updateTable('invoice_red_confirms').set({ red_invoice_id: existing.id }).where('id', '=', confirmId).execute();
    return;
  }
  const blue = await trx.selectFrom('invoices').selectAll().where('id', '=', c.blue_invoice_id).executeTakeFirstOrThrow();
  const id = newId();
  const now = nowIso();
  const { id: _id, order_no: _o, ...copy } = blue;
  await trx
    .insertInto('invoices')
    .values({
      ...emptyInvoice(id, c.red_order_no, now),
      ...copy,
      ...{ serial_no: c.red_serial_no, colour: InvoiceColour.red, status: InvoiceStatus.creating, request_work_id: null, red_reason: c.red_reason, blue_invoice_id: blue.id, blue_invoice_no: blue.digital_no || blue.invoice_no, red_confirm_id: confirmId },
      ...{ invoice_no: '', invoice_code: '', digital_no: '', issued_at: null, issue_date: null, failure_cause: '', status_message: '', invalid: 0, invalid_reason: '', retry_count: 0 },
      ...{ amount_excl: Number(c.amount_excl), tax: Number(c.tax), amount_incl: Number(c.amount_incl), submitted_at: now, next_poll_at: now, poll_count: 0, created_at: now, updated_at: now },
      ...{ created_by: c.created_by, created_by_name: c.created_by_name || '税务端', updated_by_name: '' },
    })
    .execute();
  const lines = JSON.parse(c.lines) as RedLine[];
  if (lines.length) await trx.insertInto('invoice_lines').values(lineValues(id, lines, newId)).execute();
  await trx.updateTable('invoice_red_confirms').set({ red_invoice_id: id, updated_at: now }).where('id', '=', confirmId).execute();
}
