/**
 * An undo batch (撤销勾选), all or nothing as a tick batch: our checks, one tax-service call per usage and
 * 不抵扣 reason, then one guarded transaction with the log rows, or the service put back (call.ts:
 * what it already undid is ticked again as it was) and every invoice logged as failed with its reason.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { OperationLogType, TickUsage, type TickAnswer, type TickOutcomeRow } from '@zhyy/shared';
import type { TaxGateway, TickOutcome, TickPeriod, TickUsage as Usage } from '../../../integrations/tax/index.js';
import { currentUser } from '../../../platform/context.js';
import { AppError, conflict, refuse } from '../../../platform/envelope.js';
import { nowIso } from '../../../platform/time.js';
import { addEvent } from '../pool/events.js';
import type { IncomeInvoiceTable } from '../pool/tables.js';
import { keyOf, numberOf, rowsById, type TickDeps } from './batch.js';
import { chunked, serviceUntick, takeBackUnticks } from './call.js';
import { insertUntickLog } from './log.js';
import { untickRefusal, type TickScope } from './rules.js';

export async function untickIds(deps: TickDeps, req: FastifyRequest, scope: TickScope, gw: TaxGateway, p: TickPeriod, ids: string[]): Promise<TickAnswer> {
  if (new Set(ids).size !== ids.length) throw refuse('同一张发票在本批中重复');
  const rows = await rowsById(deps.db, ids);
  const plan = ids.map((id) => {
    const r = rows.get(id);
    return { id, r, refusal: r ? untickRefusal(r, scope, p.period) : '发票不存在' };
  });
  const batchId = randomUUID();
  const user = currentUser(req);
  const usageOf = (r: IncomeInvoiceTable | undefined) => Number(r?.vat_usage ?? 0) as Usage;
  const logOf = (outcomes: TickOutcomeRow[]) =>
    insertUntickLog(deps.db, req, batchId, p.period, plan.map((x, i) => ({ r: x.r, ok: false, message: outcomes[i]!.message })), nowIso());
  if (plan.some((x) => x.refusal)) {
    const outcomes = plan.map((x) => ({ invoiceId: x.id, invoiceNumber: x.r ? numberOf(x.r) : '', ok: false, message: x.refusal || '同批有不能撤销的发票，本批均未撤销' }));
    await logOf(outcomes);
    return { done: false, needConfirm: false, batchId, count: 0, refused: plan.filter((x) => x.refusal).length, outcomes };
  }
  // One call per usage and 不抵扣 reason (compensation ticks them again as they were), customs notices apart (their own call).
  const groups = new Map<string, IncomeInvoiceTable[]>();
  for (const x of plan) {
    const k = `${usageOf(x.r)}|${x.r!.deduct_reason ?? ''}|${x.r!.kind === 'customs' ? 'customs' : ''}`;
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
      const out = await chunked(list, (c) => serviceUntick(gw, p.period, usage, c, ctx));
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
      await deps.db.transaction().execute(async (trx) => {
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
        await insertUntickLog(trx, req, batchId, p.period, plan.map((x) => ({ r: x.r, ok: true, message: '撤销勾选成功' })), at);
        await deps.app.oplog.record(req, OperationLogType.edit, `撤销发票勾选：税款所属期 ${p.period}，${plan.length} 张，批次 ${batchId}`, trx);
      });
      return { done: true, needConfirm: false, batchId, count: plan.length, refused: 0, outcomes: plan.map((x) => ({ invoiceId: x.id, invoiceNumber: numberOf(x.r!), ok: true, message: '撤销勾选成功' })) };
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      failure = e.message;
    }
  }
  // Tick again at the service what it already undid, as it was.
  const takeBack = await takeBackUnticks(deps.db, gw, p.period, accepted, ctx);
  const outcomes = plan.map((x) => {
    const said = serviceSays.get(keyOf(x.r!));
    const message = said && !said.accepted ? said.message : failure ? `撤销失败：${failure}` : `同批有发票被税务端拒绝，本批均未撤销${takeBack}`;
    return { invoiceId: x.id, invoiceNumber: numberOf(x.r!), ok: false, message };
  });
  await logOf(outcomes);
  return { done: false, needConfirm: false, batchId, count: 0, refused: refusedKeys.length || plan.length, outcomes };
}
