/**
 * The booking flag (入账标识) rules both implementations apply before asking the service: the shape of a
 * batch (at most BOOKING_BATCH_MAX invoices, numbers as for ticking, no duplicate, a known state) and the
 * service's refusal messages.
 */
import { TaxErrorCode, TaxGatewayError } from './errors.js';
import type { BookingFlag, BookingItem } from './income-types.js';
import { tickKey, TickMessages } from './tick-rules.js';

/** At most this many invoices in one booking-flag call (ours; the service's own limit is to be confirmed). */
export const BOOKING_BATCH_MAX = 500;
export const BOOKING_FLAGS: readonly BookingFlag[] = ['01', '02', '03', '06'];
export const BOOKING_FLAG_LABELS: Record<BookingFlag, string> = { '01': '未入账', '02': '已入账（企业所得税税前扣除）', '03': '已入账（不扣除）', '06': '入账撤销' };

export const BookingMessages = {
  unknown: TickMessages.unknown,
  neverBooked: '该发票未入账，不能撤销入账',
  bookedUnset: '该发票已入账，请以入账撤销（06）撤销',
  accepted: (state: BookingFlag) => `入账标识已更新为${BOOKING_FLAG_LABELS[state]}`,
  /** The simulator's made-up transport failure (failureRate, failNextBookingCalls). */
  simulatedFailure: '税务端连接超时，入账标识未送达（模拟）',
} as const;

export const bookingKey = tickKey;

export function checkBookingItems(items: readonly BookingItem[], method: string): void {
  const invalid = (message: string) => new TaxGatewayError(TaxErrorCode.invalid, message, method);
  if (!items.length) throw invalid('请至少选择一张发票');
  if (items.length > BOOKING_BATCH_MAX) throw invalid(`一次最多提交${BOOKING_BATCH_MAX}张发票的入账标识`);
  const seen = new Set<string>();
  for (const i of items) {
    if (!/^(\d{8}|\d{20})$/.test(i.invoiceNo) || (i.invoiceNo.length === 8 && !/^\d{10}(\d{2})?$/.test(i.invoiceCode))) throw invalid(`发票号码不正确：${i.invoiceCode}${i.invoiceNo}`);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(i.issueDate)) throw invalid(`开票日期不正确：${i.issueDate}`);
    if (!BOOKING_FLAGS.includes(i.state)) throw invalid(`入账标识不正确：${String(i.state)}`);
    if (i.bookedAt !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(i.bookedAt)) throw invalid(`入账日期不正确：${i.bookedAt}`);
    const k = bookingKey(i);
    if (seen.has(k)) throw invalid(`同一批次中发票重复：${k}`);
    seen.add(k);
  }
}
