/**
 * The worklist's actions per flag kind (issue 14). Every one resolves the case with one guarded UPDATE
 * (… where state = 'open'): of two at once exactly one resolves it, the other is told 该异常已处理.
 * - 作废/已红冲/红字确认中: the backing document is flagged and its owner notified (flagDocument, also on
 *   raising); a ticked invoice is unticked (the ticking service's untick) or transferred out
 *   (transfer.ts); one not ticked is confirmed.
 * - 异常凭证/失控: not ticked → confirmed (ticking refuses it anyway); ticked for deduction → 进项转出 only.
 * - 购方非本公司/疑似重复/查验不一致: 确认无误, 更正 (a field, with a note) or 驳回 (note 2–200 characters).
 */
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { AbnormalAction, AbnormalCorrectField, DEAD_FLAGS, IncomeAbnormalFlag, IncomeUseKind, REVIEW_FLAGS, RISK_FLAGS, STATUS_FLAGS, type AbnormalActionAnswer } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import { currentUser } from '../../../platform/context.js';
import { notFound, refuse } from '../../../platform/envelope.js';
import { nowIso } from '../../../platform/time.js';
import { buyerWarnings, company } from '../intake/checks.js';
import { addEvent } from '../pool/events.js';
import { notifyUser } from '../../messages/service.js';
import type { Ticking } from '../deduction/service.js';
import type { IncomeInvoiceTable } from '../pool/tables.js';
import type { IncomeAbnormalCaseTable } from './tables.js';
import './tables.js';
import '../../tender/tables.js';
import '../signing/tables.js';
import '../../reimbursement/tables.js';

type Db = Kysely<Database>;
type User = { id: string; name: string };

export async function loadCase(db: Db, caseId: string): Promise<{ c: IncomeAbnormalCaseTable; inv: IncomeInvoiceTable }> {
  const c = await db.selectFrom('income_abnormal_cases').selectAll().where('id', '=', caseId).executeTakeFirst();
  if (!c) throw notFound('异常记录不存在');
  const inv = await db.selectFrom('income_invoices').selectAll().where('id', '=', c.invoice_id).executeTakeFirstOrThrow();
  return { c, inv };
}

const ticked = (inv: IncomeInvoiceTable) => Number(inv.tick_state ?? 0) === 1;
const tickedForDeduction = (inv: IncomeInvoiceTable) => ticked(inv) && Number(inv.vat_usage ?? 0) === 1;

/** Resolves an open case (guarded); refuses 该异常已处理 when it was resolved meanwhile. */
export async function resolveCase(trx: Db, c: IncomeAbnormalCaseTable, action: string, note: string, user: User, event: string): Promise<void> {
  const u = await trx
    .updateTable('income_abnormal_cases')
    .set({ state: 'resolved', action, note, resolved_by: user.id, resolved_by_name: user.name, resolved_at: nowIso() })
    .where('id', '=', c.id)
    .where('state', '=', 'open')
    .executeTakeFirst();
  if (Number(u.numUpdatedRows) === 0) throw refuse('该异常已处理', 409);
  await addEvent(trx, c.invoice_id, 'abnormal', `异常「${IncomeAbnormalFlag.label(c.flag)}」${event}${note ? `：${note}` : ''}`, user.name);
}

const answer = (c: IncomeAbnormalCaseTable, message: string): AbnormalActionAnswer => ({ caseId: c.id, state: 'resolved', message });

function assertOpen(c: IncomeAbnormalCaseTable): void {
  if (c.state !== 'open') throw refuse('该异常已处理', 409);
}

export async function confirmCase(db: Db, req: FastifyRequest, caseId: string, note: string): Promise<AbnormalActionAnswer> {
  const { c, inv } = await loadCase(db, caseId);
  assertOpen(c);
  if (RISK_FLAGS.includes(c.flag) && tickedForDeduction(inv)) throw refuse('该发票已勾选抵扣，请进项转出');
  if (DEAD_FLAGS.includes(c.flag) && ticked(inv)) throw refuse('该发票已勾选，请撤销勾选或进项转出');
  await db.transaction().execute((trx) => resolveCase(trx, c, AbnormalAction.confirm, note, currentUser(req), '确认无误'));
  return answer(c, '已确认无误');
}

export async function rejectCase(db: Db, req: FastifyRequest, caseId: string, note: string): Promise<AbnormalActionAnswer> {
  const { c } = await loadCase(db, caseId);
  assertOpen(c);
  if (!REVIEW_FLAGS.includes(c.flag)) throw refuse(`${IncomeAbnormalFlag.label(c.flag)}的发票不能驳回`);
  await db.transaction().execute((trx) => resolveCase(trx, c, AbnormalAction.reject, note, currentUser(req), '已驳回'));
  return answer(c, '已驳回');
}

const COLUMN: Record<string, 'buyer_name' | 'buyer_tax_no' | 'seller_name' | 'seller_tax_no' | 'check_code' | 'remark'> = {
  buyerName: 'buyer_name', buyerTaxNo: 'buyer_tax_no', sellerName: 'seller_name', sellerTaxNo: 'seller_tax_no', checkCode: 'check_code', remark: 'remark',
};

export async function correctCase(db: Db, req: FastifyRequest, b: { caseId: string; field: string; value: string; note: string }): Promise<AbnormalActionAnswer> {
  const { c, inv } = await loadCase(db, b.caseId);
  assertOpen(c);
  if (!REVIEW_FLAGS.includes(c.flag)) throw refuse(`${IncomeAbnormalFlag.label(c.flag)}的发票不能更正`);
  const col = COLUMN[b.field]!;
  const value = col.endsWith('tax_no') ? b.value.toUpperCase() : b.value;
  if (col !== 'remark' && !value) throw refuse(`请填写更正后的${AbnormalCorrectField.label(b.field)}`);
  const before = String(inv[col] ?? '');
  if (before === value) throw refuse(`${AbnormalCorrectField.label(b.field)}与原值相同，无需更正`);
  await db.transaction().execute(async (trx) => {
    const next = { ...inv, [col]: value };
    const set: Record<string, unknown> = { [col]: value, updated_at: nowIso() };
    // A corrected buyer is checked again (购方非本公司 clears when it now names the company).
    if (col === 'buyer_name' || col === 'buyer_tax_no') set.buyer_mismatch = buyerWarnings({ buyerName: next.buyer_name, buyerTaxNo: next.buyer_tax_no }, await company(trx)).length ? 1 : 0;
    await trx.updateTable('income_invoices').set(set).where('id', '=', inv.id).execute();
    await resolveCase(trx, c, AbnormalAction.correct, b.note, currentUser(req), `已更正${AbnormalCorrectField.label(b.field)}「${before || '—'}」→「${value || '—'}」`);
  });
  return answer(c, `已更正${AbnormalCorrectField.label(b.field)}`);
}

export async function untickCase(db: Db, req: FastifyRequest, caseId: string, ticking: Ticking): Promise<AbnormalActionAnswer> {
  const { c, inv } = await loadCase(db, caseId);
  assertOpen(c);
  if (!DEAD_FLAGS.includes(c.flag)) throw refuse(`${IncomeAbnormalFlag.label(c.flag)}的发票请进项转出`);
  if (!ticked(inv)) throw refuse('该发票未勾选，无需撤销');
  const scope = [2, 3].includes(Number(inv.vat_usage ?? 0)) ? 'rebate' : 'deduction';
  const a = await ticking.untick(req, scope, { ids: [inv.id] });
  if (!a.done) throw refuse(a.outcomes[0]?.message || '撤销勾选失败');
  await db.transaction().execute((trx) => resolveCase(trx, c, AbnormalAction.untick, '', currentUser(req), '已撤销勾选'));
  return answer(c, '已撤销勾选');
}

/**
 * Flags the document an invoice with a status flag (作废/红冲/红字确认中, 失控/异常凭证, 疑点 — STATUS_FLAGS) backs on
 * the case and notifies its owner: the case names the document and the person notified, the invoice's history
 * says so, and the case is the owner's (the worklist filtered by owner is their inbox). The document, in this
 * order: a reimbursement bill holding the invoice (报销单 BX…; its applicant), a signing to a project or the
 * invoice's 项目分摊 (项目 code name; its project manager, else the signer), any other usage lock or signing in
 * force (签收单/合同 …; the signer, else the case owner). Called when such a case is raised; '' when the invoice
 * backs no document. The person notified gets a 站内消息 (messages/service.ts notifyUser) linking to the
 * invoice, unless `notify` is false (migration 0029's backfill).
 */
export async function flagDocument(db: Db, c: Pick<IncomeAbnormalCaseTable, 'id' | 'invoice_id' | 'flag' | 'owner_id'>, notify = true): Promise<string> {
  if (!STATUS_FLAGS.includes(c.flag)) return '';
  const d = await backingDocument(db, c.invoice_id);
  if (!d) return '';
  const notified = d.ownerId ?? c.owner_id;
  const u = await db
    .updateTable('income_abnormal_cases')
    .set({ doc_flagged: d.label, doc_kind: d.kind, doc_id: d.id, notified_user_id: notified, ...(notified ? { owner_id: notified } : {}) })
    .where('id', '=', c.id)
    .where('doc_flagged', '=', '')
    .executeTakeFirst();
  if (Number(u.numUpdatedRows) > 0) {
    const who = notified ? (await db.selectFrom('users').select('name').where('id', '=', notified).executeTakeFirst())?.name : '';
    await addEvent(db, c.invoice_id, 'abnormal', `发票${IncomeAbnormalFlag.label(c.flag)}：已标记${d.label}${who ? `，已通知${who}` : ''}`, '');
    if (notified && notify) await notifyOwner(db, notified, c, d.label);
  }
  return d.label;
}

/** The document an invoice backs and its owner (see flagDocument), or null. */
export async function backingDocument(db: Db, invoiceId: string): Promise<{ label: string; kind: string; id: string | null; ownerId: string | null } | null> {
  const lock = await db.selectFrom('income_locks').select(['use_kind', 'doc_no']).where('invoice_id', '=', invoiceId).where('state', 'in', ['locked', 'closed']).orderBy('created_at', 'desc').limit(1).executeTakeFirst();
  if (lock?.use_kind === IncomeUseKind.reimbursement) {
    const bill = await db.selectFrom('reimb_bills').select(['id', 'applicant_id']).where('bill_no', '=', lock.doc_no).executeTakeFirst();
    return { label: `报销单 ${lock.doc_no}`, kind: 'reimbursement', id: bill?.id ?? null, ownerId: bill?.applicant_id ?? null };
  }
  const sign = await db.selectFrom('income_signings').select(['doc_type', 'doc_no', 'user_id']).where('invoice_id', '=', invoiceId).where('state', 'in', ['applying', 'signed']).orderBy('created_at', 'desc').limit(1).executeTakeFirst();
  const project =
    sign?.doc_type === 'project'
      ? await db.selectFrom('projects').select(['id', 'code', 'name', 'manager_id']).where('code', '=', sign.doc_no).executeTakeFirst()
      : !lock && !sign
        ? await db.selectFrom('income_allocations as a').innerJoin('projects as p', 'p.id', 'a.project_id').select(['p.id', 'p.code', 'p.name', 'p.manager_id']).where('a.invoice_id', '=', invoiceId).orderBy('a.amount_incl', 'desc').orderBy('a.id').limit(1).executeTakeFirst()
        : undefined;
  if (project) return { label: `项目 ${project.code} ${project.name}`, kind: 'project', id: project.id, ownerId: project.manager_id ?? sign?.user_id ?? null };
  if (lock) return { label: `${IncomeUseKind.label(lock.use_kind)} ${lock.doc_no}`, kind: lock.use_kind, id: null, ownerId: sign?.user_id ?? null };
  if (sign) return { label: `签收单 ${sign.doc_no}`, kind: 'sign', id: null, ownerId: sign.user_id };
  return null;
}

/** The owner's message (站内消息) for a flagged document: names the invoice and what to do, links to its detail. */
async function notifyOwner(db: Db, userId: string, c: Pick<IncomeAbnormalCaseTable, 'invoice_id' | 'flag'>, doc: string): Promise<void> {
  const inv = await db.selectFrom('income_invoices').select(['invoice_no', 'invoice_code', 'digital_no']).where('id', '=', c.invoice_id).executeTakeFirst();
  const label = IncomeAbnormalFlag.label(c.flag);
  const no = inv ? inv.digital_no || [inv.invoice_code, inv.invoice_no].filter(Boolean).join(' ') : '';
  await notifyUser(db, userId, {
    title: `发票${label}：${doc}`,
    content: `${doc}所附发票${no ? ` ${no} ` : ''}状态为「${label}」，该单据已被标记。请核对单据，更换发票或联系财务处理。`,
    link: `/income/invoicePool/detail/${c.invoice_id}`,
  });
}
