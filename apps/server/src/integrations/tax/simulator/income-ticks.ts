/**
 * The simulator's ticking (勾选): the current period from the bureau's calendar (tick-rules.ts
 * currentPeriod; a period's deadline and statistics state in taxsim_income_periods, the deadline of a
 * period without a row the filing calendar's, ../calendar.ts), and batches of ticks and undos kept in taxsim_income_ticks, one row per
 * invoice ticked. The service knows the invoices drawn for the company (income-invoices.ts) and those
 * registered in taxsim_income_known (the demo's pool and tests: invoices issued to the company by
 * suppliers outside the drawn ones). Like the real service it refuses per invoice — unknown invoice,
 * void / red / 失控, 异常凭证 for deduction, an effective tax above the tax, a usage other than the one
 * already ticked, a tick of another period, an undo of an invoice not ticked — and the whole call past
 * the deadline, once the period is confirmed, or for a period that is not the current one.
 */
import type { SyncLogService } from '../../../platform/synclog.js';
import { TaxErrorCode, TaxGatewayError } from '../errors.js';
import { exchange, IncomeMethods as M } from '../exchange.js';
import { INCOME_STATE_LABELS } from '../income-rules.js';
import type { CustomsTickItem, CustomsTickRequest, CustomsUntickRequest, IncomeInvoiceState, IncomeRiskLevel, NonDeductReason, TickItem, TickOutcome, TickPeriod, TickRequest, TickUsage, UntickRequest } from '../income-types.js';
import type { TaxCallContext } from '../types.js';
import {
  checkCustomsTickRequest, checkCustomsUntickRequest, checkTickRequest, checkUntickRequest, currentPeriod, deadlineText, NON_DEDUCT_REASON_LABELS, periodEnd, shiftPeriod,
  tickKey, TICK_USAGE_LABELS, TICK_WINDOW_START, TickMessages,
} from '../tick-rules.js';
import { asSeenAt, dayInvoices, locate } from './income-invoices.js';
import { statusOverrides } from './status-store.js';
import type { SimContext } from './progress.js';

interface Known {
  tax: number;
  issueDate: string;
  state: IncomeInvoiceState;
  risk: IncomeRiskLevel;
  /** When the state or risk last changed (Asia/Shanghai 'YYYY-MM-DD HH:mm:ss'; '' while never). */
  changedAt?: string;
}

/** An invoice the simulated service knows (without its tick), for registering it. */
export interface KnownIncoming {
  key: string;
  kind: string;
  issueDate: string;
  tax: number;
  /** 分, for the statistics' figures (income-stats.ts); unknown while absent. */
  amountExcludingTax?: number;
  riskLevel?: IncomeRiskLevel;
  state?: IncomeInvoiceState;
}

/** Tells the simulated service of invoices issued to the company (the demo's pool, tests); a known key is overwritten. */
export async function registerKnownIncoming(ctx: SimContext, invoices: readonly KnownIncoming[]): Promise<void> {
  const at = ctx.now().toISOString();
  for (let i = 0; i < invoices.length; i += 200) {
    const rows = invoices.slice(i, i + 200).map((v) => ({ invoice_key: v.key, kind: v.kind, issue_date: v.issueDate, tax: v.tax, amount: v.amountExcludingTax ?? null, risk_level: v.riskLevel ?? '01', invoice_state: v.state ?? 0, registered_at: at }));
    await ctx.sdb
      .insertInto('taxsim_income_known')
      .values(rows)
      .onConflict((oc) => oc.column('invoice_key').doUpdateSet((eb) => ({ kind: eb.ref('excluded.kind'), issue_date: eb.ref('excluded.issue_date'), tax: eb.ref('excluded.tax'), amount: eb.ref('excluded.amount'), risk_level: eb.ref('excluded.risk_level'), invoice_state: eb.ref('excluded.invoice_state') })))
      .execute();
  }
}

export class SimulatorTicks {
  constructor(
    private readonly ctx: SimContext,
    private readonly synclog: SyncLogService,
  ) {}

  /** The period's deadline and statistics states (the filing calendar's deadline and 0 while the bureau wrote nothing for it). */
  private async periods(list: string[]): Promise<Map<string, { deadline: string; statState: number; rebateState: number }>> {
    const rows = await this.ctx.sdb.selectFrom('taxsim_income_periods').selectAll().where('period', 'in', list).execute();
    const calendar = await this.ctx.deadlines(list);
    const out = new Map(list.map((p) => [p, { deadline: calendar.get(p)!, statState: 0, rebateState: 0 }]));
    for (const r of rows) out.set(r.period, { deadline: r.deadline, statState: Number(r.stat_state), rebateState: Number(r.rebate_state ?? 0) });
    return out;
  }

  private async current(): Promise<TickPeriod & { rebateState: number }> {
    const now = this.ctx.now();
    const month = new Date(now.getTime() + 8 * 3600_000).toISOString().slice(0, 7).replace('-', '');
    const rows = await this.periods([shiftPeriod(month, -1), month]);
    const period = currentPeriod(now, (p) => rows.get(p)!);
    const row = rows.get(period)!;
    return { period, deadline: row.deadline, windowFrom: TICK_WINDOW_START, windowTo: periodEnd(period), statState: row.statState as 0 | 1 | 2, rebateState: row.rebateState };
  }

  tickPeriod(ctx?: TaxCallContext): Promise<TickPeriod> {
    return exchange(this.synclog, M.period, {}, ctx, async () => {
      const { rebateState: _r, ...value } = await this.current();
      return { value, log: value, memo: `当前税款所属期 ${value.period}，勾选截止 ${deadlineText(value.deadline)}` };
    });
  }

  /**
   * The call-wide refusals: another period, past the deadline, confirmed, or the usage's statistics applied
   * for (抵扣统计 freezes 抵扣 and 不抵扣 ticks, 退税统计 the rebate ones, from 申请统计 until 撤销申请).
   */
  private async open(period: string, usage: TickUsage, method: string): Promise<void> {
    const cur = await this.current();
    if (period !== cur.period) throw new TaxGatewayError(TaxErrorCode.state, TickMessages.notCurrent(period, cur.period), method);
    if (this.ctx.now().getTime() > Date.parse(cur.deadline)) throw new TaxGatewayError(TaxErrorCode.state, TickMessages.pastDeadline(period, deadlineText(cur.deadline)), method);
    const scopeState = usage === 2 || usage === 3 ? cur.rebateState : cur.statState;
    if (cur.statState === 2 || scopeState === 2) throw new TaxGatewayError(TaxErrorCode.state, TickMessages.confirmed(period), method);
    if (scopeState === 1) throw new TaxGatewayError(TaxErrorCode.state, TickMessages.applied(period), method);
  }

  /**
   * The invoice as the service knows it (null: unknown), with the bureau's status changes a test or the demo
   * made (income-status.ts setIncomingStatus) over it. Also the booking flag's and the status query's.
   */
  async find(item: Pick<TickItem, 'invoiceCode' | 'invoiceNo' | 'issueDate'>): Promise<Known | null> {
    const known = await this.findBase(item);
    if (!known) return null;
    const o = (await statusOverrides(this.ctx, [tickKey(item)])).get(tickKey(item));
    return o ? { ...known, state: o.state, risk: o.risk, changedAt: o.changedAt } : known;
  }

  private async findBase(item: Pick<TickItem, 'invoiceCode' | 'invoiceNo' | 'issueDate'>): Promise<Known | null> {
    const key = tickKey(item);
    const reg = await this.ctx.sdb.selectFrom('taxsim_income_known').selectAll().where('invoice_key', '=', key).executeTakeFirst();
    if (reg) return reg.issue_date === item.issueDate ? { tax: Number(reg.tax), issueDate: reg.issue_date, state: Number(reg.invoice_state) as IncomeInvoiceState, risk: reg.risk_level as IncomeRiskLevel } : null;
    const company = this.ctx.company;
    const at = locate(item);
    if (!company || !at) return null;
    const drawn = dayInvoices(company, at.day)[at.index];
    const nowMs = this.ctx.now().getTime();
    if (!drawn || drawn.issuedMs > nowMs) return null;
    const f = drawn.face;
    const same = item.invoiceNo.length === 20 ? f.allElectronicNo === item.invoiceNo : f.invoiceCode === item.invoiceCode && f.invoiceNo === item.invoiceNo;
    if (!same || f.issueDate !== item.issueDate) return null;
    const seen = asSeenAt(drawn, nowMs);
    return { tax: seen.tax, issueDate: seen.issueDate, state: seen.state, risk: seen.riskLevel, changedAt: seen.changedAt };
  }

  private async ticksOf(keys: string[]) {
    const rows = await this.ctx.sdb.selectFrom('taxsim_income_ticks').selectAll().where('invoice_key', 'in', keys).execute();
    return new Map(rows.map((r) => [r.invoice_key, r]));
  }

  tickInvoices(r: TickRequest, ctx?: TaxCallContext): Promise<TickOutcome[]> {
    const request = { skssq: r.period, gxlx: r.usage, bdkyy: r.reason ?? null, invoiceKey: r.items.map(tickKey), list: r.items };
    return exchange(this.synclog, M.tick, request, ctx, async () => {
      checkTickRequest(r, M.tick);
      await this.open(r.period, r.usage, M.tick);
      const outcomes = await this.record(r, await Promise.all(r.items.map(async (item) => ({ key: tickKey(item), effectiveTax: item.effectiveTax, known: await this.find(item) }))));
      return this.answer(r, outcomes, '');
    });
  }

  /**
   * 海关缴款书勾选, the customs notices' own call: a notice is known when registered (kind customs, its
   * number the key) with the same 填发日期; then the invoices' refusals apply (state, effective tax,
   * another usage or period).
   */
  tickCustoms(r: CustomsTickRequest, ctx?: TaxCallContext): Promise<TickOutcome[]> {
    const request = { skssq: r.period, gxlx: r.usage, bdkyy: r.reason ?? null, list: r.items.map((i) => ({ jkshm: i.noticeNo, tfrq: i.fillDate, yxse: i.effectiveTax })) };
    return exchange(this.synclog, M.customsTick, request, ctx, async () => {
      checkCustomsTickRequest(r, M.customsTick);
      await this.open(r.period, r.usage, M.customsTick);
      const outcomes = await this.record(r, await Promise.all(r.items.map(async (item) => ({ key: item.noticeNo, effectiveTax: item.effectiveTax, known: await this.findCustoms(item) }))));
      return this.answer(r, outcomes, '海关缴款书');
    });
  }

  /** A registered customs notice of that number and 填发日期 (null: unknown). */
  private async findCustoms(item: Pick<CustomsTickItem, 'noticeNo' | 'fillDate'>): Promise<Known | null> {
    const reg = await this.ctx.sdb.selectFrom('taxsim_income_known').selectAll().where('invoice_key', '=', item.noticeNo).where('kind', '=', 'customs').executeTakeFirst();
    return reg && reg.issue_date === item.fillDate ? { tax: Number(reg.tax), issueDate: reg.issue_date, state: Number(reg.invoice_state) as IncomeInvoiceState, risk: reg.risk_level as IncomeRiskLevel } : null;
  }

  /** The per-document refusals, and the accepted ones kept in taxsim_income_ticks (invoices and customs notices alike). */
  private async record(r: { period: string; usage: TickUsage; reason?: NonDeductReason | undefined }, entries: Array<{ key: string; effectiveTax: number; known: Known | null }>): Promise<TickOutcome[]> {
    const ticks = await this.ticksOf(entries.map((e) => e.key));
    const at = this.ctx.now().toISOString();
    const outcomes: TickOutcome[] = [];
    for (const { key, effectiveTax, known: inv } of entries) {
      const had = ticks.get(key);
      let refusal = '';
      if (!inv) refusal = TickMessages.unknown;
      else if ([1, 2, 3, 8].includes(inv.state)) refusal = TickMessages.badState(INCOME_STATE_LABELS[inv.state]);
      else if (r.usage === 1 && inv.risk === '02') refusal = TickMessages.abnormalVoucher;
      else if (r.usage === 1 && (effectiveTax <= 0 || effectiveTax > inv.tax)) refusal = TickMessages.effectiveTax;
      else if (had && Number(had.usage) !== r.usage) refusal = TickMessages.usedOtherwise(Number(had.usage) as TickUsage, r.usage);
      else if (had && had.period !== r.period) refusal = TickMessages.otherPeriod(had.period);
      if (refusal) {
        outcomes.push({ key, accepted: false, message: refusal });
        continue;
      }
      const row = { invoice_key: key, usage: r.usage, reason: r.reason ?? null, effective_tax: r.usage === 1 ? effectiveTax : inv!.tax, period: r.period, ticked_at: at };
      await this.ctx.sdb.insertInto('taxsim_income_ticks').values(row).onConflict((oc) => oc.column('invoice_key').doUpdateSet({ reason: row.reason, effective_tax: row.effective_tax, ticked_at: at })).execute();
      outcomes.push({ key, accepted: true, message: '勾选成功' });
    }
    return outcomes;
  }

  /**
   * The simulator's control of ticks made outside the product (issue 32 item 1): the clerk ticks, re-ticks
   * with another effective tax, or undoes on the bureau's platform itself. The bureau's own rules apply (the
   * period open and not applied for, the invoice known, its state, the usage exclusive), but it is not an
   * exchange of ours: no sync log row. The ticks land in taxsim_income_ticks beside the product's, so the
   * statistics and their detail (抵扣统计明细) count them.
   */
  async tickOutside(r: TickRequest): Promise<TickOutcome[]> {
    checkTickRequest(r, M.tick);
    await this.open(r.period, r.usage, M.tick);
    return this.record(r, await Promise.all(r.items.map(async (item) => ({ key: tickKey(item), effectiveTax: item.effectiveTax, known: await this.find(item) }))));
  }

  /** An undo made outside the product (the control above). */
  async untickOutside(r: UntickRequest): Promise<TickOutcome[]> {
    checkUntickRequest(r, M.untick);
    await this.open(r.period, r.usage, M.untick);
    return (await this.unrecord(r, r.items.map((item) => ({ key: tickKey(item), find: () => this.find(item) })), '')).value;
  }

  private answer(r: { period: string; usage: TickUsage; reason?: NonDeductReason | undefined }, outcomes: TickOutcome[], what0: string) {
    const refused = outcomes.filter((o) => !o.accepted);
    const what = r.usage === 4 ? `不抵扣（${NON_DEDUCT_REASON_LABELS[r.reason!]}）` : TICK_USAGE_LABELS[r.usage];
    return { value: outcomes, log: { accepted: outcomes.length - refused.length, refused }, memo: `税款所属期 ${r.period} ${what0}勾选${what} ${outcomes.length} 张：成功 ${outcomes.length - refused.length} 张，拒绝 ${refused.length} 张` };
  }

  untickInvoices(r: UntickRequest, ctx?: TaxCallContext): Promise<TickOutcome[]> {
    const request = { skssq: r.period, gxlx: r.usage, invoiceKey: r.items.map(tickKey), list: r.items };
    return exchange(this.synclog, M.untick, request, ctx, async () => {
      checkUntickRequest(r, M.untick);
      await this.open(r.period, r.usage, M.untick);
      return this.unrecord(r, r.items.map((item) => ({ key: tickKey(item), find: () => this.find(item) })), '');
    });
  }

  /** 撤销海关缴款书勾选, the customs notices' own undo. */
  untickCustoms(r: CustomsUntickRequest, ctx?: TaxCallContext): Promise<TickOutcome[]> {
    const request = { skssq: r.period, gxlx: r.usage, list: r.items.map((i) => ({ jkshm: i.noticeNo, tfrq: i.fillDate })) };
    return exchange(this.synclog, M.customsUntick, request, ctx, async () => {
      checkCustomsUntickRequest(r, M.customsUntick);
      await this.open(r.period, r.usage, M.customsUntick);
      return this.unrecord(r, r.items.map((item) => ({ key: item.noticeNo, find: () => this.findCustoms(item) })), '海关缴款书');
    });
  }

  private async unrecord(r: { period: string; usage: TickUsage }, entries: Array<{ key: string; find: () => Promise<Known | null> }>, what0: string) {
    const ticks = await this.ticksOf(entries.map((e) => e.key));
    const outcomes: TickOutcome[] = [];
    for (const { key, find } of entries) {
      const had = ticks.get(key);
      let refusal = '';
      if (!had) refusal = (await find()) ? TickMessages.notTicked : TickMessages.unknown;
      else if (Number(had.usage) !== r.usage) refusal = TickMessages.usedOtherwise(Number(had.usage) as TickUsage, r.usage);
      else if (had.period !== r.period) refusal = TickMessages.otherPeriod(had.period);
      if (refusal) {
        outcomes.push({ key, accepted: false, message: refusal });
        continue;
      }
      await this.ctx.sdb.deleteFrom('taxsim_income_ticks').where('invoice_key', '=', key).execute();
      outcomes.push({ key, accepted: true, message: '撤销勾选成功' });
    }
    const refused = outcomes.filter((o) => !o.accepted);
    return { value: outcomes, log: { accepted: outcomes.length - refused.length, refused }, memo: `税款所属期 ${r.period} 撤销${what0}${TICK_USAGE_LABELS[r.usage]}勾选 ${outcomes.length} 张：成功 ${outcomes.length - refused.length} 张，拒绝 ${refused.length} 张` };
  }
}
