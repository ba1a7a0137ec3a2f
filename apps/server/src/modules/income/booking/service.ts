/**
 * Booking an incoming invoice (入账标识, issue 14). `bookInvoices` (02 已入账（企业所得税税前扣除）/ 03 已入账（不扣除）)
 * and `unbookInvoices` (06 入账撤销) change each invoice in its own transaction — a guarded UPDATE of
 * income_invoices.booking_state (and booked_at) and the delivery to the tax service queued beside it
 * (income_booking_deliveries, pending) — then try the delivery at once, outside the transaction
 * (deliver.ts). What fails stays pending for the background job (job.ts), which retries with back-off.
 *
 * A revoked invoice shows **06 入账撤销** in the pool (not 01): the tax service now holds 06 for it, and the pool
 * can list the invoices whose booking was withdrawn. 01 and 06 both count as "not booked" everywhere
 * (先入账后勾选, revoking a signing, booking again).
 *
 * The reimbursement side (issue 15) queues 02 (`queueChanges`, source { type: 'reimbursement', no: 'BX…' }) in
 * the transaction that records a bill 已报销, and 06 in the one that revokes it, then `sendQueued` (issue 27: a
 * crash between the two leaves the deliveries pending for the job, never a booking never sent); a contract
 * signing books its invoice 02 inside its own step 3 through `queueBooking`.
 */
import { IncomeBookingState as B, IncomeInvoiceState, type BookingAnswer, type BookingResult } from '@zhyy/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { IncomeBookingGateway } from '../../../integrations/tax/income-types.js';
import { AppError, conflict, notFound, refuse } from '../../../platform/envelope.js';
import { newId } from '../../../platform/ids.js';
import { nowIso } from '../../../platform/time.js';
import { addEvent } from '../pool/events.js';
import { deliver, IMMEDIATE_HOLDER } from './deliver.js';
import './tables.js';

type Db = Kysely<Database>;
export type BookedState = '02' | '03';
export type SentState = BookedState | '06';
const BOOKED: string[] = [B.bookedDeduct, B.bookedNoDeduct];
const DEAD = [IncomeInvoiceState.voided, IncomeInvoiceState.red, IncomeInvoiceState.fullRed];

export interface BookingSource {
  type: 'manual' | 'contract' | 'reimbursement';
  /** The document (contract, reimbursement bill); '' for a manual booking. */
  no: string;
}

/** Who books: the user (or 系统) and, optionally, the operation log row written in each invoice's transaction. */
export interface Booker {
  id: string | null;
  name: string;
  log?: (trx: Db, description: string) => Promise<void>;
}

export const BookingRefusals = {
  notFound: '发票不存在',
  booked: '该发票已入账，不能重复入账',
  notBooked: '该发票未入账，无需撤销入账',
  dead: (label: string) => `该发票${label}，不能入账`,
  buyer: '购方非本公司的发票不能入账',
  changed: '该发票的入账状态已变化，请刷新后重试',
} as const;

const numberOf = (r: { digital_no: string; invoice_no: string }) => r.digital_no || r.invoice_no;
/** Whether the tax service knows the invoice by a number: 20 digits, or a 10/12-digit code and 8 digits. */
export const hasTaxNumber = (r: { invoice_code: string; invoice_no: string; digital_no: string }) =>
  /^\d{20}$/.test(r.digital_no) || /^\d{20}$/.test(r.invoice_no) || (/^\d{8}$/.test(r.invoice_no) && /^\d{10}(\d{2})?$/.test(r.invoice_code));

export interface Queued {
  number: string;
  /** The delivery queued; null when the tax service has no number for this document (nothing to send) or nothing changed. */
  deliveryId: string | null;
}

/**
 * In the caller's transaction: sets the invoice's booking state (02 / 03 from not booked, 06 from booked) by a
 * guarded UPDATE and queues the delivery. Refused (AppError, Chinese) when the invoice cannot be (un)booked;
 * `lenient` (the contract signing's hook) answers deliveryId null instead of refusing an invoice already booked.
 */
export async function queueBooking(trx: Db, invoiceId: string, state: SentState, source: BookingSource, by: Booker, lenient = false): Promise<Queued> {
  const now = nowIso();
  const booking = state !== '06';
  let q = trx.updateTable('income_invoices').set({ booking_state: state, booked_at: booking ? now : null, updated_at: now }).where('id', '=', invoiceId).where('booking_state', booking ? 'not in' : 'in', BOOKED);
  if (booking) q = q.where('invoice_state', 'not in', DEAD).where('buyer_mismatch', '=', 0);
  const u = await q.executeTakeFirst();
  const inv = await trx.selectFrom('income_invoices').select(['booking_state', 'invoice_state', 'buyer_mismatch', 'invoice_code', 'invoice_no', 'digital_no']).where('id', '=', invoiceId).executeTakeFirst();
  if (!inv) throw notFound(BookingRefusals.notFound);
  if (Number(u.numUpdatedRows) === 0) {
    if (lenient) return { number: numberOf(inv), deliveryId: null };
    if (!booking) throw refuse(BookingRefusals.notBooked);
    if (BOOKED.includes(inv.booking_state)) throw refuse(BookingRefusals.booked);
    if (DEAD.includes(inv.invoice_state as 2)) throw refuse(BookingRefusals.dead(IncomeInvoiceState.label(inv.invoice_state)));
    if (inv.buyer_mismatch) throw refuse(BookingRefusals.buyer);
    throw conflict(BookingRefusals.changed);
  }
  const sourceText = source.type === 'manual' ? '手工标记' : `${source.type === 'contract' ? '合同' : '报销单'} ${source.no}`;
  const label = B.label(state);
  await addEvent(trx, invoiceId, booking ? 'book' : 'unbook', `${booking ? '入账' : '撤销入账'}：${label}（${sourceText}）`, by.name);
  await by.log?.(trx, `${booking ? '发票入账' : '撤销发票入账'}：发票 ${numberOf(inv)}，${label}（${sourceText}）`);
  if (!hasTaxNumber(inv)) return { number: numberOf(inv), deliveryId: null };
  const id = newId();
  await trx
    .insertInto('income_booking_deliveries')
    .values({ id, invoice_id: invoiceId, state, source_type: source.type, source_no: source.no, requested_by: by.name, attempts: 0, next_attempt_at: now, last_error: '', status: 'pending', claimed_by: '', claimed_until: null, sent_at: null, created_at: now, updated_at: now })
    .execute();
  return { number: numberOf(inv), deliveryId: id };
}

export interface BookRequest {
  invoiceIds: readonly string[];
  state: BookedState;
  source: BookingSource;
}

/** Books each invoice (02 / 03) in its own transaction, then sends the flags at once; refusals per invoice. */
export function bookInvoices(db: Db, gateway: IncomeBookingGateway, r: BookRequest, by: Booker): Promise<BookingAnswer> {
  return change(db, gateway, r.invoiceIds, r.state, r.source, by);
}

/** Revokes each invoice's booking (06 入账撤销; the pool shows 06), then sends the flags at once. */
export function unbookInvoices(db: Db, gateway: IncomeBookingGateway, r: Omit<BookRequest, 'state'>, by: Booker): Promise<BookingAnswer> {
  return change(db, gateway, r.invoiceIds, '06', r.source, by);
}

/** Invoices (un)booked in a transaction and the deliveries queued with them, to send once it has committed. */
export interface QueuedChanges {
  state: SentState;
  results: BookingResult[];
  /** delivery id → invoice id */
  queued: Map<string, string>;
}

async function queueOne(trx: Db, invoiceId: string, source: BookingSource, by: Booker, q: QueuedChanges): Promise<void> {
  try {
    const r = await queueBooking(trx, invoiceId, q.state, source, by);
    q.results.push({ invoiceId, number: r.number, ok: true, message: r.deliveryId ? B.label(q.state) : `${B.label(q.state)}（该票据在税务端无发票号码，无需同步入账标识）` });
    if (r.deliveryId) q.queued.set(r.deliveryId, invoiceId);
  } catch (e) {
    // A refusal changed nothing (the guarded UPDATE matched no row): the transaction stays usable.
    if (!(e instanceof AppError)) throw e;
    const row = await trx.selectFrom('income_invoices').select(['digital_no', 'invoice_no']).where('id', '=', invoiceId).executeTakeFirst();
    q.results.push({ invoiceId, number: row ? numberOf(row) : '', ok: false, message: e.message });
  }
}

/**
 * In the caller's transaction: (un)books each invoice and queues its delivery, refusals per invoice. A document
 * whose own change and the invoices' booking must not come apart (a reimbursement bill recorded 已报销 or
 * revoked) queues them in its own transaction, so a crash after the commit still leaves the deliveries for the
 * booking job; `sendQueued` then tries them at once.
 */
export async function queueChanges(trx: Db, ids: readonly string[], state: SentState, source: BookingSource, by: Booker): Promise<QueuedChanges> {
  const q: QueuedChanges = { state, results: [], queued: new Map() };
  for (const invoiceId of [...new Set(ids)]) await queueOne(trx, invoiceId, source, by, q);
  return q;
}

async function change(db: Db, gateway: IncomeBookingGateway, ids: readonly string[], state: SentState, source: BookingSource, by: Booker): Promise<BookingAnswer> {
  const q: QueuedChanges = { state, results: [], queued: new Map() };
  for (const invoiceId of [...new Set(ids)]) await db.transaction().execute((trx) => queueOne(trx, invoiceId, source, by, q));
  return sendQueued(db, gateway, q, by);
}

/** Sends the deliveries queued (after their transaction committed); what is not sent stays pending for the job. */
export async function sendQueued(db: Db, gateway: IncomeBookingGateway, q: QueuedChanges, by: Booker): Promise<BookingAnswer> {
  const results = q.results;
  if (q.queued.size) {
    const statuses = await deliver(db, gateway, [...q.queued.keys()], { holder: IMMEDIATE_HOLDER, userId: by.id });
    for (const [deliveryId, invoiceId] of q.queued) {
      const r = results.find((x) => x.invoiceId === invoiceId)!;
      const d = statuses.get(deliveryId);
      r.delivery = d?.status ?? 'pending';
      r.message = d?.status === 'sent' ? `${r.message}，已同步税务端` : d?.status === 'failed' ? `${r.message}，税务端拒绝：${d.error}` : `${r.message}，税务端同步失败，系统将自动重试${d?.error ? `（${d.error}）` : ''}`;
    }
  }
  const done = results.filter((x) => x.ok).length;
  return { done, refused: results.length - done, results };
}
