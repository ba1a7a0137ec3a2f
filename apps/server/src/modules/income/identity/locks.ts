/**
 * The usage lock every area shares (issue 13): available → locked (a reimbursement line or a signing
 * in progress) → closed (reimbursed and booked, or archived against a contract); release returns a
 * locked invoice to available. Each step is one conditional UPDATE on the invoice (… where usage = 0)
 * in the caller's transaction, so of two uses at once exactly one changes the row; the partial unique
 * index on income_locks (one active lock per invoice) guards any other path. No read-then-write.
 */
import type { Kysely } from 'kysely';
import { IncomeInvoiceState, IncomeUsage, IncomeUseKind, type IncomeUseKindCode } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import { notFound, refuse } from '../../../platform/envelope.js';
import { newId } from '../../../platform/ids.js';
import { nowIso } from '../../../platform/time.js';
import { addEvent } from '../pool/events.js';
import '../pool/tables.js';

export interface Use {
  kind: IncomeUseKindCode;
  docNo: string;
}

const U = IncomeUsage;
const held = (kind: string, docNo: string) => `该发票已用于${IncomeUseKind.label(kind)} ${docNo}`;
export const RED_NOT_CLAIMABLE = '红字发票不能用于报销';
const DEAD_STATES = [IncomeInvoiceState.voided, IncomeInvoiceState.red, IncomeInvoiceState.fullRed];

/** Why a use was refused: the invoice is missing, dead, or held by another document. */
async function refusal(trx: Kysely<Database>, invoiceId: string): Promise<Error> {
  const r = await trx.selectFrom('income_invoices').select(['usage', 'use_kind', 'doc_no', 'invoice_state']).where('id', '=', invoiceId).executeTakeFirst();
  if (!r) return notFound('发票不存在');
  if (r.usage !== U.available) return refuse(held(r.use_kind, r.doc_no), 409);
  if (DEAD_STATES.includes(r.invoice_state as 2)) return refuse(`该发票${IncomeInvoiceState.label(r.invoice_state)}，不能使用`);
  return refuse('该发票当前不能使用，请稍后再试', 409);
}

/** Takes the invoice for a document; the same document taking it again is a no-op. */
export async function lock(invoiceId: string, use: Use, trx: Kysely<Database>, userName = ''): Promise<void> {
  if (!use.docNo.trim()) throw refuse('请提供占用发票的单据号');
  // A red invoice received (价税合计 < 0) is no money to pay out: it nets the blue one, it backs no claim (issue 29).
  if (use.kind === 'reimbursement') {
    const face = await trx.selectFrom('income_invoices').select('amount_incl').where('id', '=', invoiceId).executeTakeFirst();
    if (face && Number(face.amount_incl) < 0) throw refuse(RED_NOT_CLAIMABLE);
  }
  const now = nowIso();
  const r = await trx
    .updateTable('income_invoices')
    .set({ usage: U.locked, use_kind: use.kind, doc_no: use.docNo, updated_at: now })
    .where('id', '=', invoiceId)
    .where('usage', '=', U.available)
    .where('invoice_state', 'not in', DEAD_STATES)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) {
    const same = await trx.selectFrom('income_invoices').select('id').where('id', '=', invoiceId).where('usage', '=', U.locked).where('use_kind', '=', use.kind).where('doc_no', '=', use.docNo).executeTakeFirst();
    if (same) return;
    throw await refusal(trx, invoiceId);
  }
  await trx.insertInto('income_locks').values({ id: newId(), invoice_id: invoiceId, use_kind: use.kind, doc_no: use.docNo, state: 'locked', active: 1, created_at: now, ended_at: null }).execute();
  await addEvent(trx, invoiceId, 'lock', `被${IncomeUseKind.label(use.kind)} ${use.docNo} 占用`, userName);
}

async function end(trx: Kysely<Database>, invoiceId: string, use: Use, to: 'released' | 'closed', userName: string): Promise<void> {
  const now = nowIso();
  const r = await trx
    .updateTable('income_invoices')
    .set(to === 'released' ? { usage: U.available, use_kind: '', doc_no: '', updated_at: now } : { usage: U.closed, updated_at: now })
    .where('id', '=', invoiceId)
    .where('usage', '=', U.locked)
    .where('use_kind', '=', use.kind)
    .where('doc_no', '=', use.docNo)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) {
    const row = await trx.selectFrom('income_invoices').select(['usage', 'use_kind', 'doc_no']).where('id', '=', invoiceId).executeTakeFirst();
    if (!row) throw notFound('发票不存在');
    if (row.usage === U.closed && row.use_kind === use.kind && row.doc_no === use.docNo) throw refuse(`该发票已随${IncomeUseKind.label(use.kind)} ${use.docNo} 完成使用，不能${to === 'released' ? '释放' : '再次关闭'}`, 409);
    throw refuse(`该发票未被${IncomeUseKind.label(use.kind)} ${use.docNo} 占用`, 409);
  }
  await trx
    .updateTable('income_locks')
    .set(to === 'released' ? { state: 'released', active: null, ended_at: now } : { state: 'closed', ended_at: now })
    .where('invoice_id', '=', invoiceId)
    .where('active', '=', 1)
    .execute();
  await addEvent(trx, invoiceId, to === 'released' ? 'release' : 'close', `${IncomeUseKind.label(use.kind)} ${use.docNo} ${to === 'released' ? '释放了发票' : '完成使用（已关闭）'}`, userName);
}

/** The document gives the invoice back (its line removed, the bill withdrawn, the signing undone). */
export const release = (invoiceId: string, use: Use, trx: Kysely<Database>, userName = '') => end(trx, invoiceId, use, 'released', userName);
/** The use is final (reimbursed and booked, archived against a contract). */
export const close = (invoiceId: string, use: Use, trx: Kysely<Database>, userName = '') => end(trx, invoiceId, use, 'closed', userName);

/**
 * The use is undone after it was final (a reimbursement bill's voucher deleted and the bill revoked): closed →
 * locked for the same document, by the same guarded UPDATE; the document holds the invoice again.
 */
export async function reopen(invoiceId: string, use: Use, trx: Kysely<Database>, userName = ''): Promise<void> {
  const now = nowIso();
  const r = await trx
    .updateTable('income_invoices')
    .set({ usage: U.locked, updated_at: now })
    .where('id', '=', invoiceId)
    .where('usage', '=', U.closed)
    .where('use_kind', '=', use.kind)
    .where('doc_no', '=', use.docNo)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) {
    const row = await trx.selectFrom('income_invoices').select(['usage', 'use_kind', 'doc_no']).where('id', '=', invoiceId).executeTakeFirst();
    if (!row) throw notFound('发票不存在');
    throw refuse(`该发票未随${IncomeUseKind.label(use.kind)} ${use.docNo} 完成使用，不能恢复占用`, 409);
  }
  await trx.updateTable('income_locks').set({ state: 'locked', ended_at: null }).where('invoice_id', '=', invoiceId).where('active', '=', 1).execute();
  await addEvent(trx, invoiceId, 'lock', `${IncomeUseKind.label(use.kind)} ${use.docNo} 撤销入账，发票恢复占用`, userName);
}
