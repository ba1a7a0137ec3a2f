/**
 * Sending booking flags (入账标识) to the tax service. A delivery is sent only by whoever claims it: a guarded
 * UPDATE (pending, due, not claimed by a live attempt, and no older pending delivery of the same invoice, so
 * an invoice's flags go out in the order they were set) that counts the attempt and holds the row for
 * CLAIM_MS. Two servers (the request's immediate attempt, the job on another server, 立即重试 twice) can
 * therefore never send one delivery twice; a server that dies mid-attempt leaves a claim that expires, and
 * the job takes the delivery again.
 *
 * The outcome: accepted → sent; refused by the service (unknown invoice, 06 on an invoice not booked, a bad
 * request) → failed with its reason; no answer (transport, credentials) → pending again, the next attempt
 * after 1, 5, 30 minutes, then hourly (BOOKING_RETRY_MINUTES), given up (failed, with the last reason) after
 * BOOKING_MAX_ATTEMPTS attempts. Every attempt is one sync log row (the gateway writes it).
 */
import { BOOKING_MAX_ATTEMPTS, bookingRetryMinutes } from '@zhyy/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { BOOKING_BATCH_MAX } from '../../../integrations/tax/booking-rules.js';
import { TaxErrorCode, TaxGatewayError } from '../../../integrations/tax/errors.js';
import type { BookingFlag, BookingItem, BookingOutcome, IncomeBookingGateway } from '../../../integrations/tax/income-types.js';
import { tickKey } from '../../../integrations/tax/tick-rules.js';
import { newHolderId } from '../../../platform/leases.js';
import './tables.js';

type Db = Kysely<Database>;
/** The holder of this process's immediate attempts (the requests'). */
export const IMMEDIATE_HOLDER = `request:${newHolderId()}`;
/** How long an attempt holds its delivery: well above one call's timeout (15 s). */
export const CLAIM_MS = 2 * 60_000;
const SHANGHAI_MS = 8 * 3600_000;
const dayOf = (iso: string) => new Date(Date.parse(iso) + SHANGHAI_MS).toISOString().slice(0, 10);

export interface DeliverOptions {
  holder: string;
  userId: string | null;
  now?: Date;
}

export interface DeliveryStatus {
  status: 'sent' | 'pending' | 'failed';
  error: string;
}

/** Claims one delivery for `holder`; false when it is not pending, not due, held by a live attempt or waits behind an older one. */
async function claim(db: Db, id: string, holder: string, at: string): Promise<boolean> {
  const u = await db
    .updateTable('income_booking_deliveries')
    .set((eb) => ({ claimed_by: holder, claimed_until: new Date(Date.parse(at) + CLAIM_MS).toISOString(), attempts: eb('attempts', '+', 1), updated_at: at }))
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', at)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', at)]))
    .where(({ not, exists, selectFrom, eb }) =>
      not(
        exists(
          selectFrom('income_booking_deliveries as o')
            .select('o.id')
            .whereRef('o.invoice_id', '=', 'income_booking_deliveries.invoice_id')
            .where('o.status', '=', 'pending')
            .where((o) => o.or([o('o.created_at', '<', eb.ref('income_booking_deliveries.created_at')), o.and([o('o.created_at', '=', eb.ref('income_booking_deliveries.created_at')), o('o.id', '<', eb.ref('income_booking_deliveries.id'))])])),
        ),
      ),
    )
    .executeTakeFirst();
  return Number(u.numUpdatedRows) > 0;
}

/** Claims and sends the given deliveries (those this caller may take); the status each claimed one reached. */
export async function deliver(db: Db, gateway: IncomeBookingGateway, ids: readonly string[], o: DeliverOptions): Promise<Map<string, DeliveryStatus>> {
  const now = o.now ?? new Date();
  const at = now.toISOString();
  const out = new Map<string, DeliveryStatus>();
  const claimed: string[] = [];
  for (const id of ids) if (await claim(db, id, o.holder, at)) claimed.push(id);
  if (!claimed.length) return out;
  const rows = await db
    .selectFrom('income_booking_deliveries as d')
    .innerJoin('income_invoices as p', 'p.id', 'd.invoice_id')
    .select(['d.id', 'd.state', 'd.attempts', 'd.created_at', 'p.invoice_code', 'p.invoice_no', 'p.digital_no', 'p.issue_date', 'p.booked_at'])
    .where('d.id', 'in', claimed)
    .where('d.claimed_by', '=', o.holder)
    .orderBy('d.created_at')
    .execute();
  const settle = (id: string, set: { status: string; last_error: string; next_attempt_at?: string | null; sent_at?: string | null }) =>
    db.updateTable('income_booking_deliveries').set({ ...set, claimed_by: '', claimed_until: null, updated_at: new Date().toISOString() }).where('id', '=', id).where('claimed_by', '=', o.holder).execute();
  for (let i = 0; i < rows.length; i += BOOKING_BATCH_MAX) {
    const batch = rows.slice(i, i + BOOKING_BATCH_MAX);
    const items: BookingItem[] = batch.map((r) => {
      const digital = /^\d{20}$/.test(r.digital_no) ? r.digital_no : /^\d{20}$/.test(r.invoice_no) ? r.invoice_no : '';
      const booked = r.state !== '06';
      return { invoiceCode: digital ? '' : r.invoice_code, invoiceNo: digital || r.invoice_no, issueDate: r.issue_date, state: r.state as BookingFlag, ...(booked ? { bookedAt: dayOf(r.booked_at ?? r.created_at) } : {}) };
    });
    let outcomes: BookingOutcome[];
    try {
      outcomes = await gateway.setBookingState(items, { userId: o.userId });
    } catch (e) {
      const message = e instanceof Error && e.message ? e.message : '税务端未应答';
      const retry = !(e instanceof TaxGatewayError) || e.serviceCode === TaxErrorCode.transport || e.serviceCode === TaxErrorCode.auth;
      for (const r of batch) {
        const attempts = Number(r.attempts);
        if (retry && attempts < BOOKING_MAX_ATTEMPTS) {
          await settle(r.id, { status: 'pending', last_error: message, next_attempt_at: new Date(now.getTime() + bookingRetryMinutes(attempts) * 60_000).toISOString() });
          out.set(r.id, { status: 'pending', error: message });
        } else {
          const error = retry ? `已尝试${attempts}次仍未送达：${message}` : message;
          await settle(r.id, { status: 'failed', last_error: error, next_attempt_at: null });
          out.set(r.id, { status: 'failed', error });
        }
      }
      continue;
    }
    const byKey = new Map(outcomes.map((x) => [x.key, x]));
    for (const [k, r] of batch.entries()) {
      const x = byKey.get(tickKey(items[k]!));
      if (x?.accepted) {
        await settle(r.id, { status: 'sent', last_error: '', next_attempt_at: null, sent_at: new Date().toISOString() });
        out.set(r.id, { status: 'sent', error: '' });
      } else {
        const error = x?.message || '税务端未返回该发票的入账标识结果';
        await settle(r.id, { status: 'failed', last_error: error, next_attempt_at: null });
        out.set(r.id, { status: 'failed', error });
      }
    }
  }
  return out;
}

/** The deliveries due at `now` (pending, next attempt passed, not held by a live attempt), oldest first. */
export async function dueDeliveries(db: Db, now: Date, limit: number): Promise<string[]> {
  const at = now.toISOString();
  const rows = await db
    .selectFrom('income_booking_deliveries')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', at)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', at)]))
    .orderBy('next_attempt_at')
    .orderBy('created_at')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/**
 * 立即重试 of one invoice: its deliveries not sent (pending, or failed — given up or refused, started again
 * with a fresh count) become due now, then are sent. Answers how many were made due (0: nothing to retry).
 */
export async function retryInvoice(db: Db, gateway: IncomeBookingGateway, invoiceId: string, o: DeliverOptions): Promise<{ retried: number; statuses: Map<string, DeliveryStatus> }> {
  const at = (o.now ?? new Date()).toISOString();
  const rows = await db
    .updateTable('income_booking_deliveries')
    .set((eb) => ({ status: 'pending', next_attempt_at: at, attempts: eb.case().when('status', '=', 'failed').then(0).else(eb.ref('attempts')).end(), updated_at: at }))
    .where('invoice_id', '=', invoiceId)
    .where('status', 'in', ['pending', 'failed'])
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', at)]))
    .returning('id')
    .execute();
  const ids = (await db.selectFrom('income_booking_deliveries').select('id').where('invoice_id', '=', invoiceId).where('status', '=', 'pending').orderBy('created_at').execute()).map((r) => r.id);
  // An invoice's deliveries go out in order: each pass sends the oldest pending one.
  const statuses = new Map<string, DeliveryStatus>();
  for (let pass = 0; pass < ids.length; pass++) {
    const got = await deliver(db, gateway, ids.filter((id) => !statuses.has(id)), o);
    if (!got.size) break;
    for (const [k, v] of got) statuses.set(k, v);
    if ([...got.values()].some((v) => v.status === 'pending')) break;
  }
  return { retried: rows.length, statuses };
}
