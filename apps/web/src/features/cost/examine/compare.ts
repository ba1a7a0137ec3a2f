/**
 * An order's lines beside the previous month's (same department and project): one row per item, spec and
 * unit, with each side's quantity, unit price and amount and the difference in amount. Several lines of
 * one item on a side add up; their unit price shows as the common one, or '' when they differ.
 */
import type { CostOrderLineView } from '@zhyy/shared';

export interface CompareSide {
  quantity: string;
  unitPrice: string;
  amount: number;
  tax: number;
  lines: number;
}
export interface CompareRow {
  key: string;
  itemCode: string;
  itemName: string;
  category: string;
  spec: string;
  unit: string;
  current: CompareSide | null;
  previous: CompareSide | null;
  /** Current amount − previous amount (分). */
  diff: number;
  /** 'added': only this month; 'removed': only the month before; 'changed': on both with another amount or unit price. */
  kind: 'same' | 'changed' | 'added' | 'removed';
  /** The list's price for this month now, when it differs from the one copied onto the line. */
  currentPrice: string | null;
}

const keyOf = (l: Pick<CostOrderLineView, 'itemCode' | 'spec' | 'unit'>) => `${l.itemCode}\u0000${l.spec}\u0000${l.unit}`;

/** Sums decimal quantities (up to 4 places) without float residue. */
function addQuantity(a: string, b: string): string {
  const scale = 10_000;
  const sum = Math.round(Number(a) * scale) + Math.round(Number(b) * scale);
  return String(sum / scale);
}

function sideOf(lines: readonly CostOrderLineView[]): CompareSide {
  const prices = new Set(lines.map((l) => l.unitPrice));
  return {
    quantity: lines.reduce((q, l) => addQuantity(q, l.quantity), '0'),
    unitPrice: prices.size === 1 ? lines[0]!.unitPrice : '',
    amount: lines.reduce((s, l) => s + l.amount, 0),
    tax: lines.reduce((s, l) => s + l.tax, 0),
    lines: lines.length,
  };
}

function group(lines: readonly CostOrderLineView[]): Map<string, CostOrderLineView[]> {
  const out = new Map<string, CostOrderLineView[]>();
  for (const l of [...lines].sort((a, b) => a.lineNo - b.lineNo)) {
    const k = keyOf(l);
    out.set(k, [...(out.get(k) ?? []), l]);
  }
  return out;
}

const samePrice = (a: string, b: string) => a === b || (a !== '' && b !== '' && Number(a) === Number(b));

export function compareLines(current: readonly CostOrderLineView[], previous: readonly CostOrderLineView[] | null | undefined): CompareRow[] {
  const cur = group(current);
  const prev = group(previous ?? []);
  const keys = [...cur.keys(), ...[...prev.keys()].filter((k) => !cur.has(k))];
  return keys.map((key) => {
    const c = cur.get(key);
    const p = prev.get(key);
    const first = (c ?? p)![0]!;
    const cs = c ? sideOf(c) : null;
    const ps = p ? sideOf(p) : null;
    const diff = (cs?.amount ?? 0) - (ps?.amount ?? 0);
    const kind: CompareRow['kind'] = !ps ? 'added' : !cs ? 'removed' : diff !== 0 || !samePrice(cs.unitPrice, ps.unitPrice) || Number(cs.quantity) !== Number(ps.quantity) ? 'changed' : 'same';
    return {
      key,
      itemCode: first.itemCode,
      itemName: first.itemName,
      category: first.category,
      spec: first.spec,
      unit: first.unit,
      current: cs,
      previous: ps,
      diff,
      kind,
      currentPrice: c?.find((l) => l.currentPrice !== null)?.currentPrice ?? null,
    };
  });
}

/** The totals of both sides and their difference. */
export function compareTotals(rows: readonly CompareRow[]): { current: number; previous: number; diff: number } {
  const current = rows.reduce((s, r) => s + (r.current?.amount ?? 0), 0);
  const previous = rows.reduce((s, r) => s + (r.previous?.amount ?? 0), 0);
  return { current, previous, diff: current - previous };
}
