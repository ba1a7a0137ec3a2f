/**
 * The project-management system's simulator (the default). Like the real one it answers, for a month
 * that has ended and is at most 24 months back, the cost orders its sites recorded that month; for any
 * other month nothing. The orders are drawn from the platform's own data, so they can be taken in:
 * the departments of 工程管理部 (itself and every department under it), the formal projects (not 临时
 * 项目), and the items of the price list in force that month. The draw is deterministic: the same
 * month over the same data answers the same orders with the same refs (PMS{yyyyMM}-{hash of month,
 * department and project}), so a second sync finds nothing new.
 *
 * Failure is testable: a project whose name contains 测试失败 gets an order with an item the price list
 * does not hold (the sync fails that order, the others go in); `pmsSimControl.down()` makes every call
 * fail as if the system could not be reached, `failNext(n)` the next n calls (tests, demos).
 */
import crypto from 'node:crypto';
import { COST_MONTH, monthDays, priceForMonth, shanghaiMonthOf, shiftMonth, monthEnded } from '@zhyy/shared';
import type { Kysely } from 'kysely';
import type { Db } from '../../db/index.js';
// cost_prices, departments and projects: table types merged into Database by their modules' tables.ts
// (the simulator reads the platform's data; it imports no business module).
import type { Database } from '../../db/schema.js';
import { Rng } from '../../seed/rng.js';
import { PMS_MONTHS_BACK, PmsError, type PmsGateway, type PmsOrder, type PmsOrderLine } from './types.js';

export const PMS_FAIL_TRIGGER = '测试失败';
/** The item a 测试失败 project's order carries: not in the price list. */
export const PMS_SIM_UNKNOWN_ITEM = 'PMS-NOPRICE';
export const PMS_SIM_DOWN = '无法连接项目管理系统，请稍后重试';
/** The department whose subtree the simulated sites belong to. */
export const PMS_SIM_ROOT_DEPT = '工程管理部';
/** The share of department × project pairs that have an order in a month. */
const ORDER_CHANCE = 0.6;

const pause = (ms: number) => (ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve());
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const hash = (s: string) => crypto.createHash('sha1').update(s).digest('hex');

/** Shared by every simulator instance of the process (tests reach it through `pmsSimControl`). */
const control = { down: false, failures: 0 };
export const pmsSimControl = {
  /** Every call fails (transport failure) until `up()` or `reset()`. */
  down() {
    control.down = true;
  },
  up() {
    control.down = false;
  },
  /** The next `n` calls fail (transport failure). */
  failNext(n: number) {
    control.failures = n;
  },
  reset() {
    control.down = false;
    control.failures = 0;
  },
};

/** Whether the PMS has orders for `month` at `now`: it has ended and is at most 24 months back. */
export function pmsMonthAnswered(month: string, now: Date = new Date()): boolean {
  return monthEnded(month, now) && month >= shiftMonth(shanghaiMonthOf(now), -PMS_MONTHS_BACK);
}

export class PmsSimulator implements Pick<PmsGateway, 'monthlyOrders' | 'ping'> {
  constructor(
    private readonly db: Db,
    private readonly delayMs = 0,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private get k(): Kysely<Database> {
    return this.db.kysely;
  }

  private async answer(): Promise<void> {
    await pause(this.delayMs);
    if (control.down) throw new PmsError(PMS_SIM_DOWN, 'TRANSPORT', undefined, 502);
    if (control.failures > 0) {
      control.failures--;
      throw new PmsError(PMS_SIM_DOWN, 'TRANSPORT', undefined, 502);
    }
  }

  async ping(): Promise<{ message: string }> {
    await this.answer();
    return { message: '项目管理系统（模拟器）已应答' };
  }

  async monthlyOrders(month: string): Promise<PmsOrder[]> {
    await this.answer();
    if (!COST_MONTH.test(month)) throw new PmsError('项目管理系统拒绝：月份格式须为YYYY-MM', 'BAD_MONTH');
    if (!pmsMonthAnswered(month, this.now())) return [];
    const [depts, projects, items] = await Promise.all([this.sites(), this.projects(), this.itemsOf(month)]);
    if (!depts.length || !projects.length || !items.length) return [];
    const orders: PmsOrder[] = [];
    for (const dept of depts) {
      for (const p of projects) {
        const h = hash(`${month}|${dept}|${p.code}`);
        const rng = new Rng(parseInt(h.slice(0, 8), 16));
        if (!rng.chance(ORDER_CHANCE)) continue;
        const n = Math.min(items.length, rng.int(3, 12));
        // A partial Fisher–Yates shuffle: n distinct items.
        const pool = [...items];
        for (let i = 0; i < n; i++) {
          const j = rng.int(i, pool.length - 1);
          [pool[i], pool[j]] = [pool[j]!, pool[i]!];
        }
        const lines: PmsOrderLine[] = pool.slice(0, n).map((it) => ({
          itemCode: it.itemCode,
          spec: it.spec,
          unit: it.unit,
          quantity: String(rng.chance(0.7) ? rng.int(1, 60) : rng.int(4, 800) / 4),
          remark: rng.chance(0.1) ? '现场签证' : '',
        }));
        if (p.name.includes(PMS_FAIL_TRIGGER)) lines.push({ itemCode: PMS_SIM_UNKNOWN_ITEM, spec: '', unit: '项', quantity: '1', remark: '模拟失败：成本项不在价格表中' });
        orders.push({ ref: `PMS${month.replace('-', '')}-${h.slice(8, 18).toUpperCase()}`, deptName: dept, projectCode: p.code, projectName: p.name, lines });
      }
    }
    return orders;
  }

  /** The names of 工程管理部 and every department under it (tree order). */
  private async sites(): Promise<string[]> {
    const all = (await this.k.selectFrom('departments').select(['id', 'parent_id', 'name', 'sort']).execute()).sort((a, b) => a.sort - b.sort || cmp(a.name, b.name) || cmp(a.id, b.id));
    const out: string[] = [];
    const walk = (ids: string[], depth: number) => {
      if (depth > 20) return;
      for (const id of ids) {
        const d = all.find((x) => x.id === id)!;
        out.push(d.name);
        walk(all.filter((x) => x.parent_id === id).map((x) => x.id), depth + 1);
      }
    };
    walk(all.filter((d) => d.name === PMS_SIM_ROOT_DEPT).map((d) => d.id), 0);
    return [...new Set(out)];
  }

  private async projects() {
    return (await this.k.selectFrom('projects').select(['code', 'name']).where('is_temp', '=', 0).execute()).sort((a, b) => cmp(a.code, b.code));
  }

  /** One price-list key (item, spec, unit) per item with a price for `month` (priceForMonth), in key order. */
  private async itemsOf(month: string): Promise<Array<{ itemCode: string; spec: string; unit: string }>> {
    const { first, last } = monthDays(month);
    const rows = await this.k
      .selectFrom('cost_prices')
      .select(['item_code', 'spec', 'unit', 'valid_from', 'valid_to'])
      .where('valid_from', '<=', last)
      .where((eb) => eb.or([eb('valid_to', 'is', null), eb('valid_to', '>=', first)]))
      .execute();
    const byKey = new Map<string, Array<{ validFrom: string; validTo: string | null; key: { itemCode: string; spec: string; unit: string } }>>();
    for (const r of rows) {
      const key = `${r.item_code}\u0000${r.spec}\u0000${r.unit}`;
      const list = byKey.get(key) ?? [];
      list.push({ validFrom: r.valid_from, validTo: r.valid_to, key: { itemCode: r.item_code, spec: r.spec, unit: r.unit } });
      byKey.set(key, list);
    }
    // Code-point order (not the database's collation): the same draw on either engine.
    return [...byKey.entries()].sort(([a], [b]) => cmp(a, b)).flatMap(([, ws]) => {
      const w = priceForMonth(ws, month);
      return w ? [w.key] : [];
    });
  }
}
