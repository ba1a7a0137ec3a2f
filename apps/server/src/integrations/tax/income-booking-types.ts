/**
 * The booking flag (入账标识) as the tax gateway sees it: the items, the answers and the call. Split from
 * income-types.ts, which re-exports everything here.
 */
import type { TaxCallContext } from './call-context.js';

/** 01 未入账, 02 已入账（企业所得税税前扣除）, 03 已入账（不扣除）, 06 入账撤销. */
export type BookingFlag = '01' | '02' | '03' | '06';

/** One invoice of a booking-flag call: its number(s) as the service knows them and the state to record. */
export interface BookingItem {
  /** 10 or 12 digits; empty for 数电. */
  invoiceCode: string;
  /** 8 digits, or the 20-digit 数电 number. */
  invoiceNo: string;
  issueDate: string;
  state: BookingFlag;
  /** When it was booked ('YYYY-MM-DD'; the day of the call when absent). */
  bookedAt?: string;
}

/** The service's answer per invoice (same order as asked). */
export interface BookingOutcome {
  /** The invoice's key (数电 number, else code + number). */
  key: string;
  accepted: boolean;
  message: string;
}

/** 入账标识: one sync log row per call; a call-wide refusal or a failed exchange throws TaxGatewayError. */
export interface IncomeBookingGateway {
  /** Tells the service the booking state of each invoice (a batch of at most BOOKING_BATCH_MAX): each accepted or refused with its reason. */
  setBookingState(items: BookingItem[], ctx?: TaxCallContext): Promise<BookingOutcome[]>;
}
