/**
 * Statistics by project: apportionment by project and month (分摊统计), and the invoices still
 * allocated to temporary projects (临时项目开票). Only created (2) invoices count; red ones count
 * negatively. Months are the allocation's issue day (indexed with the dimension and the target).
 */
import { sql } from 'kysely';
import { InvoiceStatus, type ChartPoint, type ProjectMonthRow, type StatisticsPage, type StatisticsQuery, type TempInvoiceRow } from '@zhyy/shared';
import { contains, offsetOf } from '../../../platform/listing.js';
import type { Db } from '../apportionment/store.js';

export type Filters = Omit<StatisticsQuery, 'pageIndex' | 'pageSize' | 'sort'>;

const month = sql<string>`substr(a.issue_date, 1, 7)`;

function projectAllocations(db: Db, f: Filters) {
  let q = db
    .selectFrom('invoice_allocations as a')
    .innerJoin('invoices as i', 'i.id', 'a.invoice_id')
    .innerJoin('projects as p', 'p.id', 'a.target_id')
    .where('a.dim', '=', 'project')
    .where('i.status', '=', InvoiceStatus.created);
  if (f.fromMonth) q = q.where('a.issue_date', '>=', `${f.fromMonth}-01`);
  if (f.toMonth) q = q.where('a.issue_date', '<=', `${f.toMonth}-31`);
  return q;
}

export function byProjectMonth(db: Db, f: Filters) {
  let q = projectAllocations(db, f);
  if (f.keyword) q = q.where((eb) => eb.or([contains(eb.ref('p.name'), f.keyword!), contains(eb.ref('p.code'), f.keyword!)]));
  return q;
}

export async function projectMonthRows(db: Db, f: Filters, offset: number, limit: number): Promise<ProjectMonthRow[]> {
  const rows = await byProjectMonth(db, f)
    .select(['p.id', 'p.code', 'p.name', month.as('month'), sql<number>`count(distinct a.invoice_id)`.as('n'), sql<number>`sum(a.amount_excl)`.as('excl'), sql<number>`sum(a.tax)`.as('tax'), sql<number>`sum(a.amount_incl)`.as('incl')])
    .groupBy(['p.id', 'p.code', 'p.name', month])
    .orderBy(month, 'desc')
    .orderBy('p.code')
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map((r) => ({ projectId: r.id, projectCode: r.code, projectName: r.name, month: r.month, invoiceCount: Number(r.n), amountExcl: Number(r.excl), tax: Number(r.tax), amountIncl: Number(r.incl) }));
}

export async function projectMonthPage(db: Db, f: StatisticsQuery): Promise<StatisticsPage<ProjectMonthRow>> {
  const q = byProjectMonth(db, f);
  const [items, groups, totals, chart] = await Promise.all([
    projectMonthRows(db, f, offsetOf(f), f.pageSize),
    db.selectFrom(q.select(['a.target_id', month.as('m')]).groupBy(['a.target_id', month]).as('g')).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    q.select([sql<number>`count(distinct a.invoice_id)`.as('n'), sql<number>`coalesce(sum(a.amount_excl), 0)`.as('excl'), sql<number>`coalesce(sum(a.tax), 0)`.as('tax'), sql<number>`coalesce(sum(a.amount_incl), 0)`.as('incl')]).executeTakeFirstOrThrow(),
    q.select([month.as('month'), sql<number>`sum(a.amount_incl)`.as('incl'), sql<number>`sum(a.tax)`.as('tax')]).groupBy(month).orderBy(month).execute(),
  ]);
  return {
    items,
    total: Number(groups.n),
    totals: { invoiceCount: Number(totals.n), amountExcl: Number(totals.excl), tax: Number(totals.tax), amountIncl: Number(totals.incl) },
    chart: chart.map((c): ChartPoint => ({ name: c.month, value: Number(c.incl), extra: Number(c.tax) })),
  };
}

export function tempProjects(db: Db, f: Filters) {
  let q = projectAllocations(db, f).where('p.is_temp', '=', 1);
  if (f.keyword) {
    const k = f.keyword;
    q = q.where((eb) => eb.or([eb('i.invoice_no', '=', k), eb('i.digital_no', '=', k), contains(eb.ref('i.buyer_name'), k), contains(eb.ref('p.name'), k), contains(eb.ref('p.code'), k)]));
  }
  return q;
}

export async function tempProjectRows(db: Db, f: Filters, offset: number, limit: number): Promise<TempInvoiceRow[]> {
  const rows = await tempProjects(db, f)
    .select(['a.id', 'a.invoice_id', 'a.amount_excl', 'a.tax', 'a.amount_incl', 'a.issue_date', 'p.id as pid', 'p.code', 'p.name', 'i.invoice_no', 'i.digital_no', 'i.order_no', 'i.kind', 'i.colour', 'i.buyer_name', 'i.amount_incl as inv_incl'])
    .orderBy('a.issue_date', 'desc')
    .orderBy('a.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map((r) => ({
    allocationId: r.id, invoiceId: r.invoice_id, invoiceNo: r.digital_no || r.invoice_no || r.order_no, orderNo: r.order_no, kind: r.kind, colour: r.colour, buyerName: r.buyer_name,
    issueDate: r.issue_date, targetId: r.pid, targetCode: r.code, targetName: r.name, invoiceAmountIncl: Number(r.inv_incl), amountIncl: Number(r.amount_incl), amountExcl: Number(r.amount_excl), tax: Number(r.tax),
  }));
}

export async function tempProjectPage(db: Db, f: StatisticsQuery): Promise<StatisticsPage<TempInvoiceRow>> {
  const q = tempProjects(db, f);
  const [items, totals, chart] = await Promise.all([
    tempProjectRows(db, f, offsetOf(f), f.pageSize),
    q.select([sql<number>`count(*)`.as('rows'), sql<number>`count(distinct a.invoice_id)`.as('n'), sql<number>`coalesce(sum(a.amount_excl), 0)`.as('excl'), sql<number>`coalesce(sum(a.tax), 0)`.as('tax'), sql<number>`coalesce(sum(a.amount_incl), 0)`.as('incl')]).executeTakeFirstOrThrow(),
    q.select(['p.name', sql<number>`sum(a.amount_incl)`.as('incl'), sql<number>`count(distinct a.invoice_id)`.as('n')]).groupBy(['p.id', 'p.name']).orderBy(sql`sum(a.amount_incl)`, 'desc').limit(12).execute(),
  ]);
  return {
    items,
    total: Number(totals.rows),
    totals: { invoiceCount: Number(totals.n), amountExcl: Number(totals.excl), tax: Number(totals.tax), amountIncl: Number(totals.incl) },
    chart: chart.map((c) => ({ name: c.name, value: Number(c.incl), extra: Number(c.n) })),
  };
}
