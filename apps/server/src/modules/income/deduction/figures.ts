/**
 * What is ticked in a period, by usage and kind: ONE query that both the ticking pages' header (period.ts)
 * and the period statistics (statistics/service.ts) read, so that 抵扣勾选's 本期已勾选 and 抵扣统计 can never
 * say two things for one period (issue 27: the header had counted the 不抵扣 invoices and their tax as
 * 有效税额). Each scope counts its own usages — 抵扣: 1; 退税: 2, 3 — and shows the others apart.
 */
import { sql } from 'kysely';
import { TickUsage, type TickedApart } from '@zhyy/shared';
import type { Db } from './batch.js';

export interface KindFigure {
  kind: string;
  count: number;
  amountExcludingTax: number;
  tax: number;
  effectiveTax: number;
}
export type Totals = Omit<KindFigure, 'kind'>;

export type FigureScope = 'deduction' | 'rebate';
/** The usages a scope counts (抵扣统计 / 退税统计, the ticking pages' 本期已勾选). */
export const COUNTED_USAGES: Record<FigureScope, readonly number[]> = { deduction: [1], rebate: [2, 3] };
/** The usages shown apart on each scope, with their label. */
const APART: Record<FigureScope, Array<{ usages: number[]; label: string }>> = {
  deduction: [{ usages: [4], label: '不抵扣' }, { usages: [2, 3], label: '退税' }],
  rebate: [{ usages: [1], label: '抵扣' }, { usages: [4], label: '不抵扣' }],
};

export interface ScopeFigures {
  rows: KindFigure[];
  totals: Totals;
  apart: TickedApart[];
}

const zero = (): Totals => ({ count: 0, amountExcludingTax: 0, tax: 0, effectiveTax: 0 });

/** The period's ticks (tick_state 1, tick_period = period) grouped by usage and kind: the one query. */
export async function tickedByUsageAndKind(db: Db, period: string): Promise<Array<{ usage: number } & KindFigure>> {
  const rows = await db
    .selectFrom('income_invoices as p')
    .where('p.tick_period', '=', period)
    .where('p.tick_state', '=', 1)
    .where('p.vat_usage', 'in', TickUsage.values.map(Number))
    .groupBy(['p.vat_usage', 'p.kind'])
    .select([
      'p.vat_usage as usage',
      'p.kind as kind',
      sql<number>`count(*)`.as('n'),
      sql<number>`coalesce(sum(p.amount_excl), 0)`.as('amount'),
      sql<number>`coalesce(sum(p.tax), 0)`.as('tax'),
      sql<number>`coalesce(sum(p.effective_tax), 0)`.as('eff'),
    ])
    .execute();
  return rows.map((r) => ({ usage: Number(r.usage), kind: r.kind, count: Number(r.n), amountExcludingTax: Number(r.amount), tax: Number(r.tax), effectiveTax: Number(r.eff) }));
}

/** A scope's figures of the period: its usages by kind (sorted by kind) and totals, the others apart. */
export async function tickedFigures(db: Db, period: string, scope: FigureScope): Promise<ScopeFigures> {
  const all = await tickedByUsageAndKind(db, period);
  const byKind = new Map<string, KindFigure>();
  for (const r of all.filter((x) => COUNTED_USAGES[scope].includes(x.usage))) {
    const k = byKind.get(r.kind) ?? { kind: r.kind, ...zero() };
    k.count += r.count;
    k.amountExcludingTax += r.amountExcludingTax;
    k.tax += r.tax;
    k.effectiveTax += r.effectiveTax;
    byKind.set(r.kind, k);
  }
  const rows = [...byKind.values()].sort((a, b) => a.kind.localeCompare(b.kind));
  const totals = rows.reduce((a, x) => ({ count: a.count + x.count, amountExcludingTax: a.amountExcludingTax + x.amountExcludingTax, tax: a.tax + x.tax, effectiveTax: a.effectiveTax + x.effectiveTax }), zero());
  const apart = APART[scope].map(({ usages, label }) => {
    const of = all.filter((x) => usages.includes(x.usage));
    return { usages, label, count: of.reduce((a, x) => a + x.count, 0), tax: of.reduce((a, x) => a + x.tax, 0) };
  });
  return { rows, totals, apart };
}
