/**
 * The rules of apportionment, pure: proportional splits in whole 分 (largest remainder, BigInt so
 * a million 元 times a million 元 never loses precision) and the checks of a new set of allocations
 * against its invoice and, for red invoices, against the blue one. Messages are Chinese.
 */
import { InvoiceColour } from '@zhyy/shared';

export interface Amounts {
  amountExcl: number;
  tax: number;
  amountIncl: number;
}

export interface TargetAmounts extends Amounts {
  targetId: string;
  name: string;
}

/** The sum rule's tolerance: 0.01 元. */
export const TOLERANCE_FEN = 1;

export const yuan = (fen: number) => `${fen < 0 ? '-' : ''}${Math.floor(Math.abs(fen) / 100)}.${String(Math.abs(fen) % 100).padStart(2, '0')}`;

/** Splits `total` in proportion to `weights` (whole 分, summing exactly to total; signs follow total). */
export function splitProportionally(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((s, w) => s + Math.abs(w), 0);
  if (weights.length === 0) return [];
  if (sum === 0) return weights.map((_, i) => (i === 0 ? total : 0));
  const t = BigInt(Math.abs(total));
  const s = BigInt(sum);
  const parts = weights.map((w) => (t * BigInt(Math.abs(w))) / s);
  const rems = weights.map((w, i) => ({ i, r: (t * BigInt(Math.abs(w))) % s }));
  let left = t - parts.reduce((a, b) => a + b, 0n);
  rems.sort((a, b) => (b.r > a.r ? 1 : b.r < a.r ? -1 : a.i - b.i));
  for (const { i } of rems) {
    if (left <= 0n) break;
    parts[i]! += 1n;
    left -= 1n;
  }
  const sign = total < 0 ? -1 : 1;
  return parts.map((p) => sign * Number(p));
}

/** The part of an allocation moved: `incl` of it (same sign), its tax in proportion, the rest excluding tax. */
export function partOf(a: Amounts, incl: number): Amounts {
  if (incl === a.amountIncl) return { amountExcl: a.amountExcl, tax: a.tax, amountIncl: a.amountIncl };
  const tax = a.amountIncl === 0 ? 0 : Number((BigInt(a.tax) * BigInt(incl)) / BigInt(a.amountIncl));
  return { amountExcl: incl - tax, tax, amountIncl: incl };
}

/** Adds (or subtracts) amounts to the target's row of a list, creating or dropping it as needed. */
export function addTo(list: TargetAmounts[], targetId: string, name: string, d: Amounts, sign: 1 | -1): TargetAmounts[] {
  const out = list.map((x) => ({ ...x }));
  let row = out.find((x) => x.targetId === targetId);
  if (!row) {
    row = { targetId, name, amountExcl: 0, tax: 0, amountIncl: 0 };
    out.push(row);
  }
  row.amountExcl += sign * d.amountExcl;
  row.tax += sign * d.tax;
  row.amountIncl += sign * d.amountIncl;
  return out.filter((x) => x.amountIncl !== 0 || x.amountExcl !== 0 || x.tax !== 0);
}

export interface InvoiceFacts extends Amounts {
  colour: number;
  status: number;
}

/**
 * Every problem of a new set of allocations on one dimension, in Chinese ([] when it may be stored).
 * `blue`: the blue invoice's allocations (for a red invoice); `redsByTarget`: what the other red
 * invoices of the same blue already take from each target (negative 分).
 */
export function allocationProblems(
  inv: InvoiceFacts,
  items: readonly TargetAmounts[],
  ctx: { blue?: readonly TargetAmounts[]; redsByTarget: ReadonlyMap<string, number>; dimLabel: string },
): string[] {
  const out: string[] = [];
  const red = inv.colour === InvoiceColour.red;
  const seen = new Set<string>();
  for (const it of items) {
    if (seen.has(it.targetId)) out.push(`「${it.name}」重复出现，请合并为一行`);
    seen.add(it.targetId);
    if (it.amountExcl + it.tax !== it.amountIncl) out.push(`「${it.name}」的不含税金额与税额之和须等于价税合计`);
    if (it.amountIncl === 0) out.push(`「${it.name}」的分摊金额不能为0`);
    else if (red ? it.amountIncl > 0 : it.amountIncl < 0) out.push(red ? `红字发票的分摊金额须为负数（「${it.name}」）` : `蓝字发票的分摊金额须为正数（「${it.name}」）`);
  }
  const sum = items.reduce((s, x) => ({ amountExcl: s.amountExcl + x.amountExcl, tax: s.tax + x.tax, amountIncl: s.amountIncl + x.amountIncl }), { amountExcl: 0, tax: 0, amountIncl: 0 });
  const off = (a: number, b: number) => Math.abs(a - b) > TOLERANCE_FEN;
  if (off(sum.amountIncl, inv.amountIncl) || off(sum.amountExcl, inv.amountExcl) || off(sum.tax, inv.tax)) {
    out.push(`${ctx.dimLabel}合计（价税合计 ${yuan(sum.amountIncl)} 元，税额 ${yuan(sum.tax)} 元）与发票金额（价税合计 ${yuan(inv.amountIncl)} 元，税额 ${yuan(inv.tax)} 元）不一致，差额不能超过0.01元`);
  }
  if (red) {
    const blue = ctx.blue ?? [];
    for (const it of items) {
      const b = blue.find((x) => x.targetId === it.targetId);
      if (!b) {
        out.push(`红字发票只能冲减其蓝字发票已分摊的${ctx.dimLabel === '项目分摊' ? '项目' : '合同'}，蓝字发票未分摊到「${it.name}」`);
        continue;
      }
      const used = ctx.redsByTarget.get(it.targetId) ?? 0;
      if (b.amountIncl + used + it.amountIncl < 0) out.push(`红字冲减「${it.name}」${yuan(-it.amountIncl)} 元，超过蓝字发票在该对象的可冲减金额 ${yuan(b.amountIncl + used)} 元`);
    }
  } else {
    for (const [targetId, used] of ctx.redsByTarget) {
      const mine = items.find((x) => x.targetId === targetId)?.amountIncl ?? 0;
      if (mine + used < 0) out.push(`该发票的红字发票已冲减「${ctx.blue?.find((x) => x.targetId === targetId)?.name ?? targetId}」${yuan(-used)} 元，此处分摊不能低于该金额`);
    }
  }
  return out;
}
