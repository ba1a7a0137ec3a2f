/** 入账标识 (issue 14): book (02 / 03) and revoke (06) pool invoices, one invoice's deliveries, 立即重试. */
import type { BookingAnswer, BookingInfo } from '@zhyy/shared';
import { api } from './clients';

export const bookingApi = {
  /** Read silently: the section says itself when it could not load. */
  info: (invoiceId: string) => api.post<BookingInfo>('/income/booking/deliveries', { invoiceId }, { silent: true }),
  book: (invoiceIds: string[], state: '02' | '03') => api.request<BookingAnswer>('/income/booking/book', { invoiceIds, state }, { silent: true }),
  revoke: (invoiceIds: string[]) => api.request<BookingAnswer>('/income/booking/revoke', { invoiceIds }, { silent: true }),
  retry: (invoiceId: string) => api.request<BookingInfo>('/income/booking/retry', { invoiceId }, { silent: true }),
};
