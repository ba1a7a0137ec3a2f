/**
 * 框架合同开票统计: per frame contract, the sum of its orders' amounts against the invoices in force
 * issued on those orders (已开票, counted as 合同开票统计 counts it: the contract allocations of created
 * invoices, red ones netted — `invoicedByContract`), the remaining amount (orders − 已开票) and the
 * percentage; beside them, apart, the invoices in force issued on the frame contract itself
 * (框架合同直接开票), which neither reduce the remaining amount nor count in the percentage.
 */
import { sql, type Kysely } from 'kysely';
import { ContractType, percentBp, type FrameStatisticFilter, type FrameStatisticPage, type FrameStatisticQuery, type FrameStatisticRow } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import { contains, offsetOf } from '../../../platform/listing.js';
import { invoicedByContract } from '../../invoice/statistics/contracts.js';
import '../tables.js';

type Db = Kysely<Database>;

function frames(db: Db, f: FrameStatisticFilter) {
  const orders = db
    .selectFrom('contracts as o')
    .where('o.contract_type', '=', ContractType.order)
    .where('o.parent_id', 'is not', null)
    .select(['o.parent_id as frame_id', sql<number>`count(*)`.as('n'), sql<number>`sum(o.amount)`.as('amount')])
    .groupBy('o.parent_id');
  const inForce = () => invoicedByContract(db, { keyword: undefined });
  // Invoiced on the orders, gathered under their frame.
  const onOrders = db
    .selectFrom(inForce().as('s'))
    .innerJoin('contracts as x', 'x.id', 's.target_id')
    .where('x.contract_type', '=', ContractType.order)
    .where('x.parent_id', 'is not', null)
    .select(['x.parent_id as frame_id', sql<number>`sum(s.invoiced)`.as('invoiced')])
    .groupBy('x.parent_id');
  let q = db
    .selectFrom('contracts as f')
    .leftJoin(orders.as('o'), 'o.frame_id', 'f.id')
    .leftJoin(onOrders.as('v'), 'v.frame_id', 'f.id')
    // Invoiced on the frame contract itself.
    .leftJoin(inForce().as('w'), 'w.target_id', 'f.id')
    .where('f.contract_type', '=', ContractType.frame)
    .where('f.is_temp', '=', 0);
  const kw = f.keyword?.trim();
  if (kw) q = q.where((eb) => eb.or([contains(eb.ref('f.code'), kw), contains(eb.ref('f.name'), kw)]));
  if (f.customer?.trim()) q = q.where((eb) => contains(eb.ref('f.customer'), f.customer!.trim()));
  return q;
}

const orderAmount = sql<number>`coalesce(o.amount, 0)`;
const invoicedSum = sql<number>`coalesce(v.invoiced, 0)`;
const frameInvoicedSum = sql<number>`coalesce(w.invoiced, 0)`;

function rowsQuery(db: Db, f: FrameStatisticFilter) {
  return frames(db, f)
    .select(['f.id', 'f.code', 'f.name', 'f.customer', 'f.amount', orderAmount.as('order_amount'), sql<number>`coalesce(o.n, 0)`.as('order_count'), invoicedSum.as('invoiced'), frameInvoicedSum.as('frame_invoiced')])
    .orderBy(orderAmount, 'desc')
    .orderBy('f.code');
}

const toRow = (r: { id: string; code: string; name: string; customer: string; amount: number | string; order_amount: number | string; order_count: number | string; invoiced: number | string; frame_invoiced: number | string }): FrameStatisticRow => {
  const orderAmt = Number(r.order_amount);
  const inv = Number(r.invoiced);
  return { id: r.id, code: r.code, name: r.name, customer: r.customer, frameAmount: Number(r.amount), orderCount: Number(r.order_count), orderAmount: orderAmt, invoiced: inv, frameInvoiced: Number(r.frame_invoiced), remaining: orderAmt - inv, percentBp: percentBp(inv, orderAmt) };
};

export async function frameStatistic(db: Db, q: FrameStatisticQuery): Promise<FrameStatisticPage> {
  const [items, t, chart] = await Promise.all([
    rowsQuery(db, q).limit(q.pageSize).offset(offsetOf(q)).execute(),
    frames(db, q)
      .select([sql<number>`count(*)`.as('rows'), sql<number>`coalesce(sum(f.amount), 0)`.as('frame'), sql<number>`coalesce(sum(o.amount), 0)`.as('orders'), sql<number>`coalesce(sum(o.n), 0)`.as('n'), sql<number>`coalesce(sum(v.invoiced), 0)`.as('inv'), sql<number>`coalesce(sum(w.invoiced), 0)`.as('direct')])
      .executeTakeFirstOrThrow(),
    rowsQuery(db, q).limit(12).execute(),
  ]);
  const orders = Number(t.orders);
  const inv = Number(t.inv);
  return {
    items: items.map(toRow),
    total: Number(t.rows),
    totals: { frameAmount: Number(t.frame), orderAmount: orders, invoiced: inv, frameInvoiced: Number(t.direct), remaining: orders - inv, orderCount: Number(t.n) },
    chart: chart.map((r) => ({ name: r.code, orderAmount: Number(r.order_amount), invoiced: Number(r.invoiced) })),
  };
}

/** The 合计 row of the page (its label in the code column, e.g. 合计（12 个）) as a row of the export. */
export async function frameTotalsRow(db: Db, f: FrameStatisticFilter): Promise<FrameStatisticRow> {
  const t = await frames(db, f)
    .select([sql<number>`count(*)`.as('rows'), sql<number>`coalesce(sum(f.amount), 0)`.as('frame'), sql<number>`coalesce(sum(o.amount), 0)`.as('orders'), sql<number>`coalesce(sum(o.n), 0)`.as('n'), sql<number>`coalesce(sum(v.invoiced), 0)`.as('inv'), sql<number>`coalesce(sum(w.invoiced), 0)`.as('direct')])
    .executeTakeFirstOrThrow();
  const orders = Number(t.orders);
  const inv = Number(t.inv);
  return {
    id: '', code: `合计（${Number(t.rows)} 个）`, name: '', customer: '', frameAmount: Number(t.frame), orderCount: Number(t.n), orderAmount: orders, invoiced: inv,
    frameInvoiced: Number(t.direct), remaining: orders - inv, percentBp: percentBp(inv, orders),
  };
}

export async function frameCount(db: Db, f: FrameStatisticFilter): Promise<number> {
  return Number((await frames(db, f).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);
}

export async function* frameBatches(db: Db, f: FrameStatisticFilter, size = 1000): AsyncIterable<FrameStatisticRow[]> {
  for (let offset = 0; ; offset += size) {
    const got = (await rowsQuery(db, f).limit(size).offset(offset).execute()).map(toRow);
    if (got.length) yield got;
    if (got.length < size) return;
  }
}
