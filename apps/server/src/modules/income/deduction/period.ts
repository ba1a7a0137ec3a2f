/**
 * The tax period of ticking, asked of the tax service: why it refuses ticking now (past the deadline, or
 * the statistics confirmed), the open period a batch needs (fresh: refused with the reason when closed),
 * the period header's facts with this period's sums, and the list window (kept a minute).
 */
import type { FastifyRequest } from 'fastify';
import type { TickPeriodInfo } from '@zhyy/shared';
import type { TaxGateway, TickPeriod } from '../../../integrations/tax/index.js';
import { deadlineText, TickMessages } from '../../../integrations/tax/tick-rules.js';
import { currentUser } from '../../../platform/context.js';
import { refuse } from '../../../platform/envelope.js';
import type { Db } from './batch.js';
import { periodSums } from './queries.js';
import type { TickScope } from './rules.js';

/** Why the period refuses ticking at `now` (the tax service's time; '' when open). */
export function closedReason(p: TickPeriod, now: number): string {
  if (now > Date.parse(p.deadline)) return TickMessages.pastDeadline(p.period, deadlineText(p.deadline));
  if (p.statState === 2) return TickMessages.confirmed(p.period);
  return '';
}

/** The open period (fresh), or the refusal with its reason. */
export async function openPeriod(req: FastifyRequest, gw: TaxGateway): Promise<TickPeriod> {
  const p = await gw.tickPeriod({ userId: currentUser(req).id });
  const closed = closedReason(p, gw.now().getTime());
  if (closed) throw refuse(closed);
  return p;
}

/** The period header: the service's period, whether it is open (or why not), its sums, the setting 先入账后勾选. */
export async function periodInfo(db: Db, gw: TaxGateway, req: FastifyRequest, scope: TickScope, bookedOnly: () => Promise<boolean>): Promise<TickPeriodInfo> {
  const p = await gw.tickPeriod({ userId: currentUser(req).id });
  const serviceNow = gw.now();
  const closed = closedReason(p, serviceNow.getTime());
  const sums = await periodSums(db, p.period, scope, p);
  return { period: p.period, deadline: p.deadline, deadlineText: deadlineText(p.deadline), serviceNow: serviceNow.toISOString(), windowFrom: p.windowFrom, windowTo: p.windowTo, statState: p.statState, open: !closed, closedReason: closed, ...sums, tickBookedOnly: await bookedOnly() };
}

/** The period for a list (the window); a list does not need it fresh to the second, so it is kept a minute. */
export class ListWindow {
  private cached: { at: number; p: TickPeriod } | null = null;

  async get(req: FastifyRequest, gateway: () => Promise<TaxGateway>): Promise<TickPeriod> {
    if (this.cached && Date.now() - this.cached.at < 60_000) return this.cached.p;
    const p = await (await gateway()).tickPeriod({ userId: currentUser(req).id });
    this.cached = { at: Date.now(), p };
    return p;
  }
}
