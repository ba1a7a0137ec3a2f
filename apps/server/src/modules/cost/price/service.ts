/**
 * 价格表 changes (成本设置, roles 1 and 17): a new window, an edit, a delete, an import. The database's
 * trigger is the one judge of overlapping windows (migration 0034: 'cost_price_overlap', SQLSTATE
 * 23P01 on PostgreSQL): its refusal is answered 409 naming the window it met. A window order lines were
 * priced from (cost_order_lines.price_id) keeps its item, spec, unit, price and rate, and its days must
 * still touch every month of those orders; it cannot be deleted. Every change writes the operation log
 * in its transaction.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { COST_TAX_RATES, CostCategory, monthDays, monthLabel, OperationLogType, windowsOverlap, type CostPriceBody, type CostPriceRow } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import { conflict, notFound, refuse } from '../../../platform/envelope.js';
import { newId } from '../../../platform/ids.js';
import { nowIso } from '../../../platform/time.js';
import { PRICE_OVERLAP } from '../../../db/migrations/0034_cost.js';
import { monthsUsing, priceById } from './queries.js';
import '../tables.js';

type Db = Kysely<Database>;

/** A window as stored: the price in its plain decimal form, an open end as null. */
export interface PriceWindowInput {
  itemCode: string;
  itemName: string;
  category: string;
  spec: string;
  unit: string;
  unitPrice: string;
  taxRate: string;
  validFrom: string;
  validTo: string | null;
}

/** '0012.50' → '12.5', '3.000' → '3' (the schemas allow leading and trailing zeros). */
export function plainDecimal(v: string): string {
  const [int = '0', frac = ''] = v.trim().split('.');
  const i = int.replace(/^0+(?=\d)/, '') || '0';
  const f = frac.replace(/0+$/, '');
  return f ? `${i}.${f}` : i;
}

export const rateLabel = (rate: string) => `${Number((Number(rate) * 100).toFixed(2))}%`;
export const windowLabel = (from: string, to: string | null) => `${from} 至 ${to || '长期'}`;

export function windowOf(b: CostPriceBody): PriceWindowInput {
  return {
    itemCode: b.itemCode, itemName: b.itemName, category: String(b.category), spec: b.spec, unit: b.unit, unitPrice: plainDecimal(b.unitPrice), taxRate: String(b.taxRate),
    validFrom: b.validFrom, validTo: b.validTo || null,
  };
}

const describe = (w: PriceWindowInput) =>
  `${w.itemCode} ${w.itemName}${w.spec ? ` ${w.spec}` : ''}（${w.unit}，${CostCategory.label(w.category)}）不含税单价 ${w.unitPrice} 元，税率 ${rateLabel(w.taxRate)}，有效期 ${windowLabel(w.validFrom, w.validTo)}`;

/** The trigger's refusal of an overlapping window (SQLite: its message; PostgreSQL: SQLSTATE 23P01). */
export function isPriceOverlap(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  return Boolean(e) && (e!.code === '23P01' || String(e!.message ?? '').includes(PRICE_OVERLAP));
}

/** The window of the same item, spec and unit that `w` overlaps (other than `selfId`), if any. */
export async function overlapOf(db: Db, w: PriceWindowInput, selfId?: string): Promise<{ id: string; valid_from: string; valid_to: string | null } | undefined> {
  const rows = await db
    .selectFrom('cost_prices')
    .select(['id', 'valid_from', 'valid_to'])
    .where('item_code', '=', w.itemCode)
    .where('spec', '=', w.spec)
    .where('unit', '=', w.unit)
    .orderBy('valid_from')
    .execute();
  return rows.find((r) => r.id !== selfId && windowsOverlap({ validFrom: w.validFrom, validTo: w.validTo }, { validFrom: r.valid_from, validTo: r.valid_to }));
}

/** The 409 answer to the trigger's refusal, naming the window met (looked up after the failed write). */
export async function overlapRefusal(db: Db, w: PriceWindowInput, selfId?: string) {
  const other = await overlapOf(db, w, selfId);
  return conflict(other ? `与已有价格有效期重叠（${windowLabel(other.valid_from, other.valid_to)}）` : '与已有价格有效期重叠');
}

/** Writes one window in its own transaction; the trigger's refusal becomes the 409 naming the window met. */
async function writing<T>(db: Db, w: PriceWindowInput, selfId: string | undefined, fn: (trx: Db) => Promise<T>): Promise<T> {
  try {
    return await db.transaction().execute(fn);
  } catch (err) {
    if (isPriceOverlap(err)) throw await overlapRefusal(db, w, selfId);
    throw err;
  }
}

export class CostPriceService {
  constructor(private readonly app: FastifyInstance) {}

  private get db(): Db {
    return this.app.db.kysely;
  }

  /** A new window (no id) or an edit of one. */
  async save(req: FastifyRequest, b: CostPriceBody): Promise<CostPriceRow> {
    const w = windowOf(b);
    const by = req.user?.name ?? '';
    const id = b.id ?? newId();
    await writing(this.db, w, id, async (trx) => {
      const now = nowIso();
      if (!b.id) {
        await trx.insertInto('cost_prices').values({ id, ...columnsOf(w), updated_by: by, created_at: now, updated_at: now }).execute();
        await this.app.oplog.record(req, OperationLogType.add, `新增成本价格：${describe(w)}`, trx);
        return;
      }
      const cur = await trx.selectFrom('cost_prices').selectAll().where('id', '=', id).executeTakeFirst();
      if (!cur) throw notFound('价格不存在或已删除');
      const before = windowFromRow(cur);
      const months = await monthsUsing(trx, id);
      if (months.length) {
        if (plainDecimal(cur.unit_price) !== w.unitPrice || Number(cur.tax_rate) !== Number(w.taxRate)) throw refuse('已被成本单引用的价格不能修改单价或税率，请新增一个有效期');
        if (cur.item_code !== w.itemCode || cur.spec !== w.spec || cur.unit !== w.unit) throw refuse('已被成本单引用的价格不能修改成本项编码、规格或单位，请新增一个有效期');
        const uncovered = months.filter((m) => {
          const { first, last } = monthDays(m);
          return !windowsOverlap({ validFrom: w.validFrom, validTo: w.validTo }, { validFrom: first, validTo: last });
        });
        if (uncovered.length) throw refuse(`该价格已被${uncovered.map(monthLabel).join('、')}的成本单引用，有效期须覆盖这些月份`);
      }
      await trx.updateTable('cost_prices').set({ ...columnsOf(w), updated_by: by, updated_at: now }).where('id', '=', id).execute();
      await this.app.oplog.record(req, OperationLogType.edit, `修改成本价格：${describe(before)} → ${describe(w)}`, trx);
    });
    return (await priceById(this.db, id))!;
  }

  /** Deletes a window no order line was priced from (the others can only be shortened). */
  async delete(req: FastifyRequest, id: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const cur = await trx.selectFrom('cost_prices').selectAll().where('id', '=', id).executeTakeFirst();
      if (!cur) throw notFound('价格不存在或已删除');
      const used = Number((await trx.selectFrom('cost_order_lines').select((eb) => eb.fn.countAll<number>().as('n')).where('price_id', '=', id).executeTakeFirstOrThrow()).n);
      if (used > 0) throw refuse(`该价格已被 ${used} 行成本明细引用，不能删除；可缩短其有效期，再新增一个有效期`);
      await trx.deleteFrom('cost_prices').where('id', '=', id).execute();
      await this.app.oplog.record(req, OperationLogType.delete, `删除成本价格：${describe(windowFromRow(cur))}`, trx);
    });
  }

  /**
   * One imported row: skipped when the same window is already in the list, else inserted in its own
   * transaction (the trigger refuses an overlap). Returns the row's message.
   */
  async importOne(req: FastifyRequest, w: PriceWindowInput): Promise<string> {
    const same = await this.db
      .selectFrom('cost_prices')
      .selectAll()
      .where('item_code', '=', w.itemCode)
      .where('spec', '=', w.spec)
      .where('unit', '=', w.unit)
      .where('valid_from', '=', w.validFrom)
      .executeTakeFirst();
    if (same) {
      const s = windowFromRow(same);
      if (s.validTo === w.validTo && s.unitPrice === w.unitPrice && Number(s.taxRate) === Number(w.taxRate) && s.itemName === w.itemName && s.category === w.category) return '与已有价格相同，已跳过';
    }
    const id = newId();
    const now = nowIso();
    await writing(this.db, w, id, async (trx) => {
      await trx.insertInto('cost_prices').values({ id, ...columnsOf(w), updated_by: req.user?.name ?? '', created_at: now, updated_at: now }).execute();
    });
    return '导入成功';
  }
}

function columnsOf(w: PriceWindowInput) {
  return {
    item_code: w.itemCode, item_name: w.itemName, category: w.category, spec: w.spec, unit: w.unit, unit_price: w.unitPrice, tax_rate: w.taxRate,
    valid_from: w.validFrom, valid_to: w.validTo,
  };
}

function windowFromRow(r: { item_code: string; item_name: string; category: string; spec: string; unit: string; unit_price: string; tax_rate: string; valid_from: string; valid_to: string | null }): PriceWindowInput {
  return {
    itemCode: r.item_code, itemName: r.item_name, category: r.category, spec: r.spec, unit: r.unit, unitPrice: plainDecimal(r.unit_price), taxRate: r.tax_rate,
    validFrom: r.valid_from, validTo: r.valid_to || null,
  };
}

/** The stored form of a rate typed as 13%, 13, 0.13 (the list's rates only), or null. */
export function taxRateOf(v: string | number): string | null {
  const text = String(v).trim().replace(/％/g, '%');
  if (text === '') return null;
  const percent = text.endsWith('%');
  const n = Number(percent ? text.slice(0, -1) : text);
  if (!Number.isFinite(n)) return null;
  const rate = percent || n >= 1 ? n / 100 : n;
  return COST_TAX_RATES.find((r) => Math.abs(Number(r) - rate) < 1e-9) ?? null;
}
