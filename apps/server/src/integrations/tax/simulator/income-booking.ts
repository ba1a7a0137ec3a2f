/**
 * The simulator's booking flag (入账标识): the flag of each invoice it knows (the drawn ones and those
 * registered in taxsim_income_known, as ticking) kept in taxsim_income_bookings. Per invoice it refuses an
 * unknown invoice (税务端无此发票信息), 06 on an invoice not booked (该发票未入账，不能撤销入账; 06 again on one
 * already revoked is accepted, a retry) and 01 on a booked one; the same state again is accepted (a retry).
 * The whole call fails like a lost connection (TRANSPORT) at the simulator's failureRate, or while the test
 * hook's counter (taxsim_booking_faults, `failNextBookingCalls`) is above zero — decremented atomically, so
 * two servers failing "the next call" fail exactly one call between them.
 */
import type { SyncLogService } from '../../../platform/synclog.js';
import { BookingMessages, bookingKey, BOOKING_FLAG_LABELS, checkBookingItems } from '../booking-rules.js';
import { TaxErrorCode, TaxGatewayError } from '../errors.js';
import { exchange, IncomeMethods as M } from '../exchange.js';
import type { BookingItem, BookingOutcome } from '../income-types.js';
import type { TaxCallContext } from '../types.js';
import type { SimulatorTicks } from './income-ticks.js';
import { shanghaiDate } from './numbers.js';
import type { SimContext } from './progress.js';

const FAULTS = 'next';
const BOOKED = ['02', '03'];

/** The simulator only: the next `n` booking-flag calls fail as if the connection were lost (tests). */
export async function failNextBookingCalls(ctx: SimContext, n: number): Promise<void> {
  await ctx.sdb.insertInto('taxsim_booking_faults').values({ id: FAULTS, remaining: n }).onConflict((oc) => oc.column('id').doUpdateSet({ remaining: n })).execute();
}

export class SimulatorBooking {
  constructor(
    private readonly ctx: SimContext,
    private readonly synclog: SyncLogService,
    private readonly ticks: SimulatorTicks,
  ) {}

  /** True when this call is to fail: the test hook's counter (taken atomically), else the failure rate. */
  private async failing(): Promise<boolean> {
    const taken = await this.ctx.sdb.updateTable('taxsim_booking_faults').set((eb) => ({ remaining: eb('remaining', '-', 1) })).where('id', '=', FAULTS).where('remaining', '>', 0).executeTakeFirst();
    if (Number(taken.numUpdatedRows) > 0) return true;
    return this.ctx.failureRate > 0 && this.ctx.random() < this.ctx.failureRate;
  }

  setBookingState(items: BookingItem[], ctx?: TaxCallContext): Promise<BookingOutcome[]> {
    const request = { invoiceKey: items.map(bookingKey), list: items.map((i) => ({ fpdm: i.invoiceNo.length === 20 ? '' : i.invoiceCode, fphm: i.invoiceNo.length === 20 ? '' : i.invoiceNo, qdfphm: i.invoiceNo.length === 20 ? i.invoiceNo : '', kprq: i.issueDate, rzzt: i.state, rzrq: i.bookedAt ?? '' })) };
    return exchange(this.synclog, M.booking, request, ctx, async () => {
      checkBookingItems(items, M.booking);
      if (await this.failing()) throw new TaxGatewayError(TaxErrorCode.transport, BookingMessages.simulatedFailure, M.booking);
      const now = this.ctx.now();
      const at = now.toISOString();
      const keys = items.map(bookingKey);
      const rows = new Map((await this.ctx.sdb.selectFrom('taxsim_income_bookings').selectAll().where('invoice_key', 'in', keys).execute()).map((r) => [r.invoice_key, r]));
      const outcomes: BookingOutcome[] = [];
      for (const item of items) {
        const key = bookingKey(item);
        const had = rows.get(key);
        let refusal = '';
        if (!(await this.ticks.find(item))) refusal = BookingMessages.unknown;
        else if (item.state === '06' && !(had && (BOOKED.includes(had.state) || had.state === '06'))) refusal = BookingMessages.neverBooked;
        else if (item.state === '01' && had && BOOKED.includes(had.state)) refusal = BookingMessages.bookedUnset;
        if (refusal) {
          outcomes.push({ key, accepted: false, message: refusal });
          continue;
        }
        const booked = BOOKED.includes(item.state);
        const row = { invoice_key: key, state: item.state, booked_at: booked ? (item.bookedAt ?? shanghaiDate(now)) : (had?.booked_at ?? ''), ever_booked: booked || had?.ever_booked ? 1 : 0, updated_at: at };
        await this.ctx.sdb.insertInto('taxsim_income_bookings').values(row).onConflict((oc) => oc.column('invoice_key').doUpdateSet({ state: row.state, booked_at: row.booked_at, ever_booked: row.ever_booked, updated_at: at })).execute();
        rows.set(key, row);
        outcomes.push({ key, accepted: true, message: BookingMessages.accepted(item.state) });
      }
      const refused = outcomes.filter((o) => !o.accepted);
      const states = [...new Set(items.map((i) => BOOKING_FLAG_LABELS[i.state]))].join('、');
      return { value: outcomes, log: { accepted: outcomes.length - refused.length, refused }, memo: `入账标识（${states}）${outcomes.length} 张：成功 ${outcomes.length - refused.length} 张，拒绝 ${refused.length} 张` };
    });
  }
}
