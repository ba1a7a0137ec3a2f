/**
 * A tick batch (steps 2 to 6 of service.ts), all or nothing: our checks of every invoice, the 疑点
 * confirmation, the tax service's calls, then one guarded transaction with the log rows, or the service
 * put back (call.ts) and every invoice logged as failed with its reason. An invoice already ticked exactly
 * as asked is left alone (no call, no write) and logged 无变化: so twenty clicks on one invoice log one
 * success, whichever engine — the ones that read it ticked say 无变化, the ones that raced it fail the
 * guarded update and say so.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { NonDeductReason, OperationLogType, TICK_CONFIRM_MESSAGE, TickUsage, type TickAnswer, type TickOutcomeRow } from '@zhyy/shared';
import type { NonDeductReason as Reason, TaxGateway, TickOutcome, TickPeriod, TickUsage as Usage } from '../../../integrations/tax/index.js';
import { currentUser } from '../../../platform/context.js';
import { AppError, conflict, refuse } from '../../../platform/envelope.js';
import { nowIso } from '../../../platform/time.js';
import { addEvent } from '../pool/events.js';
import { redSumsOf } from '../identity/reversals.js';
import type { IncomeInvoiceTable } from '../pool/tables.js';
import { keyOf, numberOf, rowsById, type TickDeps } from './batch.js';
import { serviceTick, takeBackTicks, TICK_CALL_SIZE } from './call.js';
import { insertLog, type TickLogEntry } from './log.js';
import { needsConfirm, tickRefusal, type PeriodFacts, type TickScope } from './rules.js';

/** Whether `r` is already ticked exactly as asked (usage, period, effective tax, reason): a tick would change nothing. */
function sameTick(r: IncomeInvoiceTable, usage: Usage, eff: number, reason: Reason | null, period: string): boolean {
  return Number(r.tick_state ?? 0) === 1 && Number(r.vat_usage ?? 0) === usage && r.tick_period === period && Number(r.effective_tax ?? -1) === eff && (r.deduct_reason === null || r.deduct_reason === undefined ? null : Number(r.deduct_reason)) === reason;
}

/** The words of an invoice left as it was: 已勾选为抵扣（有效税额9.00元），无需重复勾选. */
function unchangedWords(usage: Usage, eff: number, reason: Reason | null): string {
  const how = usage === 1 ? `（有效税额${(eff / 100).toFixed(2)}元）` : usage === 4 && reason ? `（${NonDeductReason.label(reason)}）` : '';
  return `已勾选为${TickUsage.label(usage)}${how}，无需重复勾选`;
}

export async function tickItems(deps: TickDeps, req: FastifyRequest, _scope: TickScope, gw: TaxGateway, p: TickPeriod, usage: Usage, reason: Reason | null, wanted: ReadonlyArray<{ id: string; effectiveTax?: number | undefined }>, confirmed: boolean): Promise<TickAnswer> {
  const ids = [...new Set(wanted.map((w) => w.id))];
  if (ids.length !== wanted.length) throw refuse('同一张发票在本批中重复');
  const rows = await rowsById(deps.db, ids);
  const facts: PeriodFacts = { period: p.period, windowFrom: p.windowFrom, windowTo: p.windowTo, tickBookedOnly: await deps.bookedOnly() };
  // A blue invoice partly reversed by red invoices received counts with its net tax (issue 29).
  const reds = await redSumsOf(deps.db, ids);
  const plan = wanted.map((w) => {
    const r = rows.get(w.id);
    const tax = Number(r?.tax ?? 0) + (reds.get(w.id)?.tax ?? 0);
    const eff = usage === 1 ? (w.effectiveTax ?? tax) : tax;
    const refusal = r ? tickRefusal({ ...r, tax }, usage, eff, facts) : '发票不存在';
    // Already ticked exactly so (a second click, a concurrent request that lost): nothing to send or write.
    const unchanged = !refusal && !!r && sameTick(r, usage, eff, reason, p.period);
    return { id: w.id, r, eff, refusal, unchanged };
  });
  const batchId = randomUUID();
  const refusals = plan.filter((x) => x.refusal);
  if (refusals.length) {
    const outcomes = plan.map((x) => ({ invoiceId: x.id, invoiceNumber: x.r ? numberOf(x.r) : '', ok: false, message: x.refusal || '同批有不能勾选的发票，本批均未勾选' }));
    await insertLog(deps.db, req, batchId, 'tick', usage, reason, p.period, plan.map((x, i) => ({ r: x.r, eff: x.eff, ok: false, message: outcomes[i]!.message })), nowIso());
    return { done: false, needConfirm: false, batchId, count: 0, refused: refusals.length, outcomes };
  }
  const same = plan.filter((x) => x.unchanged);
  const todo = plan.filter((x) => !x.unchanged);
  const sameLog = () => same.map((x) => ({ r: x.r, eff: x.eff, ok: true, unchanged: true, message: unchangedWords(usage, x.eff, reason) }));
  const outcomeOfSame = (x: (typeof plan)[number]): TickOutcomeRow => ({ invoiceId: x.id, invoiceNumber: numberOf(x.r!), ok: true, message: unchangedWords(usage, x.eff, reason) });
  if (!todo.length) {
    await insertLog(deps.db, req, batchId, 'tick', usage, reason, p.period, sameLog(), nowIso());
    return { done: false, needConfirm: false, batchId, count: 0, refused: 0, unchanged: same.length, outcomes: same.map(outcomeOfSame) };
  }
  const doubtful = todo.filter((x) => needsConfirm(x.r! as Parameters<typeof needsConfirm>[0]));
  if (doubtful.length && !confirmed) {
    return { done: false, needConfirm: true, batchId: '', count: 0, refused: 0, outcomes: doubtful.map((x) => ({ invoiceId: x.id, invoiceNumber: numberOf(x.r!), ok: false, message: TICK_CONFIRM_MESSAGE })) };
  }
  const entries = todo.map((x) => ({ r: x.r!, eff: x.eff }));
  const user = currentUser(req);
  const ctx = { userId: user.id };
  const acceptedKeys = new Set<string>();
  const serviceSays = new Map<string, TickOutcome>();
  let failure = '';
  // Customs notices go through their own call (call.ts serviceTick): the chunks are of one sort each, so a
  // failing call never hides what an earlier one of the same chunk did at the service.
  const chunks = [entries.filter((e) => e.r.kind !== 'customs'), entries.filter((e) => e.r.kind === 'customs')].flatMap((list) => {
    const out: (typeof entries)[] = [];
    for (let i = 0; i < list.length; i += TICK_CALL_SIZE) out.push(list.slice(i, i + TICK_CALL_SIZE));
    return out;
  });
  for (const chunk of chunks) {
    if (failure) break;
    try {
      const out = await serviceTick(gw, p.period, usage, reason, chunk, ctx);
      for (const o of out) {
        serviceSays.set(o.key, o);
        if (o.accepted) acceptedKeys.add(o.key);
      }
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      failure = e.message;
    }
  }
  const refusedKeys = [...serviceSays.values()].filter((o) => !o.accepted);
  let recorded = false;
  if (!failure && !refusedKeys.length) {
    try {
      await record(deps, req, todo.map((x) => ({ id: x.id, r: x.r!, eff: x.eff })), sameLog(), usage, reason, p.period, batchId);
      recorded = true;
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      failure = e.message;
    }
  }
  if (recorded) {
    const outcomes = plan.map((x) => (x.unchanged ? outcomeOfSame(x) : { invoiceId: x.id, invoiceNumber: numberOf(x.r!), ok: true, message: '勾选成功' }));
    return { done: true, needConfirm: false, batchId, count: todo.length, refused: 0, ...(same.length ? { unchanged: same.length } : {}), outcomes };
  }
  const takeBack = await takeBackTicks(deps.db, gw, p.period, usage, todo.map((x) => x.r!), acceptedKeys, ctx);
  const outcomes: TickOutcomeRow[] = plan.map((x) => {
    if (x.unchanged) return outcomeOfSame(x);
    const said = serviceSays.get(keyOf(x.r!));
    const message = said && !said.accepted ? said.message : failure ? `勾选失败：${failure}` : `同批有发票被税务端拒绝，本批均未勾选${takeBack}`;
    return { invoiceId: x.id, invoiceNumber: numberOf(x.r!), ok: false, message };
  });
  await insertLog(deps.db, req, batchId, 'tick', usage, reason, p.period, plan.map((x, i) => ({ r: x.r, eff: x.eff, ok: false, unchanged: x.unchanged, message: outcomes[i]!.message })), nowIso());
  return { done: false, needConfirm: false, batchId, count: 0, refused: refusedKeys.length || todo.length, ...(same.length ? { unchanged: same.length } : {}), outcomes };
}

/** Step 6: one transaction, guarded per invoice, with the log rows (and those of the invoices left unchanged). */
async function record(deps: TickDeps, req: FastifyRequest, plan: Array<{ id: string; r: IncomeInvoiceTable; eff: number }>, sameLog: TickLogEntry[], usage: Usage, reason: Reason | null, period: string, batchId: string): Promise<void> {
  const user = currentUser(req);
  const at = nowIso();
  await deps.db.transaction().execute(async (trx) => {
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
    await insertLog(trx, req, batchId, 'tick', usage, reason, period, [...plan.map((x) => ({ r: x.r, eff: x.eff, ok: true, message: '勾选成功' })), ...sameLog], at);
    const what = usage === 4 ? `不抵扣（${NonDeductReason.label(reason!)}）` : TickUsage.label(usage);
    await deps.app.oplog.record(req, OperationLogType.edit, `发票勾选${what}：税款所属期 ${period}，${plan.length} 张，批次 ${batchId}`, trx);
  });
}
