/**
 * The two apportionment ledgers (项目分摊台账 / 订单分摊台账): allocation rows of created invoices
 * with their invoice, filterable by issue day (the allocation's own copy, indexed with the
 * dimension), target, invoice number or buyer and colour; the totals of the filtered set; one
 * invoice's allocations with its history; the change history list; the target lookup.
 */
import { sql } from 'kysely';
import { InvoiceStatus, type AllocationChangeQuery, type AllocationChangeRow, type AllocationDim, type AllocationRow, type ApportionmentPage, type ApportionmentQuery, type InvoiceApportionment, type TargetLookup, type TargetOption } from '@zhyy/shared';
import { notFound } from '../../../platform/envelope.js';
import { contains, offsetOf, sortOf } from '../../../platform/listing.js';
import type { Db } from './store.js';
import { shanghaiDayStartIso } from '../../../platform/time.js';

const SORTS = { issueDate: 'a.issue_date', amountIncl: 'a.amount_incl', targetName: 't.name', buyerName: 'i.buyer_name' } as const;

function ledger(db: Db, dim: AllocationDim) {
  const q = db.selectFrom('invoice_allocations as a').innerJoin('invoices as i', 'i.id', 'a.invoice_id');
  return (dim === 'project' ? q.innerJoin('projects as t', 't.id', 'a.target_id') : q.innerJoin('contracts as t', 't.id', 'a.target_id'))
    .where('a.dim', '=', dim)
    .where('i.status', '=', InvoiceStatus.created);
}
type Q = ReturnType<typeof ledger>;

function filtered(q: Q, f: Omit<ApportionmentQuery, 'pageIndex' | 'pageSize'>): Q {
  if (f.from) q = q.where('a.issue_date', '>=', f.from);
  if (f.to) q = q.where('a.issue_date', '<=', f.to);
  if (f.targetId) q = q.where('a.target_id', '=', f.targetId);
  if (f.target) q = q.where((eb) => eb.or([contains(eb.ref('t.name'), f.target!), contains(eb.ref('t.code'), f.target!)]));
  if (f.keyword) {
    const k = f.keyword;
    q = q.where((eb) => eb.or([eb('i.invoice_no', '=', k), eb('i.digital_no', '=', k), eb('i.order_no', '=', k), contains(eb.ref('i.buyer_name'), k)]));
  }
  if (f.colour) q = q.where('i.colour', '=', f.colour);
  if (f.tempOnly) q = q.where('t.is_temp', '=', 1);
  return q;
}

const COLUMNS = [
  'a.id', 'a.invoice_id', 'a.dim', 'a.target_id', 'a.amount_excl', 'a.tax', 'a.amount_incl', 'a.issue_date', 'a.created_by_name', 'a.updated_at',
  't.code as target_code', 't.name as target_name', 't.is_temp as target_temp',
  'i.invoice_no', 'i.digital_no', 'i.order_no', 'i.kind', 'i.colour', 'i.buyer_name', 'i.amount_incl as invoice_amount_incl',
] as const;

export function toRow(r: Record<string, unknown>, shareCount = 1): AllocationRow {
  return {
    id: String(r.id), invoiceId: String(r.invoice_id), dim: r.dim as AllocationDim, targetId: String(r.target_id), targetCode: String(r.target_code), targetName: String(r.target_name),
    targetTemp: Number(r.target_temp) === 1, amountExcl: Number(r.amount_excl), tax: Number(r.tax), amountIncl: Number(r.amount_incl),
    invoiceNo: String(r.digital_no || r.invoice_no || ''), orderNo: String(r.order_no), kind: Number(r.kind), colour: Number(r.colour), buyerName: String(r.buyer_name),
    issueDate: (r.issue_date as string | null) ?? null, invoiceAmountIncl: Number(r.invoice_amount_incl), shareCount: Number(r.share_count ?? shareCount),
    createdByName: String(r.created_by_name), updatedAt: String(r.updated_at),
  };
}

export async function listAllocations(db: Db, dim: AllocationDim, f: ApportionmentQuery, offset = offsetOf(f), limit = f.pageSize): Promise<AllocationRow[]> {
  const s = sortOf(f.sort, SORTS, { column: 'a.issue_date', order: 'desc' });
  const rows = await filtered(ledger(db, dim), f)
    .select([...COLUMNS])
    .select((eb) => eb.selectFrom('invoice_allocations as o').select(eb.fn.countAll<number>().as('n')).whereRef('o.invoice_id', '=', 'a.invoice_id').where('o.dim', '=', dim).as('share_count'))
    .orderBy(s.column, s.order)
    .orderBy('a.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map((r) => toRow(r as Record<string, unknown>));
}

export async function allocationTotals(db: Db, dim: AllocationDim, f: Omit<ApportionmentQuery, 'pageIndex' | 'pageSize'>) {
  const t = await filtered(ledger(db, dim), f)
    .select([sql<number>`count(*)`.as('n'), sql<number>`coalesce(sum(a.amount_excl), 0)`.as('excl'), sql<number>`coalesce(sum(a.tax), 0)`.as('tax'), sql<number>`coalesce(sum(a.amount_incl), 0)`.as('incl')])
    .executeTakeFirstOrThrow();
  return { total: Number(t.n), totals: { amountExcl: Number(t.excl), tax: Number(t.tax), amountIncl: Number(t.incl) } };
}

export async function allocationPage(db: Db, dim: AllocationDim, f: ApportionmentQuery): Promise<ApportionmentPage> {
  const [items, t] = await Promise.all([listAllocations(db, dim, f), allocationTotals(db, dim, f)]);
  return { items, ...t };
}

function toChange(r: Record<string, unknown>): AllocationChangeRow {
  return {
    id: String(r.id), invoiceId: String(r.invoice_id), invoiceNo: String(r.digital_no || r.invoice_no || r.order_no || ''), dim: r.dim as AllocationDim,
    action: r.action as AllocationChangeRow['action'], fromName: String(r.from_name), toName: String(r.to_name), amountIncl: Number(r.amount_incl),
    before: JSON.parse(String(r.before)), after: JSON.parse(String(r.after)), reason: String(r.reason), userName: String(r.user_name), createdAt: String(r.created_at),
  };
}


const changes = (db: Db) =>
  db.selectFrom('invoice_allocation_changes as c').innerJoin('invoices as i', 'i.id', 'c.invoice_id').selectAll('c').select(['i.invoice_no', 'i.digital_no', 'i.order_no']);

export async function changeHistory(db: Db, f: AllocationChangeQuery): Promise<{ items: AllocationChangeRow[]; total: number }> {
  let q = db.selectFrom('invoice_allocation_changes as c').innerJoin('invoices as i', 'i.id', 'c.invoice_id');
  if (f.dim) q = q.where('c.dim', '=', f.dim);
  if (f.invoiceId) q = q.where('c.invoice_id', '=', f.invoiceId);
  if (f.from) q = q.where('c.created_at', '>=', shanghaiDayStartIso(f.from));
  if (f.to) q = q.where('c.created_at', '<', shanghaiDayStartIso(f.to, 1));
  if (f.keyword) {
    const k = f.keyword;
    q = q.where((eb) => eb.or([eb('i.invoice_no', '=', k), eb('i.digital_no', '=', k), contains(eb.ref('c.from_name'), k), contains(eb.ref('c.to_name'), k), contains(eb.ref('c.user_name'), k), contains(eb.ref('c.reason'), k)]));
  }
  const [rows, n] = await Promise.all([
    q.selectAll('c').select(['i.invoice_no', 'i.digital_no', 'i.order_no']).orderBy('c.created_at', 'desc').orderBy('c.id', 'desc').limit(f.pageSize).offset(offsetOf(f)).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map((r) => toChange(r as unknown as Record<string, unknown>)), total: Number(n.n) };
}

export async function invoiceApportionment(db: Db, invoiceId: string): Promise<InvoiceApportionment> {
  const i = await db.selectFrom('invoices').selectAll().where('id', '=', invoiceId).executeTakeFirst();
  if (!i) throw notFound('发票不存在');
  const rows = async (dim: AllocationDim) => {
    const q = db.selectFrom('invoice_allocations as a').innerJoin('invoices as i', 'i.id', 'a.invoice_id');
    const j = dim === 'project' ? q.innerJoin('projects as t', 't.id', 'a.target_id') : q.innerJoin('contracts as t', 't.id', 'a.target_id');
    const list = await j.select([...COLUMNS]).where('a.invoice_id', '=', invoiceId).where('a.dim', '=', dim).orderBy('a.amount_incl', 'desc').orderBy('a.id').execute();
    return list.map((r) => toRow(r as Record<string, unknown>, list.length));
  };
  const [project, contract, history] = await Promise.all([
    rows('project'),
    rows('contract'),
    changes(db).where('c.invoice_id', '=', invoiceId).orderBy('c.created_at', 'desc').orderBy('c.id', 'desc').execute(),
  ]);
  return {
    invoice: {
      id: i.id, invoiceNo: i.digital_no || i.invoice_no || i.order_no, orderNo: i.order_no, kind: i.kind, colour: i.colour, status: i.status, buyerName: i.buyer_name, issueDate: i.issue_date,
      amountExcl: Number(i.amount_excl), tax: Number(i.tax), amountIncl: Number(i.amount_incl), blueInvoiceId: i.blue_invoice_id, blueInvoiceNo: i.blue_invoice_no,
    },
    project,
    contract,
    history: history.map((r) => toChange(r as unknown as Record<string, unknown>)),
  };
}

export async function lookupTargets(db: Db, f: TargetLookup): Promise<TargetOption[]> {
  let q = db.selectFrom(f.dim === 'project' ? 'projects' : 'contracts').select(['id', 'code', 'name', 'customer', 'is_temp', 'amount']);
  if (f.keyword) q = q.where((eb) => eb.or([contains(eb.ref('name'), f.keyword!), contains(eb.ref('code'), f.keyword!)]));
  if (f.realOnly) q = q.where('is_temp', '=', 0);
  const rows = await q.orderBy('is_temp').orderBy('code').limit(50).execute();
  return rows.map((r) => ({ id: r.id, code: r.code, name: r.name, customer: r.customer, temp: r.is_temp === 1, amount: Number(r.amount) }));
}
