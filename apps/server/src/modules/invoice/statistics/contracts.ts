/**
 * Statistics by contract: invoiced (net of red invoices) against each contract's amount, the
 * remaining amount and the percentage (合同开票统计); and created invoices not yet allocated in full
 * to real contracts — no contract allocation, or allocated to a temporary one (临时合同开票).
 */
import { sql } from 'kysely';
import { InvoiceStatus, type ContractStatisticsQuery, type ContractStatisticsRow, type ContractStatisticsTotals, type StatisticsQuery, type TempInvoiceRow } from '@zhyy/shared';
import { contains } from '../../../platform/listing.js';
import type { Db } from '../apportionment/store.js';
import type { Filters } from './projects.js';

export type ContractFilters = Omit<ContractStatisticsQuery, 'pageIndex' | 'pageSize' | 'sort'>;

export function invoicedByContract(db: Db, f: Filters) {
  let q = db
    .selectFrom('invoice_allocations as a')
    .innerJoin('invoices as i', 'i.id', 'a.invoice_id')
    .where('a.dim', '=', 'contract')
    .where('i.status', '=', InvoiceStatus.created);
  if (f.fromMonth) q = q.where('a.issue_date', '>=', `${f.fromMonth}-01`);
  if (f.toMonth) q = q.where('a.issue_date', '<=', `${f.toMonth}-31`);
  return q.select(['a.target_id', sql<number>`sum(a.amount_incl)`.as('invoiced'), sql<number>`sum(a.amount_excl)`.as('excl'), sql<number>`sum(a.tax)`.as('tax'), sql<number>`count(distinct a.invoice_id)`.as('n')]).groupBy('a.target_id');
}

export function contractStats(db: Db, f: ContractFilters) {
  let q = db
    .selectFrom('contracts as c')
    .leftJoin('projects as p', 'p.id', 'c.project_id')
    .leftJoin(invoicedByContract(db, f).as('s'), 's.target_id', 'c.id')
    .where('c.is_temp', '=', 0);
  if (f.keyword) q = q.where((eb) => eb.or([contains(eb.ref('c.name'), f.keyword!), contains(eb.ref('c.code'), f.keyword!), contains(eb.ref('c.customer'), f.keyword!)]));
  if (f.contractType) q = q.where('c.contract_type', '=', f.contractType);
  if (f.overOnly) q = q.where(sql<boolean>`coalesce(s.invoiced, 0) > c.amount`);
  return q;
}

const invoiced = sql<number>`coalesce(s.invoiced, 0)`;

export async function contractRows(db: Db, f: ContractFilters, offset: number, limit: number): Promise<ContractStatisticsRow[]> {
  const rows = await contractStats(db, f)
    .select(['c.id', 'c.code', 'c.name', 'c.contract_type', 'c.customer', 'c.amount', 'p.name as project_name', invoiced.as('invoiced'), sql<number>`coalesce(s.n, 0)`.as('n')])
    .orderBy(invoiced, 'desc')
    .orderBy('c.code')
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map((r) => {
    const amount = Number(r.amount);
    const inv = Number(r.invoiced);
    return {
      contractId: r.id, contractCode: r.code, contractName: r.name, contractType: r.contract_type, projectName: r.project_name ?? '', customer: r.customer, contractAmount: amount,
      invoiceCount: Number(r.n), invoiced: inv, remaining: amount - inv, percentBp: amount > 0 ? Math.round((inv * 10000) / amount) : null,
    };
  });
}

export async function contractTotals(db: Db, f: ContractFilters): Promise<{ total: number; totals: ContractStatisticsTotals }> {
  const t = await contractStats(db, f)
    .select([sql<number>`count(*)`.as('rows'), sql<number>`coalesce(sum(c.amount), 0)`.as('amount'), sql<number>`coalesce(sum(s.invoiced), 0)`.as('incl'), sql<number>`coalesce(sum(s.excl), 0)`.as('excl'), sql<number>`coalesce(sum(s.tax), 0)`.as('tax'), sql<number>`coalesce(sum(s.n), 0)`.as('n')])
    .executeTakeFirstOrThrow();
  const amount = Number(t.amount);
  const incl = Number(t.incl);
  return { total: Number(t.rows), totals: { contractAmount: amount, amountIncl: incl, amountExcl: Number(t.excl), tax: Number(t.tax), invoiceCount: Number(t.n), remaining: amount - incl } };
}

/** Created invoices whose real-contract allocations do not cover the invoice (the gap is the unmatched part). */
export function tempContracts(db: Db, f: Filters) {
  const real = db
    .selectFrom('invoice_allocations as a')
    .innerJoin('contracts as c', 'c.id', 'a.target_id')
    .where('a.dim', '=', 'contract')
    .where('c.is_temp', '=', 0)
    .select(['a.invoice_id', sql<number>`sum(a.amount_incl)`.as('incl'), sql<number>`sum(a.amount_excl)`.as('excl'), sql<number>`sum(a.tax)`.as('tax')])
    .groupBy('a.invoice_id');
  let q = db
    .selectFrom('invoices as i')
    .leftJoin(real.as('r'), 'r.invoice_id', 'i.id')
    .leftJoin('projects as p', 'p.id', 'i.project_id')
    .where('i.status', '=', InvoiceStatus.created)
    .where(sql<boolean>`i.amount_incl <> coalesce(r.incl, 0)`);
  if (f.fromMonth) q = q.where('i.issue_date', '>=', `${f.fromMonth}-01`);
  if (f.toMonth) q = q.where('i.issue_date', '<=', `${f.toMonth}-31`);
  if (f.keyword) {
    const k = f.keyword;
    q = q.where((eb) => eb.or([eb('i.invoice_no', '=', k), eb('i.digital_no', '=', k), contains(eb.ref('i.buyer_name'), k), contains(eb.ref('p.name'), k)]));
  }
  return q;
}

const gap = { incl: sql<number>`i.amount_incl - coalesce(r.incl, 0)`, excl: sql<number>`i.amount_excl - coalesce(r.excl, 0)`, tax: sql<number>`i.tax - coalesce(r.tax, 0)` };

export async function tempContractRows(db: Db, f: Filters, offset: number, limit: number): Promise<TempInvoiceRow[]> {
  const rows = await tempContracts(db, f)
    .select(['i.id', 'i.invoice_no', 'i.digital_no', 'i.order_no', 'i.kind', 'i.colour', 'i.buyer_name', 'i.issue_date', 'i.amount_incl', 'p.id as pid', 'p.code', 'p.name', gap.incl.as('gap_incl'), gap.excl.as('gap_excl'), gap.tax.as('gap_tax')])
    .orderBy('i.issue_date', 'desc')
    .orderBy('i.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map((r) => ({
    allocationId: null, invoiceId: r.id, invoiceNo: r.digital_no || r.invoice_no || r.order_no, orderNo: r.order_no, kind: r.kind, colour: r.colour, buyerName: r.buyer_name, issueDate: r.issue_date,
    targetId: r.pid ?? null, targetCode: r.code ?? '', targetName: r.name ?? '', invoiceAmountIncl: Number(r.amount_incl), amountIncl: Number(r.gap_incl), amountExcl: Number(r.gap_excl), tax: Number(r.gap_tax),
  }));
}

export async function tempContractSummary(db: Db, f: StatisticsQuery) {
  const q = tempContracts(db, f);
  const [t, chart] = await Promise.all([
    q.select([sql<number>`count(*)`.as('n'), sql<number>`coalesce(sum(${gap.incl}), 0)`.as('incl'), sql<number>`coalesce(sum(${gap.excl}), 0)`.as('excl'), sql<number>`coalesce(sum(${gap.tax}), 0)`.as('tax')]).executeTakeFirstOrThrow(),
    q.select([sql<string>`coalesce(p.name, '未关联项目')`.as('name'), sql<number>`sum(${gap.incl})`.as('incl'), sql<number>`count(*)`.as('n')]).groupBy(['p.id', 'p.name']).orderBy(sql`sum(${gap.incl})`, 'desc').limit(12).execute(),
  ]);
  return {
    total: Number(t.n),
    totals: { invoiceCount: Number(t.n), amountExcl: Number(t.excl), tax: Number(t.tax), amountIncl: Number(t.incl) },
    chart: chart.map((c) => ({ name: c.name, value: Number(c.incl), extra: Number(c.n) })),
  };
}
