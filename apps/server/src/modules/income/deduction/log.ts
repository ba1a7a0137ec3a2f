/** The tick log (income_tick_logs): one row per invoice of a tick or undo attempt: 成功, 失败, or 无变化 (already ticked exactly so). */
import type { FastifyRequest } from 'fastify';
import type { NonDeductReason as Reason, TickUsage as Usage } from '../../../integrations/tax/index.js';
import { currentUser } from '../../../platform/context.js';
import { newId } from '../../../platform/ids.js';
import type { IncomeInvoiceTable } from '../pool/tables.js';
import { numberOf, type Db } from './batch.js';
import './tables.js';

/** ok: 成功 or 失败; `unchanged` (2 无变化): already ticked exactly so, nothing sent or written. */
export type TickLogEntry = { r: IncomeInvoiceTable | undefined; eff: number; ok: boolean; unchanged?: boolean; message: string };
export type UntickLogEntry = Omit<TickLogEntry, 'eff'>;

export async function insertLog(db: Db, req: FastifyRequest, batchId: string, action: 'tick' | 'untick', usage: Usage | null, reason: Reason | null, period: string, rows: TickLogEntry[], at: string): Promise<void> {
  const user = currentUser(req);
  const values = rows
    .filter((x) => x.r)
    .map((x) => ({
      id: newId(), batch_id: batchId, invoice_id: x.r!.id, invoice_number: numberOf(x.r!), kind: x.r!.kind, issue_date: x.r!.issue_date, seller_name: x.r!.seller_name,
      action, vat_usage: usage ?? Number(x.r!.vat_usage ?? 0), deduct_reason: action === 'tick' ? reason : (x.r!.deduct_reason ?? null), tax: Number(x.r!.tax), effective_tax: x.eff,
      period, result: x.unchanged ? 2 : x.ok ? 1 : 0, message: x.message, user_id: user.id, user_name: user.name, created_at: at,
    }));
  for (let i = 0; i < values.length; i += 200) await db.insertInto('income_tick_logs').values(values.slice(i, i + 200)).execute();
}

/** An undo's rows: the usage and reason each invoice had, its effective tax as recorded. */
export async function insertUntickLog(db: Db, req: FastifyRequest, batchId: string, period: string, rows: UntickLogEntry[], at: string): Promise<void> {
  await insertLog(db, req, batchId, 'untick', null, null, period, rows.map((x) => ({ ...x, eff: Number(x.r?.effective_tax ?? 0) })), at);
}
