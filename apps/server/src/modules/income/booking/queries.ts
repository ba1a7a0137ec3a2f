/** The booking facts of one invoice for the pool detail's 入账标识 section: state, date and the deliveries, newest first. */
import type { BookingInfo } from '@zhyy/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { notFound } from '../../../platform/envelope.js';
import './tables.js';

export async function bookingInfo(db: Kysely<Database>, invoiceId: string): Promise<BookingInfo> {
  const inv = await db.selectFrom('income_invoices').select(['id', 'booking_state', 'booked_at']).where('id', '=', invoiceId).executeTakeFirst();
  if (!inv) throw notFound('发票不存在');
  const rows = await db.selectFrom('income_booking_deliveries').selectAll().where('invoice_id', '=', invoiceId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  return {
    invoiceId,
    bookingState: inv.booking_state,
    bookedAt: inv.booked_at ?? null,
    deliveries: rows.map((r) => ({
      id: r.id,
      state: r.state,
      sourceType: r.source_type,
      sourceNo: r.source_no,
      requestedBy: r.requested_by,
      attempts: Number(r.attempts),
      nextAttemptAt: r.status === 'pending' ? r.next_attempt_at : null,
      lastError: r.last_error,
      status: r.status,
      sentAt: r.sent_at,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
    })),
  };
}
