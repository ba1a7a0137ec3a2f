/**
 * The tax period of ticking, asked of the tax service: why it refuses ticking now (past the deadline, the
 * statistics confirmed, or the page's statistics applied for: from 申请统计 until 撤销申请 the period's ticks
 * are frozen, as on the bureau's platform), the open period a batch needs (fresh: refused with the reason
 * when closed), the period header's facts with this period's figures (figures.ts, the same query as the
 * statistics), and the list window (kept a minute).
 */
import type { FastifyRequest } from 'fastify';
import type { TickPeriodInfo } from '@zhyy/shared';
import type { TaxGateway, TickPeriod } from '../../../integrations/tax/index.js';
import { deadlineText, TickMessages } from '../../../integrations/tax/tick-rules.js';
import { currentUser } from '../../../platform/context.js';
import { refuse } from '../../../platform/envelope.js';
import type { Db } from './batch.js';
import { tickedFigures } from './figures.js';
import { candidateSums } from './queries.js';
import type { TickScope } from './rules.js';

/**
 * Why the period refuses ticking at `now` (the tax service's time; '' when open): past the deadline, the
 * 抵扣统计 confirmed (the whole period), or this page's own statistics applied for or confirmed (`scopeState`:
 * 抵扣统计 for 抵扣勾选 — 抵扣 and 不抵扣 —, 退税统计 for 退税勾选).
 */
export function closedReason(p: TickPeriod, now: number, scopeState: number): string {
  if (now > Date.parse(p.deadline)) return TickMessages.pastDeadline(p.period, deadlineText(p.deadline));
  if (p.statState === 2 || scopeState === 2) return TickMessages.confirmed(p.period);
  if (scopeState === 1) return TickMessages.applied(p.period);
  return '';
}

/** The state of the page's statistics for the period: 抵扣统计's comes with the period, 退税统计's is asked. */
async function scopeStatState(gw: TaxGateway, p: TickPeriod, scope: TickScope, userId: string): Promise<number> {
  if (scope === 'deduction') return p.statState;
  return (await gw.statFigures({ period: p.period, scope: 'rebate' }, { userId })).state;
}

/** The open period (fresh) for the page's ticks, or the refusal with its reason. */
export async function openPeriod(req: FastifyRequest, gw: TaxGateway, scope: TickScope): Promise<TickPeriod> {
  const userId = currentUser(req).id;
  const p = await gw.tickPeriod({ userId });
  const closed = closedReason(p, gw.now().getTime(), await scopeStatState(gw, p, scope, userId));
  if (closed) throw refuse(closed);
  return p;
}

/** The period header: the service's period, whether it is open (or why not), its figures, the setting 先入账后勾选. */
export async function periodInfo(db: Db, gw: TaxGateway, req: FastifyRequest, scope: TickScope, bookedOnly: () => Promise<boolean>): Promise<TickPeriodInfo> {
  const userId = currentUser(req).id;
  const p = await gw.tickPeriod({ userId });
  const serviceNow = gw.now();
  const scopeState = await scopeStatState(gw, p, scope, userId);
  const closed = closedReason(p, serviceNow.getTime(), scopeState);
  const [figures, candidates] = await Promise.all([tickedFigures(db, p.period, scope), candidateSums(db, scope, p)]);
  const ticked = { count: figures.totals.count, tax: figures.totals.tax, effectiveTax: figures.totals.effectiveTax };
  return {
    period: p.period, deadline: p.deadline, deadlineText: deadlineText(p.deadline), serviceNow: serviceNow.toISOString(), windowFrom: p.windowFrom, windowTo: p.windowTo,
    statState: scopeState, open: !closed, closedReason: closed, ticked, apart: figures.apart, candidates, tickBookedOnly: await bookedOnly(),
  };
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
