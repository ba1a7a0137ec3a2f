/** Reading bills (issue 15): my bills with filters, sums, sorting and paging; one bill in full. */
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import {
  ReimbFlowState,
  ReimbGrade,
  ReimbState,
  type ReimbBillDetail,
  type ReimbBillRow,
  type ReimbCheck,
  type ReimbLineView,
  type ReimbListAnswer,
  type ReimbListQuery,
  type ReimbApplyOptions,
} from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import type { AuthUser } from '../../../platform/context.js';
import { offsetOf, sortOf } from '../../../platform/listing.js';
import { shanghaiDayStartIso } from '../../../platform/time.js';
import { enabledCategories, gradeOf, profileOf, reimbSetting } from '../settings/read.js';
import type { ReimbBillTable } from '../tables.js';
import { checkLines } from './checks.js';
import { visibleChecks } from './duplicates.js';
import { invoiceInfos } from './invoices.js';
import type { ApplyService } from './service.js';

type Db = Kysely<Database>;

const SORTS = { billNo: 'bill_no', amount: 'amount', approvedAmount: 'approved_amount', createdAt: 'created_at', submittedAt: 'submitted_at', approvedAt: 'approved_at' } as const;

export async function rowOf(app: FastifyInstance, b: ReimbBillTable): Promise<ReimbBillRow> {
  const inst = b.flow_state === ReimbFlowState.approving ? await app.workflow.instanceOf('reimbursement', b.id) : null;
  return {
    id: b.id,
    billNo: b.bill_no,
    applicantName: b.applicant_name,
    deptName: b.dept_name,
    projectName: b.project_name,
    reason: b.reason,
    periodFrom: b.period_from,
    periodTo: b.period_to,
    flowState: b.flow_state,
    flowStateName: ReimbFlowState.label(b.flow_state),
    reimbState: b.reimb_state,
    reimbStateName: b.reimb_state === null ? '' : ReimbState.label(b.reimb_state),
    amount: Number(b.amount),
    approvedAmount: Number(b.approved_amount),
    tax: Number(b.tax),
    lineCount: b.line_count,
    nodeName: inst?.nodeName ?? '',
    handlerNames: inst?.handlerNames ?? '',
    submittedAt: b.submitted_at,
    approvedAt: b.approved_at,
    createdAt: b.created_at,
  };
}

/** My bills: by number, approval state, the day made (Asia/Shanghai) and amount; sums of the filtered set. */
export async function myBills(app: FastifyInstance, user: AuthUser, q: ReimbListQuery): Promise<ReimbListAnswer> {
  const db = app.db.kysely;
  let base = db.selectFrom('reimb_bills').where('applicant_id', '=', user.id);
  if (q.billNo) base = base.where('bill_no', 'like', `%${q.billNo.replace(/[\\%_]/g, '')}%`);
  if (q.flowState !== undefined) base = base.where('flow_state', '=', q.flowState);
  if (q.from) base = base.where('created_at', '>=', shanghaiDayStartIso(q.from));
  if (q.to) base = base.where('created_at', '<', shanghaiDayStartIso(q.to, 1));
  if (q.amountMin !== undefined) base = base.where('amount', '>=', q.amountMin);
  if (q.amountMax !== undefined) base = base.where('amount', '<=', q.amountMax);
  const totals = await base
    .select((eb) => [eb.fn.countAll<number>().as('n'), sql<number>`coalesce(sum(amount), 0)`.as('amount'), sql<number>`coalesce(sum(approved_amount), 0)`.as('approved')])
    .executeTakeFirstOrThrow();
  const s = sortOf(q.sort, SORTS, { column: 'created_at', order: 'desc' });
  const rows = await base.selectAll().orderBy(s.column, s.order).orderBy('id', 'desc').limit(q.pageSize).offset(offsetOf(q)).execute();
  const items: ReimbBillRow[] = [];
  for (const b of rows) items.push(await rowOf(app, b));
  return { items, total: Number(totals.n), sums: { amount: Number(totals.amount), approvedAmount: Number(totals.approved) } };
}

/** One bill in full: header, lines with their invoices and checks, attachments, the approval's track, the accounting history. */
export async function billDetail(app: FastifyInstance, svc: ApplyService, user: AuthUser, b: ReimbBillTable): Promise<ReimbBillDetail> {
  const db: Db = app.db.kysely;
  const lines = await db
    .selectFrom('reimb_lines as l')
    .leftJoin('reimb_categories as c', 'c.code', 'l.category_code')
    .selectAll('l')
    .select('c.travel_kind')
    .where('l.bill_id', '=', b.id)
    .orderBy('l.line_no')
    .execute();
  const invoices = await invoiceInfos(db, lines.flatMap((l) => (l.invoice_id ? [l.invoice_id] : [])));
  // While in approval the approvers see the checks as they stand now; otherwise as found at the last save.
  let checks: ReimbCheck[][] = lines.map((l) => JSON.parse(l.checks) as ReimbCheck[]);
  if (b.flow_state === ReimbFlowState.approving)
    checks = await checkLines(
      db,
      { id: b.id, applicantId: b.applicant_id, billNo: b.bill_no, applicantName: b.applicant_name },
      lines.map((l) => ({ categoryCode: l.category_code, travelKind: l.travel_kind ?? '', expenseDate: l.expense_date, city: l.city, nights: l.nights, seatClass: l.seat_class, amount: Number(l.amount), invoiceId: l.invoice_id, sellerKey: l.seller_key ?? '', id: l.id, sellerName: l.seller_name ?? '' })),
    );
  // 疑似重复报销: acceptances shown, references only to whoever may follow them (duplicates.ts).
  checks = await visibleChecks(app, b, user, lines.map((l) => l.id), checks);
  const views: ReimbLineView[] = lines.map((l, i) => ({
    id: l.id,
    lineNo: l.line_no,
    categoryCode: l.category_code,
    categoryName: l.category_name,
    travelKind: l.travel_kind ?? '',
    expenseDate: l.expense_date,
    description: l.description,
    city: l.city,
    nights: l.nights,
    seatClass: l.seat_class,
    amount: Number(l.amount),
    taxRate: l.tax_rate,
    tax: Number(l.tax),
    netAmount: Number(l.amount) - Number(l.deductible_tax),
    deductibleTax: Number(l.deductible_tax),
    approvedAmount: l.approved_amount === null ? null : Number(l.approved_amount),
    approveNote: l.approve_note,
    approvedBy: l.approved_by,
    invoiceId: l.invoice_id,
    invoiceNumber: l.invoice_number,
    invoice: l.invoice_id ? (invoices.get(l.invoice_id) ?? null) : null,
    sellerName: l.seller_name ?? '',
    subjectCode: l.subject_code,
    subjectName: l.subject_name,
    checks: checks[i] ?? [],
  }));
  const attachments = await db.selectFrom('reimb_attachments').select(['id', 'name', 'size', 'created_at']).where('bill_id', '=', b.id).orderBy('created_at').execute();
  const pushes = await db.selectFrom('reimb_pushes').selectAll().where('bill_id', '=', b.id).orderBy('created_at', 'desc').execute();
  const handler = b.work_id !== null && b.flow_state === ReimbFlowState.approving ? await app.workflow.handlerOf(b.work_id, user.id) : { current: false, past: false };
  const mine = b.applicant_id === user.id;
  const editable = mine && (b.flow_state === ReimbFlowState.draft || b.flow_state === ReimbFlowState.returned);
  void svc;
  return {
    ...(await rowOf(app, b)),
    applicantId: b.applicant_id,
    projectId: b.project_id,
    contractNo: b.contract_no,
    payeeName: b.payee_name,
    payeeBank: b.payee_bank,
    payeeAccount: b.payee_account,
    deductibleTax: Number(b.deductible_tax),
    workId: b.work_id,
    voucherNo: b.voucher_no,
    pushMessage: b.push_message,
    lines: views,
    attachments: attachments.map((a) => ({ id: a.id, name: a.name, size: a.size, createdAt: a.created_at })),
    track: b.work_id !== null ? await app.workflow.trackOf(b.work_id) : [],
    pushes: pushes.map((p) => ({ id: p.id, action: p.action, ok: p.ok === 1, voucherNo: p.voucher_no, message: p.message, userName: p.user_name, createdAt: p.created_at })),
    can: {
      edit: editable,
      submit: editable,
      withdraw: mine && b.flow_state === ReimbFlowState.approving,
      delete: mine && b.flow_state === ReimbFlowState.draft,
      approve: handler.current,
    },
  };
}

/** What the editor needs: the enabled categories, my grade and payee defaults. */
export async function applyOptions(app: FastifyInstance, user: AuthUser): Promise<ReimbApplyOptions> {
  const db = app.db.kysely;
  const cats = await enabledCategories(db);
  const p = await profileOf(db, user.id);
  const grade = await gradeOf(db, user.id);
  return {
    categories: cats.map((c) => ({ code: c.code, name: c.name, travelKind: c.travel_kind, defaultTaxRate: c.default_tax_rate })),
    profile: { grade, gradeName: ReimbGrade.label(grade), payeeName: p?.payee_name ?? user.name, payeeBank: p?.payee_bank ?? '', payeeAccount: p?.payee_account ?? '' },
    deptName: user.deptName,
    applicantName: user.name,
    invoiceAgeDays: await reimbSetting(db, 'invoiceAgeDays'),
  };
}
