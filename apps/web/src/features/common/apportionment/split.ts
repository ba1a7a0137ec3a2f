/** The split editor's arithmetic, pure: rows in 元 to allocation items in 分. */
import { yuanToFen, type AllocationItem, type InvoiceApportionment } from '@zhyy/shared';

export interface SplitRow {
  targetId?: string;
  yuan?: number | string | null;
}

/**
 * Tax follows each row's share of the invoice total; when the rows add up to the invoice, the last row
 * takes what rounding left so tax and the amount excluding tax add up exactly too.
 */
export function toItems(rows: SplitRow[], inv: Pick<InvoiceApportionment['invoice'], 'amountIncl' | 'tax'>): AllocationItem[] {
  const incl = rows.map((r) => yuanToFen(r.yuan ?? 0));
  const total = incl.reduce((a, b) => a + b, 0);
  let taxLeft = inv.tax;
  return rows.map((r, i) => {
    const last = i === rows.length - 1;
    const tax = last && total === inv.amountIncl ? taxLeft : inv.amountIncl === 0 ? 0 : Math.round((inv.tax * incl[i]!) / inv.amountIncl);
    taxLeft -= tax;
    return { targetId: r.targetId ?? '', amountIncl: incl[i]!, tax, amountExcl: incl[i]! - tax };
  });
}
