/** 成本单台账's filter form values → the CostOrderQuery body (months 'YYYY-MM', amounts in 分, blanks dropped). */
import type { Dayjs } from 'dayjs';
import { toMonth } from '../common';

export interface LedgerFormValues {
  months?: [Dayjs | null, Dayjs | null] | null;
  deptId?: string;
  projectId?: string;
  state?: number;
  source?: string;
  itemCode?: string;
  orderNo?: string;
  /** 元, up to 2 places. */
  amountMin?: number | null;
  amountMax?: number | null;
}

/** 元 → 分, exactly (InputNumber gives at most 2 places). */
export function yuanToFen(v: number | null | undefined): number | undefined {
  if (v === null || v === undefined || !Number.isFinite(v)) return undefined;
  return Math.round(v * 100);
}

export function toLedgerRequest(v: LedgerFormValues): Record<string, unknown> {
  const out: Record<string, unknown> = {
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
  };
  return Object.fromEntries(Object.entries(out).filter(([, x]) => x !== undefined && x !== null && x !== ''));
}
