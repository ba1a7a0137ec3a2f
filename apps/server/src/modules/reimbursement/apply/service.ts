/**
 * Applying (issue 15): the bill (BX{yyyyMM}{seq}) with its header, lines and attachments, saved as a
 * draft by its applicant, submitted into 费用报销审批 (FY01), withdrawn, deleted; the approval's
 * outcomes; 核定 by the current handler. The bill's sums are always computed here from its lines. Its
 * files (attachments, invoice files) are files.ts's.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import {
  OperationLogType,
  ReimbFlowState,
  ReimbState,
  billSums,
  formatFen,
  isSuperUser,
  sellerKey,
  taxOfIncluded,
  type ReimbApproveLineBody,
  type ReimbSaveBody,
} from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import type { AuthUser } from '../../../platform/context.js';
import { forbidden, notFound, refuse } from '../../../platform/envelope.js';
import { newId } from '../../../platform/ids.js';
import { shanghaiDay } from '../../../platform/listing.js';
import { nowIso } from '../../../platform/time.js';
import { notifyUser } from '../../messages/service.js';
import type { OutcomeEvent } from '../../workflow/outcomes.js';
import { categoryOf, costCentreOf, profileOf } from '../settings/read.js';
import type { ReimbBillTable } from '../tables.js';
import { checkLines } from './checks.js';
import { deductibleOf, invoiceRows, mustClaim, releaseBillInvoices, syncBillLocks } from './invoices.js';
import { referenceOrRefuse } from '../../invoice/reference.js';

type Db = Kysely<Database>;

export const RECORD_TYPE = 'reimbursement';
export const FLOW_NO = 'FY01';
const EDITABLE: number[] = [ReimbFlowState.draft, ReimbFlowState.returned];
/** Money in the bill's words: the one format of the screens (2,020.90). */
const yuan = (fen: number) => formatFen(fen);
export const myDetailLink = (id: string) => `/my/reimbursement/detail/${id}`;
/** Roles that read every bill (费用会计 12, 财务负责人 16, administrator 1). */
export const BILL_READER_ROLES = ['1', '12', '16'];

/** The next bill number of the Asia/Shanghai month: one atomic upsert of the month's counter. */
export async function nextBillNo(trx: Db, at: Date = new Date()): Promise<string> {
  const month = shanghaiDay(at).slice(0, 7).replace('-', '');
  const r = await sql<{ seq: number | string }>`
    insert into reimb_counters (month, seq) values (${month}, 1)
    on conflict (month) do update set seq = reimb_counters.seq + 1
    returning seq`.execute(trx);
  return `BX${month}${String(Number(r.rows[0]!.seq)).padStart(4, '0')}`;
}

export class ApplyService {
  private readonly pg: boolean;
  constructor(private readonly app: FastifyInstance) {
    this.pg = app.db.dialect === 'postgres';
  }

  private get db(): Db {
    return this.app.db.kysely;
  }

  /** The bill row, locked for the transaction on PostgreSQL (SQLite serialises writers). */
  async lockBill(trx: Db, id: string): Promise<ReimbBillTable> {
    let q = trx.selectFrom('reimb_bills').selectAll().where('id', '=', id);
    if (this.pg) q = q.forUpdate();
    const b = await q.executeTakeFirst();
    if (!b) throw notFound('报销单不存在');
    return b;
  }

  /** Only the applicant changes the bill, and only while it is 草稿 or 已退回. */
  mustEdit(b: ReimbBillTable, user: AuthUser): void {
    if (b.applicant_id !== user.id) throw refuse('只有申请人可以修改报销单', 403);
    if (!EDITABLE.includes(b.flow_state)) throw refuse(`报销单${ReimbFlowState.label(b.flow_state)}，不能修改`);
  }

  /** Saves a draft (new, or the applicant's 草稿 / 已退回 bill): header, lines, invoice locks and sums. */
  async save(req: FastifyRequest, user: AuthUser, body: ReimbSaveBody): Promise<{ id: string; billNo: string }> {
    return this.db.transaction().execute(async (trx) => {
      let bill: ReimbBillTable | null = null;
      if (body.id) {
        bill = await this.lockBill(trx, body.id);
        this.mustEdit(bill, user);
      }
      const now = nowIso();
      // The payee: as given, else my default.
      let payee = { name: body.payeeName, bank: body.payeeBank, account: body.payeeAccount.replace(/\s+/g, '') };
      if (!payee.name && !payee.bank && !payee.account) {
        const p = await profileOf(trx, user.id);
        if (p) payee = { name: p.payee_name, bank: p.payee_bank, account: p.payee_account };
      }
      if (body.saveAsDefault) await this.saveProfile(trx, user.id, { payeeName: payee.name, payeeBank: payee.bank, payeeAccount: payee.account });
      let projectName = body.projectName;
      if (body.projectId) {
        // The shared reference check (issue 27): an existing, real (not temporary) project.
        projectName = (await referenceOrRefuse(trx, 'project', { id: body.projectId })).name;
      }
      const header = {
        project_id: body.projectId,
        project_name: projectName,
        contract_no: body.contractNo,
        period_from: body.periodFrom,
        period_to: body.periodTo,
        reason: body.reason,
        payee_name: payee.name,
        payee_bank: payee.bank,
        payee_account: payee.account,
        updated_at: now,
      };
      let id: string;
      let billNo: string;
      if (bill) {
        id = bill.id;
        billNo = bill.bill_no;
        await trx.updateTable('reimb_bills').set(header).where('id', '=', id).execute();
      } else {
        id = newId();
        billNo = await nextBillNo(trx);
        const u = await trx.selectFrom('users as u').leftJoin('departments as d', 'd.id', 'u.dept_id').select(['u.dept_id', 'd.name as dept']).where('u.id', '=', user.id).executeTakeFirst();
        const centre = await costCentreOf(trx, u?.dept_id ?? null);
        await trx
          .insertInto('reimb_bills')
          .values({
            ...header,
            id,
            bill_no: billNo,
            applicant_id: user.id,
            applicant_name: user.name,
            dept_id: u?.dept_id ?? null,
            dept_name: u?.dept ?? '',
            flow_state: ReimbFlowState.draft,
            work_id: null,
            reimb_state: null,
            amount: 0,
            approved_amount: 0,
            tax: 0,
            deductible_tax: 0,
            line_count: 0,
            acct_summary: '',
            cost_centre_code: centre?.centre_code ?? '',
            cost_centre_name: centre?.centre_name ?? '',
            voucher_id: '',
            voucher_no: '',
            voucher_period: '',
            voucher_date: '',
            push_message: '',
            push_claimed_until: null,
            pushed_at: null,
            pushed_by: '',
            submitted_at: null,
            approved_at: null,
            created_at: now,
          })
          .execute();
      }
      await this.writeLines(trx, { id, billNo, applicantId: bill?.applicant_id ?? user.id, applicantName: bill?.applicant_name ?? user.name, previous: bill ? await this.lineInvoices(trx, id) : [] }, body.lines, user);
      await this.app.oplog.record(req, bill ? OperationLogType.edit : OperationLogType.add, `${bill ? '修改' : '新建'}报销单 ${billNo}（${body.lines.length} 行）`, trx);
      return { id, billNo };
    });
  }

  private async lineInvoices(trx: Db, billId: string): Promise<string[]> {
    return (await trx.selectFrom('reimb_lines').select('invoice_id').where('bill_id', '=', billId).execute()).flatMap((r) => (r.invoice_id ? [r.invoice_id] : []));
  }

  /** Replaces the bill's lines: category, tax and deductible tax computed, invoices locked, checks stored, sums kept. */
  private async writeLines(trx: Db, bill: { id: string; billNo: string; applicantId: string; applicantName: string; previous: string[] }, lines: ReimbSaveBody['lines'], user: AuthUser): Promise<void> {
    const invoiceIds = lines.flatMap((l) => (l.invoiceId ? [l.invoiceId] : []));
    const seen = new Set<string>();
    lines.forEach((l, i) => {
      if (!l.invoiceId) return;
      if (seen.has(l.invoiceId)) throw refuse(`第${i + 1}行：同一张发票不能用于多行费用明细`);
      seen.add(l.invoiceId);
    });
    // Only invoices I may claim (docs/reimbursement.md "Whose invoice it is"), every line on every save.
    await mustClaim(trx, user, lines.map((l, i) => ({ lineNo: i + 1, invoiceId: l.invoiceId })));
    await syncBillLocks(trx, bill.billNo, invoiceIds, user.name);
    const cats = new Map<string, NonNullable<Awaited<ReturnType<typeof categoryOf>>>>();
    for (const [i, l] of lines.entries()) {
      if (cats.has(l.categoryCode)) continue;
      const c = await categoryOf(trx, l.categoryCode);
      if (!c || c.enabled !== 1) throw refuse(`第${i + 1}行：费用类别不存在或已停用`);
      cats.set(l.categoryCode, c);
    }
    const invoices = await invoiceRows(trx, invoiceIds);
    // The seller a line was paid to: its invoice's, else the 收款方 typed (issue 32 #4, the duplicate-claim check).
    const sellers = lines.map((l) => {
      const inv = l.invoiceId ? invoices.get(l.invoiceId) : undefined;
      const name = inv?.seller_name || l.sellerName;
      return { name, key: sellerKey(name) };
    });
    // The new lines' ids first: a match within the bill names the other line (issue 32 #4).
    const ids = lines.map(() => newId());
    const checks = await checkLines(
      trx,
      { id: bill.id, applicantId: bill.applicantId, billNo: bill.billNo, applicantName: bill.applicantName },
      lines.map((l, i) => ({ ...l, travelKind: cats.get(l.categoryCode)!.travel_kind, sellerKey: sellers[i]!.key, id: ids[i]!, sellerName: sellers[i]!.name })),
    );
    await trx.deleteFrom('reimb_lines').where('bill_id', '=', bill.id).execute();
    const rows = lines.map((l, i) => {
      const c = cats.get(l.categoryCode)!;
      const rate = l.taxRate || c.default_tax_rate;
      const tax = taxOfIncluded(l.amount, rate);
      const inv = l.invoiceId ? invoices.get(l.invoiceId) : undefined;
      return {
        id: ids[i]!,
        bill_id: bill.id,
        line_no: i + 1,
        category_code: c.code,
        category_name: c.name,
        expense_date: l.expenseDate,
        description: l.description,
        city: l.city,
        nights: l.nights,
        seat_class: l.seatClass,
        amount: l.amount,
        tax_rate: rate,
        tax,
        approved_amount: null,
        approve_note: '',
        approved_by: '',
        deductible_tax: deductibleOf(inv, tax),
        invoice_id: l.invoiceId,
        invoice_number: inv ? (inv.digital_no || `${inv.invoice_code}${inv.invoice_no}`) : '',
        subject_code: c.subject_code,
        subject_name: c.subject_name,
        checks: JSON.stringify(checks[i] ?? []),
        seller_name: sellers[i]!.name,
        seller_key: sellers[i]!.key,
      };
    });
    if (rows.length) await trx.insertInto('reimb_lines').values(rows).execute();
    await this.resum(trx, bill.id);
  }

  /** Recomputes the bill's sums from its lines (never typed). */
  async resum(trx: Db, billId: string): Promise<void> {
    const lines = await trx.selectFrom('reimb_lines').select(['amount', 'approved_amount', 'tax', 'deductible_tax']).where('bill_id', '=', billId).execute();
    const s = billSums(lines.map((l) => ({ amount: Number(l.amount), approvedAmount: l.approved_amount === null ? null : Number(l.approved_amount), tax: Number(l.tax), deductibleTax: Number(l.deductible_tax) })));
    await trx
      .updateTable('reimb_bills')
      .set({ amount: s.amount, approved_amount: s.approvedAmount, tax: s.tax, deductible_tax: s.deductibleTax, line_count: s.lineCount, updated_at: nowIso() })
      .where('id', '=', billId)
      .execute();
  }

  /** Submits (or resubmits) the bill into 费用报销审批: checks again, re-locks its invoices, starts or continues FY01 in the same transaction. */
  async submit(req: FastifyRequest, user: AuthUser, id: string): Promise<{ workId: number; nodeName: string; handlers: string[] }> {
    return this.db.transaction().execute(async (trx) => {
      const b = await this.lockBill(trx, id);
      this.mustEdit(b, user);
      const lines = await trx.selectFrom('reimb_lines as l').leftJoin('reimb_categories as c', 'c.code', 'l.category_code').selectAll('l').select('c.travel_kind').where('l.bill_id', '=', id).orderBy('l.line_no').execute();
      if (lines.length === 0) throw refuse('请至少填写一行费用明细');
      if (!b.payee_name || !b.payee_account) throw refuse('请填写收款人及收款账号');
      // The claim rule again (a crafted or stale draft), then resubmitting re-locks: refused with the bill that took an invoice meanwhile.
      await mustClaim(trx, user, lines.map((l) => ({ lineNo: l.line_no, invoiceId: l.invoice_id })));
      await syncBillLocks(trx, b.bill_no, lines.flatMap((l) => (l.invoice_id ? [l.invoice_id] : [])), user.name);
      const checks = await checkLines(
        trx,
        { id, applicantId: b.applicant_id, billNo: b.bill_no, applicantName: b.applicant_name },
        lines.map((l) => ({ categoryCode: l.category_code, travelKind: l.travel_kind ?? '', expenseDate: l.expense_date, city: l.city, nights: l.nights, seatClass: l.seat_class, amount: Number(l.amount), invoiceId: l.invoice_id, sellerKey: l.seller_key ?? '', id: l.id, sellerName: l.seller_name ?? '' })),
      );
      for (const [i, l] of lines.entries()) {
        await trx.updateTable('reimb_lines').set({ checks: JSON.stringify(checks[i]) }).where('id', '=', l.id).execute();
        const block = checks[i]!.find((c) => c.level === 'block');
        if (block) throw refuse(`第${l.line_no}行：${block.message}`);
      }
      const now = nowIso();
      await trx.updateTable('reimb_bills').set({ flow_state: ReimbFlowState.approving, reimb_state: null, submitted_at: now, approved_at: null, updated_at: now }).where('id', '=', id).execute();
      const moved = await this.app.workflow.submitForRecord({
        flowNo: FLOW_NO,
        recordType: RECORD_TYPE,
        recordId: id,
        title: `${b.applicant_name}的费用报销 ${b.bill_no}（${yuan(Number(b.amount))}元）`,
        starterId: user.id,
        form: {
          reason: b.reason,
          period: [b.period_from, b.period_to],
          project: b.project_name,
          payee: b.payee_name,
          bankAccount: b.payee_account,
          lines: lines.map((l) => ({ category: l.category_name, date: l.expense_date, description: l.description.slice(0, 100), amount: Number(l.amount) })),
          amount: Number(b.amount),
          files: [],
        },
        trx,
      });
      await trx.updateTable('reimb_bills').set({ work_id: moved.workId }).where('id', '=', id).execute();
      await this.app.oplog.record(req, OperationLogType.edit, `提交报销单 ${b.bill_no}（${yuan(Number(b.amount))}元）审批`, trx);
      return { workId: moved.workId, nodeName: moved.nodeName, handlers: moved.handlers };
    });
  }

  /** The applicant takes the bill back before anyone acted (the workflow's withdraw); its invoices are released. */
  async withdraw(req: FastifyRequest, user: AuthUser, id: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const b = await this.lockBill(trx, id);
      if (b.applicant_id !== user.id) throw refuse('只有申请人可以撤回报销单', 403);
      if (b.flow_state !== ReimbFlowState.approving) throw refuse(`报销单${ReimbFlowState.label(b.flow_state)}，不能撤回`);
      await this.app.workflow.withdrawForRecord(RECORD_TYPE, id, user.id, trx);
      await this.app.oplog.record(req, OperationLogType.edit, `撤回报销单 ${b.bill_no}`, trx);
    });
  }

  /** Deletes the applicant's draft: its invoices go back to the pool, its withdrawn approval draft is deleted too. */
  async remove(req: FastifyRequest, user: AuthUser, id: string): Promise<string> {
    return this.db.transaction().execute(async (trx) => {
      const b = await this.lockBill(trx, id);
      if (b.applicant_id !== user.id) throw refuse('只有申请人可以删除报销单', 403);
      if (b.flow_state !== ReimbFlowState.draft) throw refuse(`报销单${ReimbFlowState.label(b.flow_state)}，只能删除草稿`);
      await releaseBillInvoices(trx, b.bill_no, user.name);
      await this.app.workflow.discardForRecord(RECORD_TYPE, id, user.id, trx);
      await trx.deleteFrom('reimb_bills').where('id', '=', id).execute();
      await this.app.oplog.record(req, OperationLogType.delete, `删除报销单草稿 ${b.bill_no}`, trx);
      return b.bill_no;
    });
  }

  /** What became of the bill's approval (inside the workflow action's transaction). */
  async onOutcome(e: OutcomeEvent): Promise<void> {
    const trx = e.trx;
    const b = await trx.selectFrom('reimb_bills').selectAll().where('id', '=', e.recordId).executeTakeFirst();
    if (!b) return;
    if (e.kind === 'complete') {
      await trx.updateTable('reimb_bills').set({ flow_state: ReimbFlowState.approved, reimb_state: ReimbState.unReimburse, approved_at: e.at, updated_at: e.at }).where('id', '=', b.id).execute();
      await notifyUser(trx, b.applicant_id, { title: `报销单 ${b.bill_no} 已审批通过`, content: `您的报销单 ${b.bill_no}（核定金额 ${yuan(Number(b.approved_amount))} 元）已审批通过，等待财务报销。`, link: myDetailLink(b.id) });
      return;
    }
    const to = e.kind === 'returned' ? ReimbFlowState.returned : ReimbFlowState.draft;
    await trx.updateTable('reimb_bills').set({ flow_state: to, updated_at: e.at, ...(e.kind === 'deleted' ? { work_id: null } : {}) }).where('id', '=', b.id).execute();
    await releaseBillInvoices(trx, b.bill_no, e.actorName);
    if (e.kind === 'returned')
      await notifyUser(trx, b.applicant_id, { title: `报销单 ${b.bill_no} 已退回`, content: `${e.actorName}退回了您的报销单 ${b.bill_no}${e.opinion ? `：${e.opinion}` : ''}。请修改后重新提交。`, link: myDetailLink(b.id) });
    if (e.kind === 'deleted' && b.flow_state !== ReimbFlowState.draft)
      await notifyUser(trx, b.applicant_id, { title: `报销单 ${b.bill_no} 的审批已被删除`, content: `报销单 ${b.bill_no} 的审批流程已被管理员删除，报销单已回到草稿。`, link: myDetailLink(b.id) });
  }

  /** 核定: a current handler of the bill's approval reduces a line's approved amount (never above the claim). */
  async approveLine(req: FastifyRequest, user: AuthUser, body: ReimbApproveLineBody): Promise<{ approvedAmount: number }> {
    return this.db.transaction().execute(async (trx) => {
      const line = await trx.selectFrom('reimb_lines').selectAll().where('id', '=', body.lineId).executeTakeFirst();
      if (!line) throw notFound('费用明细不存在');
      const b = await this.lockBill(trx, line.bill_id);
      if (b.flow_state !== ReimbFlowState.approving || b.work_id === null) throw refuse(`报销单${ReimbFlowState.label(b.flow_state)}，不能核定`);
      const h = await this.app.workflow.handlerOf(b.work_id, user.id, trx);
      if (!h.current) throw refuse('只有当前审批人可以核定金额', 403);
      if (body.approvedAmount > Number(line.amount)) throw refuse(`核定金额不能高于报销金额 ${yuan(Number(line.amount))} 元`);
      await trx
        .updateTable('reimb_lines')
        .set({ approved_amount: body.approvedAmount === Number(line.amount) ? null : body.approvedAmount, approve_note: body.note, approved_by: user.name })
        .where('id', '=', line.id)
        .execute();
      await this.resum(trx, b.id);
      await this.app.oplog.record(req, OperationLogType.edit, `核定报销单 ${b.bill_no} 第${line.line_no}行：${yuan(Number(line.amount))} 元核定为 ${yuan(body.approvedAmount)} 元（${body.note}）`, trx);
      return { approvedAmount: body.approvedAmount };
    });
  }

  async saveProfile(db: Db, userId: string, p: { payeeName: string; payeeBank: string; payeeAccount: string }): Promise<void> {
    const now = nowIso();
    const v = { payee_name: p.payeeName, payee_bank: p.payeeBank, payee_account: p.payeeAccount.replace(/\s+/g, ''), updated_at: now };
    await db
      .insertInto('reimb_profiles')
      .values({ user_id: userId, grade: '', ...v })
      .onConflict((oc) => oc.column('user_id').doUpdateSet(v))
      .execute();
  }

  /** Whether a user may read a bill: its applicant, a handler (current or past) of its approval, or roles 1, 12, 16. */
  async mayRead(b: ReimbBillTable, user: AuthUser): Promise<boolean> {
    if (b.applicant_id === user.id) return true;
    if (isSuperUser(user.roles) || user.roles.some((r) => BILL_READER_ROLES.includes(r))) return true;
    if (b.work_id === null) return false;
    const h = await this.app.workflow.handlerOf(b.work_id, user.id);
    return h.current || h.past;
  }

  async readable(user: AuthUser, id: string): Promise<ReimbBillTable> {
    const b = await this.db.selectFrom('reimb_bills').selectAll().where('id', '=', id).executeTakeFirst();
    if (!b) throw notFound('报销单不存在');
    if (!(await this.mayRead(b, user))) throw forbidden();
    return b;
  }
}
