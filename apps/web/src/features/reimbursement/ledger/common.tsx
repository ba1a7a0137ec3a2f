/** What the three 报销台账报表 screens share: the query key, paths, state tags, the filters' options, form values → request. */
import { useQuery } from '@tanstack/react-query';
import { Tag } from 'antd';
import type { Dayjs } from 'dayjs';
import { ReimbFlowState, ReimbState } from '@zhyy/shared';
import { reimbLedgerApi } from '../../../api/reimbursementLedger';

export const REIMB_LEDGER_KEY = ['reimbursement', 'ledger'] as const;
/** The bill's page (built by the applying part). */
export const billPath = (id: string) => `/reimbursement/detail/${id}`;
export const LAUNDRY_PATH = '/reimbursement/account/laundry';
/** The 流水 of a department and month (deptId '' = bills without a department). */
export const laundryPath = (month: string, deptId?: string) => `${LAUNDRY_PATH}?${new URLSearchParams({ month, ...(deptId !== undefined ? { deptId: deptId || NO_DEPT } : {}) }).toString()}`;
/** The select value standing for "no department" (the request sends ''). */
export const NO_DEPT = 'none';

const FLOW_COLOURS: Record<number, string> = { 0: 'default', 1: 'processing', 2: 'warning', 3: 'success' };
const REIMB_COLOURS: Record<number, string> = { [-1]: 'processing', 0: 'default', 1: 'success', 2: 'error' };

export function FlowTag({ state }: { state: number }) {
  return <Tag color={FLOW_COLOURS[state]}>{ReimbFlowState.label(state)}</Tag>;
}

export function ReimbTag({ state }: { state: number | null }) {
  return state === null ? <span>—</span> : <Tag color={REIMB_COLOURS[state]}>{ReimbState.label(state)}</Tag>;
}

export function useReportOptions() {
  return useQuery({ queryKey: [...REIMB_LEDGER_KEY, 'options'], queryFn: reimbLedgerApi.options, staleTime: 300_000 });
}

type Range = [Dayjs | null, Dayjs | null] | null | undefined;

export interface LedgerFormValues {
  billNo?: string;
  applicant?: string;
  deptId?: string;
  project?: string;
  flowState?: number;
  reimbState?: number;
  categoryCode?: string;
  submitted?: Range;
  approved?: Range;
  voucher?: Range;
  amountMin?: number | null;
  amountMax?: number | null;
  voucherNo?: string;
}

/** 元 (up to 2 decimals) → 分, exactly. */
export function yuanToFen(v: number | null | undefined): number | undefined {
  if (v === null || v === undefined || !Number.isFinite(v)) return undefined;
  return Math.round(v * 100);
}

const day = (d: Dayjs | null | undefined) => d?.format('YYYY-MM-DD');

export function toLedgerRequest(v: LedgerFormValues): Record<string, unknown> {
  const out: Record<string, unknown> = {
    billNo: v.billNo?.trim(),
    applicant: v.applicant?.trim(),
    deptId: v.deptId,
    project: v.project?.trim(),
    flowState: v.flowState,
    reimbState: v.reimbState,
    categoryCode: v.categoryCode,
    submittedFrom: day(v.submitted?.[0]),
    submittedTo: day(v.submitted?.[1]),
    approvedFrom: day(v.approved?.[0]),
    approvedTo: day(v.approved?.[1]),
    voucherFrom: day(v.voucher?.[0]),
    voucherTo: day(v.voucher?.[1]),
    amountMin: yuanToFen(v.amountMin),
    amountMax: yuanToFen(v.amountMax),
    voucherNo: v.voucherNo?.trim(),
  };
  return Object.fromEntries(Object.entries(out).filter(([, x]) => x !== undefined && x !== null && x !== ''));
}
