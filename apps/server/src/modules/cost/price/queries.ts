/**
 * Reading the price list (成本设置 › 价格表, and the order editor's choices): the filtered page, the
 * windows in force for a month (one per item, spec and unit, by priceForMonth), an item's timeline,
 * the whole filtered list batch by batch for the export. Each row carries how many order lines were
 * priced from it (usedCount): such a window keeps its price and rate.
 */
import { type ExpressionBuilder, type Kysely, type SelectQueryBuilder } from 'kysely';
import { monthDays, priceForMonth, type CostPriceKey, type CostPriceOptionsQuery, type CostPriceQuery, type CostPriceRow, type PageResult } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import { contains, offsetOf, sortOf } from '../../../platform/listing.js';
import type { CostPriceTable } from '../tables.js';
import '../tables.js';

type Db = Kysely<Database>;
export type CostPriceFilter = Omit<CostPriceQuery, 'pageIndex' | 'pageSize'>;

/** The largest page of the editor's choices. */
export const OPTIONS_MAX = 500;

const COLUMNS = ['p.id', 'p.item_code', 'p.item_name', 'p.category', 'p.spec', 'p.unit', 'p.unit_price', 'p.tax_rate', 'p.valid_from', 'p.valid_to', 'p.updated_by', 'p.updated_at'] as const;

type PriceRecord = Omit<CostPriceTable, 'created_at'> & { used: number | string | bigint | null };

const usedCount = (eb: ExpressionBuilder<Database & { p: CostPriceTable }, 'p'>) =>
  eb.selectFrom('cost_order_lines as l').select((e) => e.fn.countAll<number>().as('n')).whereRef('l.price_id', '=', 'p.id').as('used');

export function toPriceRow(r: PriceRecord): CostPriceRow {
  return {
    id: r.id, itemCode: r.item_code, itemName: r.item_name, category: r.category, spec: r.spec, unit: r.unit, unitPrice: r.unit_price, taxRate: r.tax_rate,
    validFrom: r.valid_from, validTo: r.valid_to || null, usedCount: Number(r.used ?? 0), updatedBy: r.updated_by, updatedAt: r.updated_at,
  };
}

const selectRows = (db: Db) => db.selectFrom('cost_prices as p').select([...COLUMNS]).select(usedCount);

function applyFilters<O>(q: SelectQueryBuilder<Database & { p: CostPriceTable }, 'p', O>, f: CostPriceFilter) {
  let out = q;
  const kw = f.keyword?.trim();
  if (kw) out = out.where((eb) => eb.or([contains(eb.ref('p.item_code'), kw), contains(eb.ref('p.item_name'), kw), contains(eb.ref('p.spec'), kw)]));
  if (f.category) out = out.where('p.category', '=', String(f.category));
  if (f.on) {
    const on = f.on;
    out = out.where('p.valid_from', '<=', on).where((eb) => eb.or([eb('p.valid_to', 'is', null), eb('p.valid_to', '>=', on)]));
  }
  return out;
}

const SORTS = { itemCode: 'p.item_code', itemName: 'p.item_name', category: 'p.category', validFrom: 'p.valid_from', validTo: 'p.valid_to', updatedAt: 'p.updated_at' } as const;

/** Sorted by the requested column, then item, spec, unit and the newest window first (a stable order for paging). */
function sorted<O>(q: SelectQueryBuilder<Database & { p: CostPriceTable }, 'p', O>, f: CostPriceFilter) {
  const s = sortOf(f.sort, SORTS, { column: 'p.item_code', order: 'asc' });
  let out = q.orderBy(s.column, s.order);
  if (s.column !== 'p.item_code') out = out.orderBy('p.item_code');
  return out.orderBy('p.spec').orderBy('p.unit').orderBy('p.valid_from', 'desc').orderBy('p.id');
}

export async function pricePage(db: Db, q: CostPriceQuery): Promise<PageResult<CostPriceRow>> {
  const total = Number((await applyFilters(db.selectFrom('cost_prices as p'), q).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const rows = await sorted(applyFilters(selectRows(db), q), q).limit(q.pageSize).offset(offsetOf(q)).execute();
  return { total, items: rows.map(toPriceRow) };
}

export async function priceCount(db: Db, f: CostPriceFilter): Promise<number> {
  return Number((await applyFilters(db.selectFrom('cost_prices as p'), f).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
}

/** The filtered list page by page (the export). */
export async function* priceBatches(db: Db, f: CostPriceFilter, size = 1000): AsyncIterable<CostPriceRow[]> {
  for (let offset = 0; ; offset += size) {
    const rows = (await sorted(applyFilters(selectRows(db), f), f).limit(size).offset(offset).execute()).map(toPriceRow);
    if (rows.length) yield rows;
    if (rows.length < size) return;
  }
}

const keyOf = (r: { itemCode: string; spec: string; unit: string }) => `${r.itemCode}\u0001${r.spec}\u0001${r.unit}`;

/**
 * The order editor's choices for `month`: for each item, spec and unit (matching the keyword) the one
 * window priceForMonth picks, at most OPTIONS_MAX, by item code.
 */
export async function priceOptions(db: Db, q: CostPriceOptionsQuery): Promise<CostPriceRow[]> {
  const { first, last } = monthDays(q.month);
  const touching = <O>(b: SelectQueryBuilder<Database & { p: CostPriceTable }, 'p', O>) =>
    applyFilters(b, { keyword: q.keyword }).where('p.valid_from', '<=', last).where((eb) => eb.or([eb('p.valid_to', 'is', null), eb('p.valid_to', '>=', first)]));
  const keys = await touching(db.selectFrom('cost_prices as p'))
    .select(['p.item_code', 'p.spec', 'p.unit'])
    .distinct()
    .orderBy('p.item_code')
    .orderBy('p.spec')
    .orderBy('p.unit')
    .limit(OPTIONS_MAX)
    .execute();
  if (!keys.length) return [];
  const wanted = new Set(keys.map((k) => keyOf({ itemCode: k.item_code, spec: k.spec, unit: k.unit })));
  const codes = [...new Set(keys.map((k) => k.item_code))];
  const rows: CostPriceRow[] = [];
  for (let i = 0; i < codes.length; i += 500) {
    rows.push(...(await touching(selectRows(db)).where('p.item_code', 'in', codes.slice(i, i + 500)).execute()).map(toPriceRow));
  }
  const byKey = new Map<string, CostPriceRow[]>();
  for (const r of rows) {
    const k = keyOf(r);
    if (!wanted.has(k)) continue;
    byKey.set(k, [...(byKey.get(k) ?? []), r]);
  }
  const out: CostPriceRow[] = [];
  for (const k of keys) {
    const chosen = priceForMonth(byKey.get(keyOf({ itemCode: k.item_code, spec: k.spec, unit: k.unit })) ?? [], q.month);
    if (chosen) out.push(chosen);
  }
  return out;
}

/** Every window of one item, spec and unit, oldest first. */
export async function priceTimeline(db: Db, k: CostPriceKey): Promise<CostPriceRow[]> {
  const rows = await selectRows(db).where('p.item_code', '=', k.itemCode).where('p.spec', '=', k.spec).where('p.unit', '=', k.unit).orderBy('p.valid_from').execute();
  return rows.map(toPriceRow);
}

export async function priceById(db: Db, id: string): Promise<CostPriceRow | undefined> {
  const r = await selectRows(db).where('p.id', '=', id).executeTakeFirst();
  return r ? toPriceRow(r) : undefined;
}

/** The months of the orders whose lines were priced from window `id` (oldest first). */
export async function monthsUsing(db: Db, id: string): Promise<string[]> {
  const rows = await db
    .selectFrom('cost_order_lines as l')
    .innerJoin('cost_orders as o', 'o.id', 'l.order_id')
    .select('o.month')
    .distinct()
    .where('l.price_id', '=', id)
    .orderBy('o.month')
    .execute();
  return rows.map((r) => r.month);
}

