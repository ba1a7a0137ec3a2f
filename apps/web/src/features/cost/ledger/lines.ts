/**
 * The order editor's arithmetic, the same as the server's (shared cost-rules): a line's amount is quantity ×
 * unit price excluding tax, half-up to 分; its tax the amount × rate, half-up; the order's totals are the sums
 * of the rounded lines.
 */
import { lineAmount, lineTax, orderTotals, type CostPriceRow } from '@zhyy/shared';

/** One line of the editor: the price list row chosen (by item, spec and unit) and the quantity typed. */
export interface EditorLine {
  /** Local row key. */
  key: string;
  itemCode: string;
  spec: string;
  unit: string;
  itemName: string;
  quantity: string;
  remark: string;
}

/** The price list key of an item/spec/unit. */
export const priceKey = (p: { itemCode: string; spec: string; unit: string }) => `${p.itemCode}\u0001${p.spec}\u0001${p.unit}`;

const QUANTITY = /^\d{1,9}(\.\d{1,4})?$/;

/** The Chinese problem with a typed quantity, or null (> 0, at most 4 decimal places, as CostQuantity). */
export function quantityProblem(q: string): string | null {
  const t = q.trim();
  if (!t) return '请填写数量';
  if (!QUANTITY.test(t)) return '数量须为不超过4位小数的正数';
  if (!(Number(t) > 0)) return '数量须大于0';
  return null;
}

/** A line's amount and tax in 分, or null while the price or the quantity is missing or invalid. */
export function lineMoney(quantity: string, price: Pick<CostPriceRow, 'unitPrice' | 'taxRate'> | undefined): { amount: number; tax: number } | null {
  if (!price || quantityProblem(quantity)) return null;
  const amount = lineAmount(quantity.trim(), price.unitPrice);
  return { amount, tax: lineTax(amount, price.taxRate) };
}

/** The totals of the lines that can be computed. */
export function editorTotals(lines: ReadonlyArray<{ amount: number; tax: number } | null>) {
  return orderTotals(lines.filter((l): l is { amount: number; tax: number } => l !== null));
}
