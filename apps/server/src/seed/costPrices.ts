/**
 * The demo cost area's reference data (seed/cost.ts): the price list — about 120 keys (item, spec,
 * unit) in windows revised on the half-year starts, a few introduced mid-month or discontinued — and
 * who audits which departments; with the time and decimal helpers the cost seed shares.
 */
import { shiftMonth } from '@zhyy/shared';
import type { CostPriceTable } from '../modules/cost/tables.js';
import type { DemoUser } from './company.js';
import { COST_ITEMS } from './costData.js';
import { incomeRowId as rowId } from './incomeData.js';
import type { Rng } from './rng.js';

/** cost_prices' ids (incomeRowId table 0x9201). */
const PRICE_TABLE = 0x9201;
export const MIN = 60_000;
export const HOUR = 3_600_000;
export const DAY = 86_400_000;
export const iso = (ms: number) => new Date(ms).toISOString();
/** Asia/Shanghai midnight of 'YYYY-MM-DD' (or of the month's first day). */
export const shStart = (day: string) => Date.parse(`${day.length === 7 ? `${day}-01` : day}T00:00:00+08:00`);
export const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);
export const fmt = (units: number, dp: number) => (dp === 0 ? String(units) : `${Math.floor(units / 10 ** dp)}.${String(units % 10 ** dp).padStart(dp, '0')}`);
/** '12.50' → 1250 at 2 places. */
export const toUnits = (s: string) => {
  const [i, f = ''] = s.split('.');
  return { units: Number(i) * 10 ** f.length + Number(f || '0'), dp: f.length };
};
/** A quantity's text without trailing zeros. */
export const qtyText = (units: number, dp: number) => fmt(units, dp).replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');

/**
 * The price windows: each key revised on the last two half-year starts (1 Jan / 1 Jul) up to this
 * month, some of them mid-month; the first window opens on the half-year start twelve months before the
 * latest. A few items are introduced mid-month (fewer windows), a few discontinued (no open window).
 */
export function priceList(rng: Rng, current: string, nowMs: number, by: string): CostPriceTable[] {
  const latestStart = `${current.slice(0, 4)}-${Number(current.slice(5, 7)) >= 7 ? '07' : '01'}`;
  const starts = [shiftMonth(latestStart, -12), shiftMonth(latestStart, -6), latestStart].map((m) => `${m}-01`);
  const rows: CostPriceTable[] = [];
  const drift: Record<string, [number, number]> = { labour: [0.02, 0.06], equipment: [-0.03, 0.04], vehicle: [-0.04, 0.05], material: [-0.05, 0.05], service: [0, 0.03], other: [0, 0.02] };
  for (const [i, item] of COST_ITEMS.entries()) {
    const fate = i % 29 === 11 ? 'introduced' : i % 41 === 23 ? 'discontinued' : 'revised';
    const revisions = starts.slice(1).map((d) => (rng.chance(0.15) ? addDays(d, rng.int(9, 19)) : d));
    let from = [starts[0]!, ...revisions];
    if (fate === 'introduced') {
      // A mid-month start in one of the months between the first revision and three months ago.
      const m = shiftMonth(starts[1]!.slice(0, 7), rng.int(1, 3));
      const first = `${m}-${String(rng.int(6, 24)).padStart(2, '0')}`;
      from = [first, ...revisions.filter((d) => d > first)];
    }
    let { units } = toUnits(item.price);
    const { dp } = toUnits(item.price);
    const [lo, hi] = drift[item.category] ?? [0, 0.03];
    const windows = from.map((f, k) => {
      if (k > 0) {
        const next = Math.round(units * (1 + lo + (hi - lo) * rng.next()));
        units = next === units ? units + 1 : next;
      }
      const to = k + 1 < from.length ? addDays(from[k + 1]!, -1) : null;
      return { from: f, to, price: fmt(units, dp) };
    });
    if (fate === 'discontinued') windows.pop();
    const createdMs = windows.map((w) => Math.min(nowMs - HOUR, shStart(w.from) - rng.int(5, 25) * DAY + rng.int(9 * 60, 17 * 60) * MIN));
    for (const [k, w] of windows.entries()) {
      const closedMs = k + 1 < windows.length ? createdMs[k + 1]! : createdMs[k]!;
      rows.push({
        id: rowId(PRICE_TABLE, rows.length + 1), item_code: item.code, item_name: item.name, category: item.category, spec: item.spec, unit: item.unit, unit_price: w.price, tax_rate: item.taxRate,
        valid_from: w.from, valid_to: w.to, updated_by: by, created_at: iso(createdMs[k]!), updated_at: iso(Math.max(createdMs[k]!, closedMs)),
      });
    }
  }
  return rows;
}

/**
 * Who audits which departments: demo17 all that bear cost, demo20 工程一部, demo21 工程二部, demo22 技术质量部
 * and the others; staff holding 17 all of them, staff holding 20, 21 or 22 their own department when it
 * bears cost (else demo20's, demo21's or demo22's first).
 */
export function auditorAssignments(users: DemoUser[], costDepts: string[]): Map<DemoUser, Set<string>> {
  const out = new Map<DemoUser, Set<string>>();
  const fixed: Record<string, string[]> = { demo17: costDepts, demo20: ['eng1'], demo21: ['eng2'], demo22: ['quality', 'eng', 'cost', 'admin', 'bid'] };
  const fallback: Record<string, string> = { '20': 'eng1', '21': 'eng2', '22': 'quality' };
  for (const u of users) {
    if (u.loginName === 'admin') continue;
    if (fixed[u.loginName]) {
      out.set(u, new Set(fixed[u.loginName]));
      continue;
    }
    if (/^demo\d+$/.test(u.loginName)) continue;
    const ds = new Set<string>();
    if (u.roles.includes('17')) costDepts.forEach((d) => ds.add(d));
    for (const r of ['20', '21', '22']) if (u.roles.includes(r)) ds.add(costDepts.includes(u.dept) ? u.dept : fallback[r]!);
    if (ds.size) out.set(u, ds);
  }
  return out;
}
