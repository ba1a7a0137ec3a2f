/**
 * Ticking (勾选) and undoing, as all-or-nothing batches:
 *
 * 1. the period is asked of the tax service (fresh: the deadline and the statistics state decide);
 *    past the deadline or once the period is confirmed the whole request is refused with the reason;
 * 2. every invoice is checked on our side (rules.ts); one refusal and nothing goes further — the answer
 *    names each refusal, and the attempt is written to the tick log as failed;
 * 3. a batch holding 疑点 or abnormal invoices is answered needConfirm (您勾选的发票中含有疑点发票) until it
 *    comes back with confirmed: true (nothing attempted, nothing logged);
 * 4. the tax service is asked (one logged exchange per call: the integrated sync log) in calls of at most
 *    TICK_CALL_SIZE invoices, grouped by usage (and 不抵扣 reason);
 * 5. if the service refuses any invoice (or a call fails), the service is put back as our records say
 *    (takeBackTicks: undo what was not ticked, tick again as it was what was — a changed effective tax or
 *    reason —, leave what a concurrent batch recorded meanwhile; for an undo, tick again what our records
 *    still hold as ticked: the compensating calls, also logged), nothing is recorded, and the answer
 *    lists each refusal; every invoice of the batch is logged as failed with its reason;
 * 6. else one transaction records every invoice with a guarded update (still free or ticked for this
 *    usage, as read) and the tick log rows (success); a concurrent change makes it roll back and the
 *    service's ticks are taken back as in 5.
 */
import { randomUUID } from 'node:crypto';
import ExcelJS from 'exceljs';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import {
  NonDeductReason, OperationLogType, TICK_CONFIRM_MESSAGE, TICK_MAX_INVOICES, TickUsage,
  type CandidateFilter, type TickAnswer, type TickBody, type TickImportAnswer, type TickImportBody, type TickImportRow, type TickOutcomeRow, type TickPeriodInfo, type UntickBody,
} from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import { type NonDeductReason as Reason, type TaxGateway, type TickOutcome, type TickPeriod, type TickUsage as Usage } from '../../../integrations/tax/index.js';
import { deadlineText, TickMessages } from '../../../integrations/tax/tick-rules.js';
import { currentUser } from '../../../platform/context.js';
import { AppError, conflict, refuse } from '../../../platform/envelope.js';
import { newId } from '../../../platform/ids.js';
import { nowIso } from '../../../platform/time.js';
import type { InvoiceSettings } from '../../invoice/settings.js';
import { addEvent } from '../events.js';
import type { IncomeInvoiceTable } from '../tables.js';
import { candidateIds, periodSums } from './queries.js';
import { needsConfirm, SCOPE_PAGE, SCOPE_USAGES, tickRefusal, untickRefusal, type PeriodFacts, type TickScope } from './rules.js';
import './tables.js';

type Db = Kysely<Database>;
/** Invoices per call to the tax service. */
export const TICK_CALL_SIZE = 500;

const numberOf = (r: Pick<IncomeInvoiceTable, 'digital_no' | 'invoice_code' | 'invoice_no'>) => r.digital_no || `${r.invoice_code}${r.invoice_no}`;
/** The service's key of a pool invoice (its identity as tick-rules.ts tickKey names it). */
const keyOf = numberOf;
const tickKeyOf = (i: { invoiceCode: string; invoiceNo: string }) => (i.invoiceNo.length === 20 ? i.invoiceNo : `${i.invoiceCode}${i.invoiceNo}`);
const itemOf = (r: IncomeInvoiceTable) => (r.digital_no ? { invoiceCode: '', invoiceNo: r.digital_no, issueDate: r.issue_date } : { invoiceCode: r.invoice_code, invoiceNo: r.invoice_no, issueDate: r.issue_date });

export class Ticking {
  constructor(
    private readonly app: FastifyInstance,
    private readonly settings: InvoiceSettings,
  ) {}

  private get db(): Db {
    return this.app.db.kysely;
  }

  async gateway(): Promise<TaxGateway> {
    return this.settings.gateway();
  }

  async bookedOnly(): Promise<boolean> {
    return Number((await this.settings.row()).tick_booked_only ?? 0) === 1;
  }

  /** Why the period refuses ticking now ('' when open). */
  static closedReason(p: TickPeriod, now = Date.now()): string {
    if (now > Date.parse(p.deadline)) return TickMessages.pastDeadline(p.period, deadlineText(p.deadline));
    if (p.statState === 2) return TickMessages.confirmed(p.period);
    return '';
  }

  async periodInfo(req: FastifyRequest, scope: TickScope): Promise<TickPeriodInfo> {
    const p = await (await this.gateway()).tickPeriod({ userId: currentUser(req).id });
    const closed = Ticking.closedReason(p);
    const sums = await periodSums(this.db, p.period, scope, p);
    return { period: p.period, deadline: p.deadline, deadlineText: deadlineText(p.deadline), windowFrom: p.windowFrom, windowTo: p.windowTo, statState: p.statState, open: !closed, closedReason: closed, ...sums, tickBookedOnly: await this.bookedOnly() };
  }

  /** The period for a list (the window); a list does not need it fresh to the second, so it is kept a minute. */
  private cached: { at: number; p: TickPeriod } | null = null;
  async windowForList(req: FastifyRequest): Promise<TickPeriod> {
    if (this.cached && Date.now() - this.cached.at < 60_000) return this.cached.p;
    const p = await (await this.gateway()).tickPeriod({ userId: currentUser(req).id });
    this.cached = { at: Date.now(), p };
    return p;
  }

  private async rows(ids: readonly string[]): Promise<Map<string, IncomeInvoiceTable>> {
    const out = new Map<string, IncomeInvoiceTable>();
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await this.db.selectFrom('income_invoices').selectAll().where('id', 'in', ids.slice(i, i + 500)).execute();
      for (const r of rows) out.set(r.id, r as IncomeInvoiceTable);
    }
    return out;
  }

  /** The open period (fresh), or the refusal with its reason. */
  private async openPeriod(req: FastifyRequest, gw: TaxGateway): Promise<TickPeriod> {
    const p = await gw.tickPeriod({ userId: currentUser(req).id });
    const closed = Ticking.closedReason(p);
    if (closed) throw refuse(closed);
    return p;
  }

  private async idsOfFilter(f: CandidateFilter, scope: TickScope, p: TickPeriod, tickState: 0 | 1): Promise<string[]> {
    const ids = await candidateIds(this.db, { ...f, tickState }, scope, p, TICK_MAX_INVOICES);
    if (!ids.length) throw refuse(tickState === 0 ? '筛选结果中没有可勾选的发票' : '筛选结果中没有已勾选的发票');
    if (ids.length > TICK_MAX_INVOICES) throw refuse(`筛选结果超过${TICK_MAX_INVOICES}张，请缩小筛选范围后再${tickState === 0 ? '勾选' : '撤销'}`);
    return ids;
  }

  async tick(req: FastifyRequest, scope: TickScope, b: TickBody): Promise<TickAnswer> {
    const usage = Number(b.vatUsage) as Usage;
    if (!SCOPE_USAGES[scope].includes(usage)) throw refuse(`${SCOPE_PAGE[scope]}不能勾选为${TickUsage.label(usage)}`);
    const gw = await this.gateway();
    const p = await this.openPeriod(req, gw);
    const wanted = b.items ?? (await this.idsOfFilter(b.filter!, scope, p, 0)).map((id) => ({ id, effectiveTax: undefined }));
    return this.tickItems(req, scope, gw, p, usage, b.deductReason === undefined ? null : (Number(b.deductReason) as Reason), wanted, b.confirmed);
  }

  private async tickItems(req: FastifyRequest, scope: TickScope, gw: TaxGateway, p: TickPeriod, usage: Usage, reason: Reason | null, wanted: ReadonlyArray<{ id: string; effectiveTax?: number | undefined }>, confirmed: boolean): Promise<TickAnswer> {
    const ids = [...new Set(wanted.map((w) => w.id))];
    if (ids.length !== wanted.length) throw refuse('同一张发票在本批中重复');
    const rows = await this.rows(ids);
    const facts: PeriodFacts = { period: p.period, windowFrom: p.windowFrom, windowTo: p.windowTo, tickBookedOnly: await this.bookedOnly() };
    const plan = wanted.map((w) => {
      const r = rows.get(w.id);
      const eff = usage === 1 ? (w.effectiveTax ?? Number(r?.tax ?? 0)) : Number(r?.tax ?? 0);
      return { id: w.id, r, eff, refusal: r ? tickRefusal(r, usage, eff, facts) : '发票不存在' };
    });
    const batchId = randomUUID();
    const refusals = plan.filter((x) => x.refusal);
    if (refusals.length) {
      const outcomes = plan.map((x) => ({ invoiceId: x.id, invoiceNumber: x.r ? numberOf(x.r) : '', ok: false, message: x.refusal || '同批有不能勾选的发票，本批均未勾选' }));
      await this.writeLog(req, batchId, 'tick', usage, reason, p.period, plan.map((x, i) => ({ r: x.r, eff: x.eff, ok: false, message: outcomes[i]!.message })));
      return { done: false, needConfirm: false, batchId, count: 0, refused: refusals.length, outcomes };
    }
    const doubtful = plan.filter((x) => needsConfirm(x.r! as Parameters<typeof needsConfirm>[0]));
    if (doubtful.length && !confirmed) {
      return { done: false, needConfirm: true, batchId: '', count: 0, refused: 0, outcomes: doubtful.map((x) => ({ invoiceId: x.id, invoiceNumber: numberOf(x.r!), ok: false, message: TICK_CONFIRM_MESSAGE })) };
    }
    const items = plan.map((x) => ({ ...itemOf(x.r!), effectiveTax: x.eff }));
    const user = currentUser(req);
    const ctx = { userId: user.id };
    const accepted: typeof items = [];
    const serviceSays = new Map<string, TickOutcome>();
    let failure = '';
    for (let i = 0; i < items.length && !failure; i += TICK_CALL_SIZE) {
      const chunk = items.slice(i, i + TICK_CALL_SIZE);
      try {
        const out = await gw.tickInvoices({ period: p.period, usage, ...(reason ? { reason } : {}), items: chunk }, ctx);
        out.forEach((o, k) => {
          serviceSays.set(o.key, o);
          if (o.accepted) accepted.push(chunk[k]!);
        });
      } catch (e) {
        if (!(e instanceof AppError)) throw e;
        failure = e.message;
      }
    }
    const refusedKeys = [...serviceSays.values()].filter((o) => !o.accepted);
    let recorded = false;
    if (!failure && !refusedKeys.length) {
      try {
        await this.record(req, plan.map((x) => ({ id: x.id, r: x.r!, eff: x.eff })), usage, reason, p.period, batchId);
        recorded = true;
      } catch (e) {
        if (!(e instanceof AppError)) throw e;
        failure = e.message;
      }
    }
    if (recorded) {
      return { done: true, needConfirm: false, batchId, count: plan.length, refused: 0, outcomes: plan.map((x) => ({ invoiceId: x.id, invoiceNumber: numberOf(x.r!), ok: true, message: '勾选成功' })) };
    }
    const takeBack = await this.takeBackTicks(gw, p.period, usage, plan.map((x) => x.r!), new Set(accepted.map((i) => tickKeyOf(i))), ctx);
    const outcomes: TickOutcomeRow[] = plan.map((x) => {
      const said = serviceSays.get(keyOf(x.r!));
      const message = said && !said.accepted ? said.message : failure ? `勾选失败：${failure}` : `同批有发票被税务端拒绝，本批均未勾选${takeBack}`;
      return { invoiceId: x.id, invoiceNumber: numberOf(x.r!), ok: false, message };
    });
    await this.writeLog(req, batchId, 'tick', usage, reason, p.period, plan.map((x, i) => ({ r: x.r, eff: x.eff, ok: false, message: outcomes[i]!.message })));
    return { done: false, needConfirm: false, batchId, count: 0, refused: refusedKeys.length || plan.length, outcomes };
  }

  /**
   * Puts the service back as our records say, for the invoices of a failed tick batch it accepted: an
   * invoice that was not ticked is unticked there; one already ticked for this usage (a change of its
   * effective tax or reason) is ticked again as it was; one that a concurrent batch has meanwhile recorded
   * as ticked for this usage and period is left alone. Answers '' or the words saying the service could
   * not be put back.
   */
  private async takeBackTicks(gw: TaxGateway, period: string, usage: Usage, rows: IncomeInvoiceTable[], acceptedKeys: Set<string>, ctx: { userId: string }): Promise<string> {
    const mine = rows.filter((r) => acceptedKeys.has(keyOf(r)));
    if (!mine.length) return '';
    const now = await this.rows(mine.map((r) => r.id));
    const untick: IncomeInvoiceTable[] = [];
    const restore = new Map<string, IncomeInvoiceTable[]>();
    for (const r of mine) {
      const cur = now.get(r.id) ?? r;
      const tickedHere = Number(cur.tick_state ?? 0) === 1 && Number(cur.vat_usage ?? 0) === usage && cur.tick_period === period;
      if (!tickedHere) untick.push(r);
      else if (Number(r.tick_state ?? 0) === 1) {
        const k = String(cur.deduct_reason ?? '');
        restore.set(k, [...(restore.get(k) ?? []), cur]);
      }
      // else: recorded meanwhile by a concurrent batch; the service's tick is right.
    }
    let words = '';
    if (untick.length) words += await this.compensate(() => this.chunked(untick, (c) => gw.untickInvoices({ period, usage, items: c.map(itemOf) }, ctx)));
    for (const [reason, list] of restore) {
      words += await this.compensate(() =>
        this.chunked(list, (c) => gw.tickInvoices({ period, usage, ...(reason ? { reason: Number(reason) as Reason } : {}), items: c.map((r) => ({ ...itemOf(r), effectiveTax: Number(r.effective_tax ?? r.tax) })) }, ctx)),
      );
    }
    return words;
  }

  private async chunked<T>(items: T[], call: (chunk: T[]) => Promise<TickOutcome[]>): Promise<TickOutcome[]> {
    const out: TickOutcome[] = [];
    for (let i = 0; i < items.length; i += TICK_CALL_SIZE) out.push(...(await call(items.slice(i, i + TICK_CALL_SIZE))));
    return out;
  }

  /** Runs the compensating call; answers '' or the words saying it failed (the tax service must then be checked by hand). */
  private async compensate(call: () => Promise<TickOutcome[]>): Promise<string> {
    try {
      const out = await call();
      const left = out.filter((o) => !o.accepted);
      return left.length ? `（税务端撤回失败 ${left.map((o) => `${o.key}：${o.message}`).join('；')}，请在税务端核对）` : '';
    } catch (e) {
      return `（税务端撤回失败：${e instanceof Error ? e.message : String(e)}，请在税务端核对）`;
    }
  }

  /** Step 6: one transaction, guarded per invoice, with the log rows. */
  private async record(req: FastifyRequest, plan: Array<{ id: string; r: IncomeInvoiceTable; eff: number }>, usage: Usage, reason: Reason | null, period: string, batchId: string): Promise<void> {
    const user = currentUser(req);
    const at = nowIso();
    await this.db.transaction().execute(async (trx) => {
      for (const x of plan) {
        const u = await trx
          .updateTable('income_invoices')
          .set({ vat_usage: usage, tick_state: 1, effective_tax: x.eff, deduct_reason: reason, tick_period: period, ticked_at: at, ticked_by: user.name, updated_at: at })
          .where('id', '=', x.id)
          .where('vat_usage', '=', Number(x.r.vat_usage ?? 0))
          .where('tick_state', '=', Number(x.r.tick_state ?? 0))
          .executeTakeFirst();
        if (Number(u.numUpdatedRows) === 0) throw conflict(`发票 ${numberOf(x.r)} 的勾选状态已变化，请刷新后重试`);
        const what = usage === 4 ? `不抵扣（${NonDeductReason.label(reason!)}）` : `${TickUsage.label(usage)}，有效税额 ${(x.eff / 100).toFixed(2)} 元`;
        await addEvent(trx, x.id, 'tick', `勾选${what}，税款所属期 ${period}`, user.name);
      }
      await this.insertLog(trx, req, batchId, 'tick', usage, reason, period, plan.map((x) => ({ r: x.r, eff: x.eff, ok: true, message: '勾选成功' })), at);
      const what = usage === 4 ? `不抵扣（${NonDeductReason.label(reason!)}）` : TickUsage.label(usage);
      await this.app.oplog.record(req, OperationLogType.edit, `发票勾选${what}：税款所属期 ${period}，${plan.length} 张，批次 ${batchId}`, trx);
    });
  }

  async untick(req: FastifyRequest, scope: TickScope, b: UntickBody): Promise<TickAnswer> {
    const gw = await this.gateway();
    const p = await this.openPeriod(req, gw);
    const ids = b.ids ?? (await this.idsOfFilter(b.filter!, scope, p, 1));
    if (new Set(ids).size !== ids.length) throw refuse('同一张发票在本批中重复');
    const rows = await this.rows(ids);
    const plan = ids.map((id) => {
      const r = rows.get(id);
      return { id, r, refusal: r ? untickRefusal(r, scope, p.period) : '发票不存在' };
    });
    const batchId = randomUUID();
    const user = currentUser(req);
    const usageOf = (r: IncomeInvoiceTable | undefined) => Number(r?.vat_usage ?? 0) as Usage;
    const logOf = (outcomes: TickOutcomeRow[]) =>
      this.writeUntickLog(req, batchId, p.period, plan.map((x, i) => ({ r: x.r, ok: false, message: outcomes[i]!.message })));
    if (plan.some((x) => x.refusal)) {
      const outcomes = plan.map((x) => ({ invoiceId: x.id, invoiceNumber: x.r ? numberOf(x.r) : '', ok: false, message: x.refusal || '同批有不能撤销的发票，本批均未撤销' }));
      await logOf(outcomes);
      return { done: false, needConfirm: false, batchId, count: 0, refused: plan.filter((x) => x.refusal).length, outcomes };
    }
    // One call per usage and 不抵扣 reason (compensation ticks them again as they were).
    const groups = new Map<string, IncomeInvoiceTable[]>();
    for (const x of plan) {
      const k = `${usageOf(x.r)}|${x.r!.deduct_reason ?? ''}`;
      groups.set(k, [...(groups.get(k) ?? []), x.r!]);
    }
    const ctx = { userId: user.id };
    const serviceSays = new Map<string, TickOutcome>();
    const accepted: IncomeInvoiceTable[] = [];
    let failure = '';
    for (const list of groups.values()) {
      if (failure) break;
      try {
        const usage = usageOf(list[0]);
        const out = await this.chunked(list, (c) => gw.untickInvoices({ period: p.period, usage, items: c.map(itemOf) }, ctx));
        out.forEach((o, k) => {
          serviceSays.set(o.key, o);
          if (o.accepted) accepted.push(list[k]!);
        });
      } catch (e) {
        if (!(e instanceof AppError)) throw e;
        failure = e.message;
      }
    }
    const refusedKeys = [...serviceSays.values()].filter((o) => !o.accepted);
    if (!failure && !refusedKeys.length) {
      try {
        const at = nowIso();
        await this.db.transaction().execute(async (trx) => {
          for (const x of plan) {
            const u = await trx
              .updateTable('income_invoices')
              .set({ vat_usage: 0, tick_state: 0, effective_tax: null, deduct_reason: null, tick_period: '', ticked_at: null, ticked_by: '', updated_at: at })
              .where('id', '=', x.id)
              .where('tick_state', '=', 1)
              .where('vat_usage', '=', usageOf(x.r))
              .where('tick_period', '=', p.period)
              .executeTakeFirst();
            if (Number(u.numUpdatedRows) === 0) throw conflict(`发票 ${numberOf(x.r!)} 的勾选状态已变化，请刷新后重试`);
            await addEvent(trx, x.id, 'untick', `撤销${TickUsage.label(usageOf(x.r))}勾选，税款所属期 ${p.period}`, user.name);
          }
          await this.insertUntickLog(trx, req, batchId, p.period, plan.map((x) => ({ r: x.r, ok: true, message: '撤销勾选成功' })), at);
          await this.app.oplog.record(req, OperationLogType.edit, `撤销发票勾选：税款所属期 ${p.period}，${plan.length} 张，批次 ${batchId}`, trx);
        });
        return { done: true, needConfirm: false, batchId, count: plan.length, refused: 0, outcomes: plan.map((x) => ({ invoiceId: x.id, invoiceNumber: numberOf(x.r!), ok: true, message: '撤销勾选成功' })) };
      } catch (e) {
        if (!(e instanceof AppError)) throw e;
        failure = e.message;
      }
    }
    // Tick again at the service what it already undid, as it was.
    let takeBack = '';
    const again = new Map<string, IncomeInvoiceTable[]>();
    // Only what our records still hold as ticked (a concurrent undo may have recorded some meanwhile).
    const still = await this.rows(accepted.map((r) => r.id));
    for (const r of accepted.filter((a) => Number(still.get(a.id)?.tick_state ?? 0) === 1)) {
      const k = `${usageOf(r)}|${r.deduct_reason ?? ''}`;
      again.set(k, [...(again.get(k) ?? []), r]);
    }
    for (const list of again.values()) {
      const usage = usageOf(list[0]);
      const reason = list[0]!.deduct_reason ? (Number(list[0]!.deduct_reason) as Reason) : undefined;
      takeBack += await this.compensate(() => this.chunked(list, (c) => gw.tickInvoices({ period: p.period, usage, ...(reason ? { reason } : {}), items: c.map((r) => ({ ...itemOf(r), effectiveTax: Number(r.effective_tax ?? r.tax) })) }, ctx)));
    }
    const outcomes = plan.map((x) => {
      const said = serviceSays.get(keyOf(x.r!));
      const message = said && !said.accepted ? said.message : failure ? `撤销失败：${failure}` : `同批有发票被税务端拒绝，本批均未撤销${takeBack}`;
      return { invoiceId: x.id, invoiceNumber: numberOf(x.r!), ok: false, message };
    });
    await logOf(outcomes);
    return { done: false, needConfirm: false, batchId, count: 0, refused: refusedKeys.length || plan.length, outcomes };
  }

  // ------------------------------------------------------------ the tick log

  private async writeLog(req: FastifyRequest, batchId: string, action: 'tick', usage: Usage, reason: Reason | null, period: string, rows: Array<{ r: IncomeInvoiceTable | undefined; eff: number; ok: boolean; message: string }>): Promise<void> {
    await this.insertLog(this.db, req, batchId, action, usage, reason, period, rows, nowIso());
  }

  private async insertLog(db: Db, req: FastifyRequest, batchId: string, action: 'tick' | 'untick', usage: Usage | null, reason: Reason | null, period: string, rows: Array<{ r: IncomeInvoiceTable | undefined; eff: number; ok: boolean; message: string }>, at: string): Promise<void> {
    const user = currentUser(req);
    const values = rows
      .filter((x) => x.r)
      .map((x) => ({
        id: newId(), batch_id: batchId, invoice_id: x.r!.id, invoice_number: numberOf(x.r!), kind: x.r!.kind, issue_date: x.r!.issue_date, seller_name: x.r!.seller_name,
        action, vat_usage: usage ?? Number(x.r!.vat_usage ?? 0), deduct_reason: action === 'tick' ? reason : (x.r!.deduct_reason ?? null), tax: Number(x.r!.tax), effective_tax: x.eff,
        period, result: x.ok ? 1 : 0, message: x.message, user_id: user.id, user_name: user.name, created_at: at,
      }));
    for (let i = 0; i < values.length; i += 200) await db.insertInto('income_tick_logs').values(values.slice(i, i + 200)).execute();
  }

  private async writeUntickLog(req: FastifyRequest, batchId: string, period: string, rows: Array<{ r: IncomeInvoiceTable | undefined; ok: boolean; message: string }>): Promise<void> {
    await this.insertUntickLog(this.db, req, batchId, period, rows, nowIso());
  }

  private async insertUntickLog(db: Db, req: FastifyRequest, batchId: string, period: string, rows: Array<{ r: IncomeInvoiceTable | undefined; ok: boolean; message: string }>, at: string): Promise<void> {
    await this.insertLog(db, req, batchId, 'untick', null, null, period, rows.map((x) => ({ ...x, eff: Number(x.r?.effective_tax ?? 0) })), at);
  }

  // ------------------------------------------------------------ import from Excel

  async importTicks(req: FastifyRequest, scope: TickScope, b: TickImportBody): Promise<TickImportAnswer> {
    const usage = Number(b.vatUsage) as Usage;
    if (!SCOPE_USAGES[scope].includes(usage)) throw refuse(`${SCOPE_PAGE[scope]}不能勾选为${TickUsage.label(usage)}`);
    const parsed = await readTickSheet(Buffer.from(b.file, 'base64'));
    const gw = await this.gateway();
    const p = await this.openPeriod(req, gw);
    // Find each row's invoice: 20 digits by 数电号码, else 发票代码 + 发票号码.
    const digital = parsed.filter((x) => !x.message && x.number.length === 20).map((x) => x.number);
    const coded = parsed.filter((x) => !x.message && x.number.length !== 20);
    const found = new Map<string, string>();
    for (let i = 0; i < digital.length; i += 500) {
      for (const r of await this.db.selectFrom('income_invoices').select(['id', 'digital_no']).where('digital_no', 'in', digital.slice(i, i + 500)).execute()) found.set(r.digital_no, r.id);
    }
    for (let i = 0; i < coded.length; i += 500) {
      const nos = coded.slice(i, i + 500).map((x) => x.invoiceNo);
      for (const r of await this.db.selectFrom('income_invoices').select(['id', 'invoice_code', 'invoice_no']).where('invoice_no', 'in', nos).where('digital_no', '=', '').execute()) found.set(`${r.invoice_code}${r.invoice_no}`, r.id);
    }
    const seen = new Set<string>();
    const rows: TickImportRow[] = parsed.map((x) => {
      const id = x.message ? null : (found.get(x.number) ?? null);
      let message = x.message;
      if (!message && !id) message = '票池中没有该发票';
      if (!message && seen.has(id!)) message = '与前面的行重复';
      if (!message && usage !== 1 && x.effectiveTax !== null) message = '只有抵扣勾选可以填写有效税额';
      if (id) seen.add(id);
      return { row: x.row, invoiceNumber: x.number, invoiceId: id, effectiveTax: x.effectiveTax, ok: !message, message };
    });
    if (!rows.length) throw refuse('文件中没有发票行（第一行为表头：发票代码、发票号码或数电号码、有效税额）');
    if (rows.length > TICK_MAX_INVOICES) throw refuse(`一次最多导入${TICK_MAX_INVOICES}张发票`);
    if (rows.some((r) => !r.ok)) {
      return { done: false, needConfirm: false, batchId: '', count: 0, refused: rows.filter((r) => !r.ok).length, outcomes: [], rows: rows.map((r) => (r.ok ? { ...r, ok: false, message: '其他行有误，本次未勾选' } : r)) };
    }
    const answer = await this.tickItems(req, scope, gw, p, usage, b.deductReason === undefined ? null : (Number(b.deductReason) as Reason), rows.map((r) => ({ id: r.invoiceId!, effectiveTax: r.effectiveTax ?? undefined })), b.confirmed);
    const byId = new Map(answer.outcomes.map((o) => [o.invoiceId, o]));
    return { ...answer, rows: rows.map((r) => { const o = byId.get(r.invoiceId!); return o ? { ...r, ok: o.ok, message: o.message } : { ...r, ok: answer.done, message: answer.done ? '勾选成功' : answer.needConfirm ? '待确认' : '本次未勾选' }; }) };
  }
}

interface SheetRow {
  row: number;
  number: string;
  invoiceNo: string;
  effectiveTax: number | null;
  message: string;
}

const cellText = (v: ExcelJS.CellValue): string => {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object' && 'text' in v) return String((v as { text: unknown }).text ?? '').trim();
  if (typeof v === 'object' && 'result' in v) return String((v as { result: unknown }).result ?? '').trim();
  if (typeof v === 'object' && 'richText' in v) return (v as ExcelJS.CellRichTextValue).richText.map((t) => t.text).join('').trim();
  return String(v).trim();
};

/** 元 with at most 2 decimals -> 分 (null: empty; NaN: not a sum of money). */
function yuanToFen(s: string): number | null {
  if (s === '') return null;
  if (!/^\d+(\.\d{1,2})?$/.test(s)) return Number.NaN;
  const [y, f = ''] = s.split('.');
  return Number(y) * 100 + Number(f.padEnd(2, '0'));
}

/** Reads the import sheet: a header row naming 发票代码, 发票号码 / 数电号码, 有效税额; then one invoice a row. */
export async function readTickSheet(buf: Buffer): Promise<SheetRow[]> {
  const wb = new ExcelJS.Workbook();
  try {
    await wb.xlsx.load(buf as unknown as ArrayBuffer);
  } catch {
    throw refuse('文件不是有效的Excel（.xlsx）文件');
  }
  const ws = wb.worksheets[0];
  if (!ws) throw refuse('文件中没有工作表');
  const header = ws.getRow(1);
  let codeCol = 0;
  let noCol = 0;
  let digitalCol = 0;
  let taxCol = 0;
  header.eachCell((c, col) => {
    const t = cellText(c.value);
    if (t.includes('代码')) codeCol = col;
    else if (t.includes('数电')) digitalCol = col;
    else if (t.includes('号码')) noCol = col;
    else if (t.includes('有效税额') || t.includes('税额')) taxCol = col;
  });
  if (!noCol && !digitalCol) throw refuse('表头须包含"发票号码"或"数电号码"列');
  const out: SheetRow[] = [];
  for (let i = 2; i <= ws.rowCount; i++) {
    const r = ws.getRow(i);
    const code = codeCol ? cellText(r.getCell(codeCol).value) : '';
    const rawNo = noCol ? r.getCell(noCol).value : null;
    // A number typed as a number loses its leading zeros: 8-digit invoice numbers get them back.
    const no = typeof rawNo === 'number' && Number.isInteger(rawNo) && rawNo < 1e8 ? String(rawNo).padStart(8, '0') : cellText(rawNo);
    const dig = digitalCol ? cellText(r.getCell(digitalCol).value) : '';
    const taxText = taxCol ? cellText(r.getCell(taxCol).value) : '';
    if (!code && !no && !dig && !taxText) continue;
    const eff = yuanToFen(taxText);
    let message = '';
    let number = '';
    if (/^\d{20}$/.test(dig) || /^\d{20}$/.test(no)) number = /^\d{20}$/.test(dig) ? dig : no;
    else if (/^\d{8}$/.test(no) && /^\d{10}(\d{2})?$/.test(code)) number = `${code}${no}`;
    else message = '发票代码、号码不正确（数电发票填20位数电号码；其他发票填10或12位代码和8位号码）';
    if (!message && Number.isNaN(eff)) message = '有效税额须为金额（元，最多两位小数）';
    out.push({ row: i, number: number || `${code}${no || dig}`, invoiceNo: number.length === 20 ? number : no, effectiveTax: Number.isNaN(eff) ? null : eff, message });
  }
  return out;
}

