/**
 * 部门月度报销流水: the lines of the pushed bills (已报销) of a month (the voucher date's) and a
 * department, one row per line, with the totals of the set. 不含税净额 = 核定金额 − 可抵扣税额, computed.
 */
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import { ReimbState, reimbNetAmount, type ReimbLaundryExportQuery, type ReimbLaundryQuery, type ReimbLaundryRow, type ReimbLaundryTotals } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import { offsetOf, sortOf } from '../../../platform/listing.js';
import { lineApproved } from './summary.js';

const SORTS = {
  voucherDate: 'b.voucher_date',
  billNo: 'b.bill_no',
  expenseDate: 'l.expense_date',
  amount: 'l.amount',
  approvedAmount: 'approved',
} as const;

type Filter = Omit<ReimbLaundryExportQuery, 'sort'> & { sort?: ReimbLaundryExportQuery['sort'] };

function base(db: Kysely<Database>, f: Filter) {
  let q = db
    .selectFrom('reimb_lines as l')
    .innerJoin('reimb_bills as b', 'b.id', 'l.bill_id')
    .where('b.reimb_state', '=', ReimbState.success)
    .where('b.voucher_date', '>=', `${f.month}-01`)
    .where('b.voucher_date', '<=', `${f.month}-32`);
  if (f.deptId !== undefined) q = f.deptId === '' ? q.where('b.dept_id', 'is', null) : q.where('b.dept_id', '=', f.deptId);
  if (f.categoryCode) q = q.where('l.category_code', '=', f.categoryCode);
  return q;
}

type Base = ReturnType<typeof base>;

function withColumns(q: Base) {
  return q.select([
    'l.id', 'l.bill_id', 'l.line_no', 'b.bill_no', 'b.voucher_no', 'b.voucher_date', 'b.applicant_name', 'b.dept_name', 'l.category_code', 'l.category_name',
    'l.expense_date', 'l.description', 'l.invoice_number', 'l.amount', lineApproved.as('approved'), 'l.tax', 'l.deductible_tax',
  ]);
}
type Row = Awaited<ReturnType<ReturnType<typeof withColumns>['execute']>>[number];

function toRow(r: Row): ReimbLaundryRow {
  const approvedAmount = Number(r.approved);
  const deductibleTax = Number(r.deductible_tax);
  return {
    id: r.id, billId: r.bill_id, billNo: r.bill_no, lineNo: Number(r.line_no), voucherNo: r.voucher_no, voucherDate: r.voucher_date, applicantName: r.applicant_name,
    deptName: r.dept_name, categoryCode: r.category_code, categoryName: r.category_name, expenseDate: r.expense_date, description: r.description,
    invoiceNumber: r.invoice_number, amount: Number(r.amount), approvedAmount, tax: Number(r.tax), deductibleTax, netAmount: reimbNetAmount(approvedAmount, deductibleTax),
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function ordered(q: SelectQueryBuilder<any, any, any>, f: Filter) {
  const s = sortOf(f.sort, SORTS, { column: 'b.voucher_date', order: 'asc' });
  const col = s.column === 'approved' ? lineApproved : sql.ref(s.column);
  return q.orderBy(col, s.order).orderBy('b.bill_no', s.order).orderBy('l.line_no', 'asc').orderBy('l.id', 'asc');
}

export async function laundryTotals(db: Kysely<Database>, f: Filter): Promise<ReimbLaundryTotals> {
  const r = await base(db, f)
    .select([
      sql<number>`count(*)`.as('n'),
      sql<number>`coalesce(sum(l.amount), 0)`.as('amount'),
      sql<number>`coalesce(sum(${lineApproved}), 0)`.as('approved'),
      sql<number>`coalesce(sum(l.tax), 0)`.as('tax'),
      sql<number>`coalesce(sum(l.deductible_tax), 0)`.as('deductible'),
    ])
    .executeTakeFirst();
  const approvedAmount = Number(r?.approved ?? 0);
  const deductibleTax = Number(r?.deductible ?? 0);
  return { count: Number(r?.n ?? 0), amount: Number(r?.amount ?? 0), approvedAmount, tax: Number(r?.tax ?? 0), deductibleTax, netAmount: reimbNetAmount(approvedAmount, deductibleTax) };
}

async function rowsOf(db: Kysely<Database>, f: Filter, offset: number, limit: number): Promise<ReimbLaundryRow[]> {
  const rows = (await ordered(withColumns(base(db, f)), f).limit(limit).offset(offset).execute()) as Row[];
  return rows.map(toRow);
}

export async function laundryPage(db: Kysely<Database>, q: ReimbLaundryQuery) {
  const [items, totals] = await Promise.all([rowsOf(db, q, offsetOf(q), q.pageSize), laundryTotals(db, q)]);
  return { items, total: totals.count, totals };
}

/** Every line of the filter in order: the ordered ids once (one sort), then the rows of each stretch by primary key. */
export async function* laundryBatches(db: Kysely<Database>, f: Filter, size = 1000): AsyncIterable<ReimbLaundryRow[]> {
  const ids = ((await ordered(base(db, f).select('l.id'), f).execute()) as Array<{ id: string }>).map((r) => r.id);
  for (let i = 0; i < ids.length; i += size) {
    const chunk = ids.slice(i, i + size);
    const rows = (await withColumns(base(db, f)).where('l.id', 'in', chunk).execute()) as Row[];
    const byId = new Map(rows.map((r) => [r.id, toRow(r)]));
    yield chunk.flatMap((id) => byId.get(id) ?? []);
  }
}
