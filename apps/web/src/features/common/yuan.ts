/** Money typed in 元 on the filter forms, sent in 分 (the ledgers of invoice, income and cost). */

/** 元 (up to 2 decimals) → 分, exactly. */
export function yuanToFen(v: number | null | undefined): number | undefined {
  if (v === null || v === undefined || !Number.isFinite(v)) return undefined;
  return Math.round(v * 100);
}
