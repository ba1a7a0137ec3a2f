/**
 * The order lists' filter form (成本单台账 and 待审核成本单) → the CostOrderQuery filters (months 'YYYY-MM', amounts
 * in 分, text trimmed, blanks dropped), and the ledger's address filters (ledgerFiltersOf) → the form's values.
 */
import type { Dayjs } from 'dayjs';
import { yuanToFen } from '../common/yuan';
import { compact, fromMonth, toMonth, type LedgerLinkFilters } from './common';

export interface OrderFilterValues {
  months?: [Dayjs | null, Dayjs | null] | null;
  deptId?: string;
  projectId?: string;
  /** The ledger only (the audit queue holds orders awaiting audit). */
  state?: number;
  source?: string;
  itemCode?: string;
  orderNo?: string;
  /** 元, up to 2 places. */
  amountMin?: number | null;
  amountMax?: number | null;
}

export function toOrderFilter(v: OrderFilterValues): Record<string, unknown> {
  return compact({
    monthFrom: toMonth(v.months?.[0]),
    monthTo: toMonth(v.months?.[1]),
    deptId: v.deptId,
    projectId: v.projectId,
    state: v.state,
    source: v.source,
    itemCode: v.itemCode?.trim(),
    orderNo: v.orderNo?.trim(),
    amountMin: yuanToFen(v.amountMin),
    amountMax: yuanToFen(v.amountMax),
  });
}

/** The ledger's address filters as the form's values (a month range with one end open keeps it open). */
export function orderFilterValues(f: LedgerLinkFilters): OrderFilterValues {
  const { monthFrom, monthTo, ...rest } = f;
  const months: OrderFilterValues['months'] = monthFrom || monthTo ? [monthFrom ? fromMonth(monthFrom) : null, monthTo ? fromMonth(monthTo) : null] : undefined;
  return compact({ ...rest, months });
}
