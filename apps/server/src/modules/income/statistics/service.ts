/**
 * Period statistics (抵扣统计 / 退税统计, issue 14) on our side. The state and the figures are the tax
 * service's (IncomeStatGateway); we keep who did what (income_stat_actions) and log each action in the
 * operation log (the gateway writes the sync log rows).
 *
 * The period shown: the current tick period, or the one before it while that one's statistics are applied
 * for or confirmed and its deadline has not passed (after confirming 抵扣 the tick period moves on, the
 * confirmed one stays on screen so that it can be revoked). The clock is the tax service's: the simulator's
 * (TAX_SIMULATOR_NOW) in simulator mode.
 *
 * An action: (1) claims the period and scope with an active row (a partial unique index: one action under
 * way per period and scope, so two clicks or two servers make one call; a claim older than CLAIM_STALE_MS
 * is a crashed server's and is settled as failed); (2) asks the service for the state and refuses locally
 * when the action no longer fits it (the second of two confirms: 不能重复确认, with no second call);
 * (3) calls the service; (4) records the result. A refusal is answered with the service's Chinese message.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { IncomeKind, OperationLogType, STAT_ACTIONS_BY_STATE, StatAction, StatActionResult, type StatActionCode, type StatOutsideTickBody, type StatView } from '@zhyy/shared';
import { STAT_SCOPE_LABELS, TaxGatewayError, type StatFigures, type StatRequest, type StatScope, type TaxGateway } from '../../../integrations/tax/index.js';
import { STAT_MOVES, StatCodes, statRefusal } from '../../../integrations/tax/stat-rules.js';
import { formatYuan } from '../../../integrations/tax/money.js';
import { deadlineText, shiftPeriod } from '../../../integrations/tax/tick-rules.js';
import { currentUser } from '../../../platform/context.js';
import { AppError, conflict, refuse } from '../../../platform/envelope.js';
import { newId } from '../../../platform/ids.js';
import { nowIso } from '../../../platform/time.js';
import type { InvoiceSettings } from '../../invoice/settings/service.js';
import { tickedFigures } from '../deduction/figures.js';
import { transportDeductionTotal } from '../transport/repo.js';
import { itemOf, numberOf, rowsById } from '../deduction/batch.js';
import type { IncomeInvoiceTable } from '../pool/tables.js';
import { adopt, compare, publicComparison, type Compared } from './reconcile.js';
import './tables.js';

/** A claim older than this is a crashed server's. */
export const CLAIM_STALE_MS = 120_000;
export const STAT_BUSY = '该所属期的统计正在处理中，请稍后再试';
/** 确认统计 refused while the comparison has open differences and no reason was given. */
export const differencesOpen = (n: number) => `税务端统计与本系统勾选记录有${n}处差异，请先采纳税务端状态，或填写原因后确认`;
const isUniqueViolation = (err: unknown) => /unique|duplicate key/i.test(err instanceof Error ? err.message : String(err));
const CALL: Record<StatActionCode, 'applyStat' | 'confirmStat' | 'revokeStatApply' | 'revokeStatConfirm'> = { apply: 'applyStat', confirm: 'confirmStat', revokeApply: 'revokeStatApply', revokeConfirm: 'revokeStatConfirm' };
const kindLabel = (k: string) => (IncomeKind.values.includes(k as never) ? IncomeKind.label(k) : k || '其他');

export class Statistics {
  constructor(
    private readonly app: FastifyInstance,
    private readonly settings: InvoiceSettings,
  ) {}

  private get db() {
    return this.app.db.kysely;
  }

  /** The tax service's clock (the simulator's may be set). */
  private now(gw: TaxGateway): Date {
    return gw.now();
  }

  async view(req: FastifyRequest, scope: StatScope, period?: string): Promise<StatView> {
    const gw = await this.settings.gateway();
    const ctx = { userId: currentUser(req).id };
    const tp = await gw.tickPeriod(ctx);
    const prev = shiftPeriod(tp.period, -1);
    if (period && period !== prev && period !== tp.period) throw refuse(`只能查看税款所属期${prev}或${tp.period}的统计`);
    const before = await gw.statFigures({ period: prev, scope }, ctx);
    const current = await gw.statFigures({ period: tp.period, scope }, ctx);
    const showPrev = period ? period === prev : before.state !== 0 && this.now(gw).getTime() <= Date.parse(before.deadline);
    return this.shape(gw, ctx, scope, showPrev ? before : current, tp.period, [before, current], this.now(gw));
  }

  /**
   * The view of a period: the state and deadline are the tax service's; the figures come from the ticks we
   * recorded, by the same query as the ticking pages' header (deduction/figures.ts tickedFigures: 抵扣统计
   * counts the 抵扣 ticks only, 不抵扣 and 退税 apart), so that the two pages can never disagree. Our ticks
   * and the service's are kept equal (all-or-nothing batches, closed while applied); should the service's
   * totals differ all the same, `notice` says so with both figures.
   */
  private async shape(gw: TaxGateway, ctx: { userId: string }, scope: StatScope, f: StatFigures, tickPeriod: string, periods: StatFigures[], now: Date): Promise<StatView> {
    // 统计对比 (issue 32 item 1): once applied for, the bureau's counted invoices against our ticks, line by line.
    // A detail the service cannot give (a lost exchange, a Nuonuo call not yet confirmed) must not take the page down: the words instead.
    let comparison: StatView['comparison'] = null;
    let comparisonError = '';
    if (f.state !== 0) {
      try {
        comparison = publicComparison(await compare(this.db, gw, f.period, scope, ctx));
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        comparisonError = `税务端统计明细获取失败（${err.message}），暂不能逐张对比`;
      }
    }
    const transport = scope === 'deduction' ? await transportDeductionTotal(this.db, f.period) : null;
    const ours = await tickedFigures(this.db, f.period, scope);
    const differs = ours.totals.count !== f.totals.count || ours.totals.effectiveTax !== f.totals.effectiveTax;
    const notice = differs
      ? `税务端统计为${f.totals.count}份、有效税额${formatYuan(f.totals.effectiveTax)}元，与本系统勾选记录（${ours.totals.count}份、${formatYuan(ours.totals.effectiveTax)}元）不一致，请核对后再${f.state === 0 ? '申请' : '确认'}统计`
      : '';
    const last = await this.db.selectFrom('income_stat_actions').selectAll().where('scope', '=', scope).where('period', '=', f.period).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
    return {
      scope,
      period: f.period,
      periods: periods.map((p) => ({ period: p.period, state: p.state })),
      tickPeriod,
      deadline: f.deadline,
      deadlineText: deadlineText(f.deadline),
      state: f.state,
      rows: ours.rows.map((r) => ({ ...r, kindLabel: kindLabel(r.kind) })),
      totals: ours.totals,
      apart: ours.apart,
      notice,
      transport: transport ? { count: transport.count, basis: transport.basis, tax: transport.tax } : null,
      deductibleTotal: (scope === 'deduction' ? ours.totals.effectiveTax : ours.totals.tax) + (transport?.tax ?? 0),
      // 确认统计 in the period's own month is the bureau's 09: not offered, with the reason in our words (issue 31 #10).
      ...(statRefusal('confirm', f.state, f.period, f.deadline, now)?.code === StatCodes.sameMonth
        ? { actions: (STAT_ACTIONS_BY_STATE[f.state] ?? []).filter((a) => a !== 'confirm'), unavailable: { confirm: `所属期${f.period.slice(0, 4)}年${f.period.slice(4)}月当月不能确认统计，请于次月起、统计截止前确认` } }
        : { actions: [...(STAT_ACTIONS_BY_STATE[f.state] ?? [])] }),
      lastAction: last ? { action: last.action, result: Number(last.result), message: last.message, userName: last.user_name, at: last.created_at, ...(last.reason ? { reason: last.reason, differences: Number(last.differences) } : {}) } : null,
      comparison,
      ...(comparisonError ? { comparisonError } : {}),
      simulator: gw.mode === 'simulator' && !!gw.simulator,
    };
  }

  /** The claim of (scope, period), settling a crashed server's stale one first; refused while another is under way. */
  private async claim(req: FastifyRequest, r: StatRequest, action: StatActionCode): Promise<string> {
    const user = currentUser(req);
    const row = () => ({ id: newId(), period: r.period, scope: r.scope, action, result: StatActionResult.pending, message: '', state_after: null, active: 1, user_id: user.id, user_name: user.name, created_at: nowIso(), finished_at: null, reason: '', differences: 0 });
    for (let attempt = 0; attempt < 2; attempt++) {
      const values = row();
      try {
        await this.db.insertInto('income_stat_actions').values(values).execute();
        return values.id;
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        const cutoff = new Date(Date.now() - CLAIM_STALE_MS).toISOString();
        const settled = await this.db
          .updateTable('income_stat_actions')
          .set({ active: 0, result: StatActionResult.failed, message: '处理中断，结果未知，请刷新后查看', finished_at: nowIso() })
          .where('scope', '=', r.scope).where('period', '=', r.period).where('active', '=', 1).where('created_at', '<', cutoff)
          .executeTakeFirst();
        if (Number(settled.numUpdatedRows) === 0) break;
      }
    }
    throw conflict(STAT_BUSY);
  }

  private async finish(id: string, result: number, message: string, stateAfter: number | null, over: { reason: string; differences: number } = { reason: '', differences: 0 }): Promise<void> {
    await this.db.updateTable('income_stat_actions').set({ active: 0, result, message, state_after: stateAfter, finished_at: nowIso(), reason: over.reason, differences: over.differences }).where('id', '=', id).execute();
  }

  /**
   * An action. 确认统计 while the comparison has open differences (统计对比, issue 32 item 1) is refused unless the
   * clerk gives a reason; the reason and the number of differences are recorded with the action and in the
   * operation log.
   */
  async act(req: FastifyRequest, scope: StatScope, action: StatActionCode, period: string, reason = ''): Promise<StatView> {
    const r: StatRequest = { period, scope };
    const what = `${STAT_SCOPE_LABELS[scope]}：税款所属期${period}${StatAction.label(action)}`;
    const id = await this.claim(req, r, action);
    let after: StatFigures;
    let over = { reason: '', differences: 0 };
    try {
      const gw = await this.settings.gateway();
      const ctx = { userId: currentUser(req).id };
      const before = await gw.statFigures(r, ctx);
      if (before.state !== STAT_MOVES[action].from) {
        throw refuse(statRefusal(action, before.state, period, before.deadline, this.now(gw))?.message ?? '统计状态已变化，请刷新后重试');
      }
      if (action === 'confirm') {
        // Open differences, or a detail that cannot be read (unknown: counted as one), need the clerk's reason.
        let open: number;
        try {
          open = (await compare(this.db, gw, period, scope, ctx)).open;
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          if (!reason.trim()) throw refuse(`税务端统计明细获取失败（${err.message}），无法逐张对比；请稍后重试，或填写原因后确认`);
          open = 1;
        }
        if (open && !reason.trim()) throw refuse(differencesOpen(open));
        if (open) over = { reason: reason.trim(), differences: open };
      }
      after = await gw[CALL[action]](r, ctx);
    } catch (err) {
      const message = err instanceof AppError ? err.message : '税务端处理失败，请稍后重试';
      await this.finish(id, StatActionResult.failed, message, null);
      await this.app.oplog.record(req, OperationLogType.fail, `${what}失败：${message}`);
      if (err instanceof TaxGatewayError && err.status < 500) throw refuse(err.message);
      throw err;
    }
    await this.finish(id, StatActionResult.success, `${StatAction.label(action)}成功`, after.state, over);
    await this.app.oplog.record(req, OperationLogType.edit, `${what}成功${over.differences ? `（与税务端存在${over.differences}处差异，确认原因：${over.reason}）` : ''}`);
    return this.viewOf(req, scope, after);
  }

  /** 采纳税务端 (issue 32 item 1): only after 申请统计 and before 确认统计; answers the new view and how many were adopted. */
  async adopt(req: FastifyRequest, scope: StatScope, period: string, keys: readonly string[] | undefined): Promise<{ view: StatView; adopted: number }> {
    const gw = await this.settings.gateway();
    const ctx = { userId: currentUser(req).id };
    const f = await gw.statFigures({ period, scope }, ctx);
    if (f.state !== 1) throw refuse(`税款所属期${period}${f.state === 0 ? '尚未申请统计，请先申请统计后再对比' : '的统计已确认，不能再采纳；如需修改，请先撤销确认'}`);
    const c: Compared = await compare(this.db, gw, period, scope, ctx);
    const adopted = await adopt(this.app, req, c, period, scope, keys);
    return { view: await this.viewOf(req, scope, f), adopted };
  }

  /**
   * 模拟税务端勾选: the tax simulator's control (simulator mode only) — the clerk ticks or undoes pool invoices on
   * the bureau's platform, outside the product, in the current tick period. Our ledger is not touched.
   */
  async outsideTick(req: FastifyRequest, b: StatOutsideTickBody): Promise<{ period: string; accepted: number; outcomes: Array<{ key: string; accepted: boolean; message: string }> }> {
    const gw = await this.settings.gateway();
    if (gw.mode !== 'simulator' || !gw.simulator) throw refuse('当前连接的是真实税务端，请在税务端操作');
    let list: IncomeInvoiceTable[];
    if (b.ids?.length) {
      const rows = await rowsById(this.db, b.ids);
      if (b.ids.some((id) => !rows.has(id))) throw refuse('发票不存在');
      list = b.ids.map((id) => rows.get(id)!);
    } else {
      const numbers = [...new Set(b.numbers ?? [])];
      const found = await this.db.selectFrom('income_invoices').selectAll().where((eb) => eb.or([eb('digital_no', 'in', numbers), eb('invoice_no', 'in', numbers.map((n) => n.slice(-8)))])).execute();
      const byNumber = new Map((found as IncomeInvoiceTable[]).map((r) => [numberOf(r), r]));
      const absent = numbers.filter((n) => !byNumber.has(n));
      if (absent.length) throw refuse(`票池中无发票 ${absent.slice(0, 3).join('、')}`);
      list = numbers.map((n) => byNumber.get(n)!);
    }
    if (list.some((x) => x.kind === 'customs')) throw refuse('模拟税务端勾选不含海关缴款书');
    if ((b.vatUsage === 4) !== (b.deductReason !== undefined)) throw refuse(b.vatUsage === 4 ? '请选择不抵扣原因' : '只有不抵扣需要原因');
    const { period } = await gw.tickPeriod({ userId: currentUser(req).id });
    const outcomes = b.action === 'tick'
      ? await gw.simulator.tickOutside({ period, usage: b.vatUsage, ...(b.deductReason ? { reason: b.deductReason } : {}), items: list.map((x) => ({ ...itemOf(x), effectiveTax: b.vatUsage === 1 ? (b.effectiveTax ?? Number(x.tax)) : Number(x.tax) })) })
      : await gw.simulator.untickOutside({ period, usage: b.vatUsage, items: list.map(itemOf) });
    const accepted = outcomes.filter((o) => o.accepted).length;
    await this.app.oplog.record(req, OperationLogType.edit, `模拟税务端${b.action === 'tick' ? '勾选' : '撤销勾选'}：税款所属期 ${period}，${accepted}/${outcomes.length} 张`);
    return { period, accepted, outcomes };
  }

  private async viewOf(req: FastifyRequest, scope: StatScope, f: StatFigures): Promise<StatView> {
    const gw = await this.settings.gateway();
    const ctx = { userId: currentUser(req).id };
    const tp = await gw.tickPeriod(ctx);
    const other = f.period === tp.period ? shiftPeriod(tp.period, -1) : tp.period;
    const o = other === f.period ? f : await gw.statFigures({ period: other, scope }, ctx);
    const periods = [f, o].sort((a, b) => a.period.localeCompare(b.period));
    return this.shape(gw, ctx, scope, f, tp.period, periods, this.now(gw));
  }
}
