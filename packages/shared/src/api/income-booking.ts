/**
 * Incoming invoices (issue 14): the booking flag (入账标识). Booking an invoice (02 已入账（企业所得税税前扣除）,
 * 03 已入账（不扣除）) or revoking it (06 入账撤销) sets the pool's booking state and queues a delivery to the
 * tax service, tried at once and retried by a background job with back-off until it is sent or given up.
 */
import { z } from '../zod-locale.js';
import { defineEnum } from '../enum.js';
import { Uuid } from './common.js';

/** A delivery of the flag to the tax service: 待同步/待重试 (pending), 已同步 (sent), 失败 (failed: refused, or given up after the retries). */
export const BookingDeliveryStatus = defineEnum({ pending: ['pending', '待同步'], sent: ['sent', '已同步'], failed: ['failed', '失败'] });
/** What booked the invoice. */
export const BookingSourceType = defineEnum({ manual: ['manual', '手工标记'], contract: ['contract', '合同签收'], reimbursement: ['reimbursement', '报销单'] });
/** The states we send: 02 / 03 (booked) and 06 (revoked). */
export const BOOKING_STATES_BOOKED = ['02', '03'] as const;

/** Minutes from a failed attempt to the next one: after the 1st 1, the 2nd 5, the 3rd 30, then hourly. */
export const BOOKING_RETRY_MINUTES = [1, 5, 30, 60] as const;
/** Attempts before a delivery is given up (失败, visible with its last reason; 立即重试 starts again). */
export const BOOKING_MAX_ATTEMPTS = 10;
/** Minutes to wait after attempt n (1-based) failed. */
export const bookingRetryMinutes = (attempts: number) => BOOKING_RETRY_MINUTES[Math.min(Math.max(attempts, 1), BOOKING_RETRY_MINUTES.length) - 1]!;
/** Invoices in one book or revoke request. */
export const BOOKING_MAX_INVOICES = 100;

const InvoiceIds = z.array(Uuid, { message: '请选择发票' }).min(1, '请选择发票').max(BOOKING_MAX_INVOICES, `一次最多选择${BOOKING_MAX_INVOICES}张发票`);
export const BookBody = z.object({
  invoiceIds: InvoiceIds,
  state: z.enum(BOOKING_STATES_BOOKED, { message: '请选择入账类型（已入账（企业所得税税前扣除）或已入账（不扣除））' }),
});
export type BookBody = z.infer<typeof BookBody>;
export const UnbookBody = z.object({ invoiceIds: InvoiceIds });
export type UnbookBody = z.infer<typeof UnbookBody>;
export const BookingInvoiceBody = z.object({ invoiceId: Uuid });
export type BookingInvoiceBody = z.infer<typeof BookingInvoiceBody>;

export interface BookingDeliveryRow {
  id: string;
  /** 02, 03 or 06 */
  state: string;
  sourceType: string;
  sourceNo: string;
  requestedBy: string;
  attempts: number;
  /** While pending: when the next attempt is due (ISO). */
  nextAttemptAt: string | null;
  lastError: string;
  status: string;
  sentAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The booking facts of one invoice (the pool detail's 入账标识 section). */
export interface BookingInfo {
  invoiceId: string;
  bookingState: string;
  /** When the invoice was booked (ISO); null while not booked. */
  bookedAt: string | null;
  /** Newest first. */
  deliveries: BookingDeliveryRow[];
}

/** The answer of book / revoke / retry per invoice: refused here (ok false), or set with its delivery's status. */
export interface BookingResult {
  invoiceId: string;
  number: string;
  ok: boolean;
  message: string;
  /** The delivery's status after the immediate attempt (absent when refused). */
  delivery?: string;
}

export interface BookingAnswer {
  done: number;
  refused: number;
  results: BookingResult[];
}
