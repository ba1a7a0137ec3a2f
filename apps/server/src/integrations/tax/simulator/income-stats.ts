/**
 * The simulator's period statistics (抵扣统计 / 退税统计): the state per period and scope in
 * taxsim_income_periods (stat_state = 抵扣, rebate_state = 退税; no row = 0 未统计 with the filing
 * calendar's deadline, ../calendar.ts), each move one guarded UPDATE (… where state = from), so that of two calls at once exactly one
 * moves it and the other is refused by the rules (stat-rules.ts statRefusal: 08 / 09 / 10 and the
 * others). The figures are computed from the ticks of the period (taxsim_income_ticks) by kind, the kind
 * and amount from taxsim_income_known or, for the drawn invoices, from their face.
 */
import type { SyncLogService } from '../../../platform/synclog.js';
import { exchange, IncomeMethods as M, type TaxMethod } from '../exchange.js';
import type { NonDeductReason, PeriodStatState, StatDetailItem, StatDetailPage, StatDetailQuery, StatFigures, StatKindRow, StatRequest, TickUsage } from '../income-types.js';
import { checkStatRequest, detailPaging, STAT_ACTION_LABELS, STAT_DETAIL_USAGES, STAT_MOVES, STAT_SCOPE_LABELS, STAT_SCOPE_USAGES, STAT_STATE_LABELS, statError, statRefusal, type StatAction } from '../stat-rules.js';
import type { TaxCallContext } from '../types.js';
import { dayInvoices, locate } from './income-invoices.js';
import type { SimContext } from './progress.js';

const column = (scope: StatRequest['scope']) => (scope === 'deduction' ? 'stat_state' : 'rebate_state') as 'stat_state' | 'rebate_state';
const METHOD: Record<StatAction, TaxMethod> = { apply: M.statApply, revokeApply: M.statApply, confirm: M.statConfirm, revokeConfirm: M.statConfirm };

export class SimulatorStats {
  constructor(
    private readonly ctx: SimContext,
    private readonly synclog: SyncLogService,
  ) {}

  private async state(r: StatRequest): Promise<{ state: PeriodStatState; deadline: string }> {
    const row = await this.ctx.sdb.selectFrom('taxsim_income_periods').selectAll().where('period', '=', r.period).executeTakeFirst();
    if (!row) return { state: 0, deadline: (await this.ctx.deadlines([r.period])).get(r.period)! };
    return { state: Number(row[column(r.scope)] ?? 0) as PeriodStatState, deadline: row.deadline };
  }

  /** The kind and amount of ticked invoices the service did not register (the drawn ones). */
  private drawnFace(key: string): { kind: string; amount: number; tax: number; issueDate: string } | null {
    const company = this.ctx.company;
    const q = key.length === 20 ? { invoiceNo: key } : { invoiceCode: key.slice(0, -8), invoiceNo: key.slice(-8) };
    const at = company ? locate(q) : null;
    const d = at ? dayInvoices(company!, at.day)[at.index] : undefined;
    return d && d.face.key === key ? { kind: d.face.kind, amount: d.face.amountExcludingTax, tax: d.face.tax, issueDate: d.face.issueDate } : null;
  }

  /**
   * 抵扣统计明细: the period's ticks of the scope's detail usages (抵扣 and 不抵扣; the rebates), whoever made them —
   * the product's calls or the clerk on the bureau's platform (outside ticks, income-ticks.ts tickOutside) — in
   * key order, one page.
   */
  statDetails(r: StatDetailQuery, ctx?: TaxCallContext): Promise<StatDetailPage> {
    const request = { skssq: r.period, tjlx: r.scope === 'deduction' ? '1' : '2', pageNo: r.pageNo ?? 1, pageSize: r.pageSize ?? null };
    return exchange(this.synclog, M.statDetails, request, ctx, async () => {
      checkStatRequest(r, M.statDetails);
      const { pageNo, pageSize } = detailPaging(r, M.statDetails);
      const base = this.ctx.sdb.selectFrom('taxsim_income_ticks as t').where('t.period', '=', r.period).where('t.usage', 'in', [...STAT_DETAIL_USAGES[r.scope]]);
      const total = Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
      const rows = await base
        .leftJoin('taxsim_income_known as k', 'k.invoice_key', 't.invoice_key')
        .select(['t.invoice_key', 't.usage', 't.reason', 't.effective_tax', 't.ticked_at', 'k.kind', 'k.tax', 'k.issue_date'])
        .orderBy('t.invoice_key')
        .limit(pageSize)
        .offset((pageNo - 1) * pageSize)
        .execute();
      const items: StatDetailItem[] = rows.map((t) => {
        const face = t.kind ? null : this.drawnFace(t.invoice_key);
        const kind = t.kind ?? face?.kind ?? '';
        const key = t.invoice_key;
        const digital = key.length === 20 || kind === 'customs';
        return {
          key, kind, invoiceCode: digital ? '' : key.slice(0, -8), invoiceNo: digital ? key : key.slice(-8),
          issueDate: t.issue_date ?? face?.issueDate ?? '', usage: Number(t.usage) as TickUsage, reason: t.reason === null || t.reason === undefined ? null : (Number(t.reason) as NonDeductReason),
          tax: t.tax === null || t.tax === undefined ? (face?.tax ?? Number(t.effective_tax)) : Number(t.tax), effectiveTax: Number(t.effective_tax), tickedAt: t.ticked_at,
        };
      });
      return { value: { items, total, pageNo, pageSize }, log: { total, rows: items.length }, memo: `税款所属期 ${r.period} ${STAT_SCOPE_LABELS[r.scope]}明细：第${pageNo}页 ${items.length} 张，共 ${total} 张` };
    });
  }

  async figures(r: StatRequest): Promise<StatFigures> {
    const { state, deadline } = await this.state(r);
    const ticks = await this.ctx.sdb
      .selectFrom('taxsim_income_ticks as t')
      .leftJoin('taxsim_income_known as k', 'k.invoice_key', 't.invoice_key')
      .select(['t.invoice_key', 't.effective_tax', 'k.kind', 'k.tax', 'k.amount'])
      .where('t.period', '=', r.period)
      .where('t.usage', 'in', [...STAT_SCOPE_USAGES[r.scope]])
      .execute();
    const byKind = new Map<string, StatKindRow>();
    for (const t of ticks) {
      const face = t.kind ? { kind: t.kind, amount: t.amount === null || t.amount === undefined ? 0 : Number(t.amount) } : this.drawnFace(t.invoice_key);
      const kind = face?.kind ?? '';
      const row = byKind.get(kind) ?? { kind, count: 0, amountExcludingTax: 0, tax: 0, effectiveTax: 0 };
      row.count += 1;
      row.amountExcludingTax += face?.amount ?? 0;
      row.tax += t.tax === null || t.tax === undefined ? Number(t.effective_tax) : Number(t.tax);
      row.effectiveTax += Number(t.effective_tax);
      byKind.set(kind, row);
    }
    const rows = [...byKind.values()].sort((a, b) => a.kind.localeCompare(b.kind));
    const totals = rows.reduce((a, x) => ({ count: a.count + x.count, amountExcludingTax: a.amountExcludingTax + x.amountExcludingTax, tax: a.tax + x.tax, effectiveTax: a.effectiveTax + x.effectiveTax }), { count: 0, amountExcludingTax: 0, tax: 0, effectiveTax: 0 });
    return { period: r.period, scope: r.scope, state, deadline, rows, totals };
  }

  statFigures(r: StatRequest, ctx?: TaxCallContext): Promise<StatFigures> {
    return exchange(this.synclog, M.statFigures, { skssq: r.period, tjlx: r.scope === 'deduction' ? '1' : '2' }, ctx, async () => {
      checkStatRequest(r, M.statFigures);
      const value = await this.figures(r);
      return { value, log: { tjzt: value.state, totals: value.totals, rows: value.rows.length }, memo: `税款所属期 ${r.period} ${STAT_SCOPE_LABELS[r.scope]}：${STAT_STATE_LABELS[value.state]}，${value.totals.count} 张` };
    });
  }

  /** One move of the state machine: the rules, then the guarded update (a concurrent move makes the rules answer again). */
  act(action: StatAction, r: StatRequest, ctx?: TaxCallContext): Promise<StatFigures> {
    const method = METHOD[action];
    const flag = action === 'apply' || action === 'confirm' ? '1' : '0';
    const request = action === 'apply' || action === 'revokeApply' ? { skssq: r.period, tjlx: r.scope === 'deduction' ? '1' : '2', tjbz: flag } : { qrssq: r.period, tjlx: r.scope === 'deduction' ? '1' : '2', qrbz: flag };
    return exchange(this.synclog, method, request, ctx, async () => {
      checkStatRequest(r, method);
      const { from, to } = STAT_MOVES[action];
      const col = column(r.scope);
      for (let attempt = 0; ; attempt++) {
        const cur = await this.state(r);
        const refusal = statRefusal(action, cur.state, r.period, cur.deadline, this.ctx.now());
        if (refusal) throw statError(refusal, method);
        const at = this.ctx.now().toISOString();
        await this.ctx.sdb.insertInto('taxsim_income_periods').values({ period: r.period, deadline: cur.deadline, stat_state: 0, rebate_state: 0, updated_at: at }).onConflict((oc) => oc.column('period').doNothing()).execute();
        const moved = await this.ctx.sdb.updateTable('taxsim_income_periods').set({ [col]: to, updated_at: at }).where('period', '=', r.period).where(col, '=', from).executeTakeFirst();
        if (Number(moved.numUpdatedRows) === 1) break;
        if (attempt > 3) throw statError({ code: 'STATE', message: '统计状态正在变更，请稍后重试' }, method);
      }
      const value = await this.figures(r);
      return { value, log: { tjzt: value.state }, memo: `税款所属期 ${r.period} ${STAT_SCOPE_LABELS[r.scope]}${STAT_ACTION_LABELS[action]}成功：${STAT_STATE_LABELS[value.state]}` };
    });
  }
}
