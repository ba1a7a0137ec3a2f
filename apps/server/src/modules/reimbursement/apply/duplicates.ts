/**
 * 疑似重复报销 across employees (issue 32 #4), what checks.ts's `duplicateClaims` finds, as the people around a
 * bill see it:
 * - who may follow a match to the other bill: the bill's approvers (current or past handlers of its FY01
 *   instance) and roles 1, 12, 16; the applicant only when the other bill is theirs too. Everyone else gets the
 *   finding without its reference (`visibleChecks`), and `/bill/peer` refuses them;
 * - the other bill as such a reader sees it (`peerView`): header and lines, no payee account, files or track,
 *   and only while the match stands (or was accepted);
 * - the current handler accepts a match with an opinion (`acceptDuplicate`), recorded in `reimb_dup_accepts`
 *   and the operation log, shown on the finding.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { OperationLogType, ReimbFlowState, ReimbState, isSuperUser, type DuplicateClaimMatch, type ReimbAcceptDuplicateBody, type ReimbCheck, type ReimbPeerView } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import type { AuthUser } from '../../../platform/context.js';
import { forbidden, notFound, refuse } from '../../../platform/envelope.js';
import { newId } from '../../../platform/ids.js';
import { nowIso } from '../../../platform/time.js';
import type { ReimbBillTable } from '../tables.js';
import { duplicateClaims, inBillMatches } from './checks.js';
import { BILL_READER_ROLES, type ApplyService } from './service.js';

type Db = Kysely<Database>;

/** Whether the user may follow the bill's matches to the other bills: its approvers (current or past) and roles 1, 12, 16. */
export async function mayFollowMatches(app: FastifyInstance, b: ReimbBillTable, user: AuthUser): Promise<boolean> {
  if (isSuperUser(user.roles) || user.roles.some((r) => BILL_READER_ROLES.includes(r))) return true;
  // The applicant handled the start node: a past handler of their own instance, but no approver of it.
  if (b.work_id === null || b.applicant_id === user.id) return false;
  const h = await app.workflow.handlerOf(b.work_id, user.id);
  return h.current || h.past;
}

/**
 * The lines' findings as this reader may see them: each duplicateClaim with its acceptance (if any), and its
 * reference only for a reader who may follow it (or the applicant, when the other bill is theirs too).
 */
export async function visibleChecks(app: FastifyInstance, b: ReimbBillTable, user: AuthUser, lineIds: string[], checks: ReimbCheck[][]): Promise<ReimbCheck[][]> {
  const db: Db = app.db.kysely;
  if (!checks.some((cs) => cs.some((c) => c.code === 'duplicateClaim'))) return checks;
  const accepts = lineIds.length ? await db.selectFrom('reimb_dup_accepts').selectAll().where('line_id', 'in', lineIds).execute() : [];
  const acceptOf = new Map(accepts.map((a) => [`${a.line_id}|${a.other_line_id}`, a]));
  const follow = await mayFollowMatches(app, b, user);
  let own = new Set<string>();
  if (!follow) {
    const ids = [...new Set(checks.flatMap((cs) => cs.flatMap((c) => (c.ref ? [c.ref.billId] : []))))];
    if (ids.length) own = new Set((await db.selectFrom('reimb_bills').select('id').where('id', 'in', ids).where('applicant_id', '=', b.applicant_id).execute()).map((r) => r.id));
  }
  return checks.map((cs, i) =>
    cs.map((c) => {
      if (c.code !== 'duplicateClaim' || !c.ref) return c;
      const a = acceptOf.get(`${lineIds[i]}|${c.ref.lineId}`);
      const out: ReimbCheck = { ...c, ...(a ? { accepted: { by: a.user_name, at: a.created_at, opinion: a.opinion } } : {}) };
      if (!follow && !(b.applicant_id === user.id && own.has(c.ref.billId))) delete out.ref;
      return out;
    }),
  );
}

/** The facts the check needs of one stored line. */
async function storedLine(db: Db, lineId: string) {
  return db
    .selectFrom('reimb_lines')
    .select(['id', 'bill_id', 'line_no', 'category_code', 'expense_date', 'amount', 'invoice_id', 'seller_key', 'seller_name'])
    .where('id', '=', lineId)
    .executeTakeFirst();
}

/** The matches of one stored line as the bill's checks find them: within its bill first, then in other bills. */
async function matchesOf(db: Db, b: ReimbBillTable, line: StoredLine): Promise<DuplicateClaimMatch[]> {
  const lines = await db
    .selectFrom('reimb_lines')
    .select(['id', 'bill_id', 'line_no', 'category_code', 'expense_date', 'amount', 'invoice_id', 'seller_key', 'seller_name'])
    .where('bill_id', '=', b.id)
    .orderBy('line_no')
    .execute();
  const i = lines.findIndex((l) => l.id === line.id);
  const inBill = inBillMatches({ id: b.id, applicantId: b.applicant_id, billNo: b.bill_no, applicantName: b.applicant_name }, lines.map(factsOf))[i] ?? [];
  return [...inBill, ...(await duplicateClaims(db, b.id, b.applicant_id, factsOf(line)))];
}

type StoredLine = NonNullable<Awaited<ReturnType<typeof storedLine>>>;
const factsOf = (l: StoredLine) => ({
  categoryCode: l.category_code,
  travelKind: '',
  expenseDate: l.expense_date,
  city: '',
  nights: null,
  seatClass: '',
  amount: Number(l.amount),
  invoiceId: l.invoice_id,
  sellerKey: l.seller_key ?? '',
  id: l.id,
  sellerName: l.seller_name ?? '',
});

/** The current handler of the bill's approval accepts one match of a line with an opinion (recorded; shown on the finding). */
export async function acceptDuplicate(app: FastifyInstance, svc: ApplyService, req: FastifyRequest, user: AuthUser, body: ReimbAcceptDuplicateBody): Promise<{ otherBillNo: string; otherLineNo: number; sameBill: boolean }> {
  return app.db.kysely.transaction().execute(async (trx) => {
    const line = await storedLine(trx, body.lineId);
    if (!line) throw notFound('费用明细不存在');
    const b = await svc.lockBill(trx, line.bill_id);
    if (b.flow_state !== ReimbFlowState.approving || b.work_id === null) throw refuse(`报销单${ReimbFlowState.label(b.flow_state)}，不能处理疑似重复`);
    const h = await app.workflow.handlerOf(b.work_id, user.id, trx);
    if (!h.current) throw refuse('只有当前审批人可以接受疑似重复报销', 403);
    const match = (await matchesOf(trx, b, line)).find((m) => m.ref.lineId === body.otherLineId);
    if (!match) throw refuse('该费用与所选报销单的费用已不再疑似重复，请刷新后查看');
    const now = nowIso();
    const row = { opinion: body.opinion, user_id: user.id, user_name: user.name, created_at: now, other_bill_id: match.ref.billId, other_bill_no: match.ref.billNo };
    // A pair within the bill is one decision: both lines' findings are accepted (each names the other).
    const pairs = match.sameBill ? [[line.id, body.otherLineId], [body.otherLineId, line.id]] : [[line.id, body.otherLineId]];
    for (const [lineId, otherLineId] of pairs)
      await trx
        .insertInto('reimb_dup_accepts')
        .values({ id: newId(), line_id: lineId!, bill_id: b.id, other_line_id: otherLineId!, ...row })
        .onConflict((oc) => oc.columns(['line_id', 'other_line_id']).doUpdateSet(row))
        .execute();
    const other = match.sameBill ? `本单第${match.ref.lineNo}行` : `报销单 ${match.ref.billNo} 第${match.ref.lineNo}行`;
    await app.oplog.record(req, OperationLogType.edit, `接受疑似重复报销：报销单 ${b.bill_no} 第${line.line_no}行与${other}（${body.opinion}）`, trx);
    return { otherBillNo: match.ref.billNo, otherLineNo: match.ref.lineNo, sameBill: !!match.sameBill };
  });
}

/**
 * The other bill of a match, for a reader who may follow the bill's matches, while the match stands (found
 * again now) or was accepted: its header and lines, the matching ones marked; no payee account, files or track.
 */
export async function peerView(app: FastifyInstance, user: AuthUser, billId: string, peerId: string): Promise<ReimbPeerView> {
  const db: Db = app.db.kysely;
  const b = await db.selectFrom('reimb_bills').selectAll().where('id', '=', billId).executeTakeFirst();
  if (!b) throw notFound('报销单不存在');
  if (!(await mayFollowMatches(app, b, user))) throw forbidden();
  // A match within the bill has no other bill to open (the reader has this one).
  if (peerId === b.id) throw forbidden();
  const lines = await db.selectFrom('reimb_lines').select(['id', 'bill_id', 'line_no', 'category_code', 'expense_date', 'amount', 'invoice_id', 'seller_key', 'seller_name']).where('bill_id', '=', b.id).execute();
  const matched = new Set<string>();
  for (const l of lines) for (const m of await duplicateClaims(db, b.id, b.applicant_id, factsOf(l))) if (m.ref.billId === peerId) matched.add(m.ref.lineId);
  if (!matched.size) {
    const accepted = await db.selectFrom('reimb_dup_accepts').select('other_line_id').where('bill_id', '=', b.id).where('other_bill_id', '=', peerId).execute();
    for (const a of accepted) matched.add(a.other_line_id);
  }
  if (!matched.size) throw forbidden();
  const p = await db.selectFrom('reimb_bills').selectAll().where('id', '=', peerId).executeTakeFirst();
  if (!p) throw notFound('报销单不存在');
  const pl = await db.selectFrom('reimb_lines').selectAll().where('bill_id', '=', p.id).orderBy('line_no').execute();
  return {
    id: p.id,
    billNo: p.bill_no,
    applicantName: p.applicant_name,
    deptName: p.dept_name,
    reason: p.reason,
    flowStateName: ReimbFlowState.label(p.flow_state),
    reimbStateName: p.reimb_state === null ? '' : ReimbState.label(p.reimb_state),
    amount: Number(p.amount),
    submittedAt: p.submitted_at,
    lines: pl.map((l) => ({
      id: l.id,
      lineNo: l.line_no,
      categoryName: l.category_name,
      expenseDate: l.expense_date,
      description: l.description,
      sellerName: l.seller_name ?? '',
      amount: Number(l.amount),
      invoiceNumber: l.invoice_number,
      matched: matched.has(l.id),
    })),
  };
}
