/** The pool's tags: kind, invoice state, risk, verification, sign state, usage and the abnormal flags, labelled as the shared enumerations name them. */
import { Space, Tag } from 'antd';
import {
  DIGITAL_INCOME_KINDS, isRedInvoice, IncomeAbnormalFlag, IncomeBookingState, IncomeInvoiceState, IncomeKind, IncomeRiskLevel, IncomeSignState, IncomeUsage, IncomeUseKind, IncomeVerifyState, OTHER_INCOME_KINDS,
  type IncomeKindCode, type PoolRow,
} from '@zhyy/shared';
import { formatTime } from '../../../components/download';

/** The shared label, or `fallback` for a code the enumeration does not know. */
const label = (e: { has: (v: unknown) => boolean; label: (v: unknown) => string }, v: unknown, fallback = '—') => (e.has(v) ? e.label(v) : fallback);

export function IncomeKindTag({ kind }: { kind: string }) {
  const colour = OTHER_INCOME_KINDS.includes(kind as IncomeKindCode) ? 'purple' : DIGITAL_INCOME_KINDS.includes(kind as IncomeKindCode) ? 'blue' : 'gold';
  return <Tag color={colour}>{label(IncomeKind, kind, kind)}</Tag>;
}

const STATE_COLOURS: Record<number, string> = { 0: 'success', 1: 'error', 2: 'default', 3: 'warning', 7: 'warning', 8: 'warning' };
export const InvoiceStateTag = ({ state }: { state: number }) => <Tag color={STATE_COLOURS[state] ?? 'default'}>{label(IncomeInvoiceState, state)}</Tag>;

const RISK_COLOURS: Record<string, string> = { '01': 'success', '02': 'error', '03': 'warning' };
export const RiskTag = ({ level }: { level: string }) => <Tag color={RISK_COLOURS[level] ?? 'default'}>{label(IncomeRiskLevel, level)}</Tag>;

const VERIFY_COLOURS: Record<number, string> = { 0: 'default', 1: 'success', 2: 'error' };
export const VerifyTag = ({ state }: { state: number }) => <Tag color={VERIFY_COLOURS[state] ?? 'default'}>{label(IncomeVerifyState, state)}</Tag>;

const SIGN_COLOURS: Record<number, string> = { [-1]: 'processing', 0: 'default', 1: 'success', 2: 'error' };
export const SignTag = ({ state }: { state: number }) => <Tag color={SIGN_COLOURS[state] ?? 'default'}>{label(IncomeSignState, state)}</Tag>;

const USAGE_COLOURS: Record<number, string> = { 0: 'success', 1: 'processing', 2: 'default' };
export const UsageTag = ({ usage }: { usage: number }) => <Tag color={USAGE_COLOURS[usage] ?? 'default'}>{label(IncomeUsage, usage)}</Tag>;

const BOOKING_COLOURS: Record<string, string> = { '01': 'default', '02': 'success', '03': 'success', '06': 'warning' };
/** 入账状态 (入账标识): 01 未入账, 02 / 03 已入账, 06 入账撤销. */
export const BookingTag = ({ state }: { state: string }) => <Tag color={BOOKING_COLOURS[state] ?? 'default'}>{label(IncomeBookingState, state)}</Tag>;

/** 报销单 BX202611-0012: the document that uses the invoice, '' when none. */
export const useText = (r: { useKind: string; docNo: string }) => (r.docNo ? `${label(IncomeUseKind, r.useKind, '')} ${r.docNo}`.trim() : '');

/** The flags in the order of the shared enumeration (the order the screens show them). */
export function orderedFlags(flags: readonly string[]): string[] {
  const order = IncomeAbnormalFlag.values as readonly string[];
  return [...flags].sort((a, b) => order.indexOf(a) - order.indexOf(b));
}

/**
 * 红字: a red invoice received (价税合计 < 0, issue 29); its tooltip names the blue invoice it reverses. Nothing on a
 * blue invoice. The amounts themselves show with a minus sign in red (Money).
 */
export function RedInvoiceTag({ r }: { r: { amountIncl: number; blueInvoiceNo: string } }) {
  if (!isRedInvoice(r)) return null;
  return <Tag color="red" title={r.blueInvoiceNo ? `冲减蓝字发票 ${r.blueInvoiceNo}` : '红字发票'} data-testid="red-invoice-tag">红字</Tag>;
}

/** The abnormal flags in the shared order, each a red tag; nothing for a clean invoice. */
export function AbnormalFlags({ flags }: { flags: readonly string[] }) {
  if (!flags.length) return null;
  const sorted = orderedFlags(flags);
  return (
    <Space size={[0, 4]} wrap data-testid="abnormal-flags">
      {sorted.map((f) => <Tag key={f} color="error">{label(IncomeAbnormalFlag, f, f)}</Tag>)}
    </Space>
  );
}

/** The status re-check's last answer (issue 32): 核查于 time, 税务端无此发票 when the service did not know it, 未核查 before the first. */
export function statusCheckText(r: Pick<PoolRow, 'statusCheckedAt' | 'statusFound'>): string {
  if (!r.statusCheckedAt) return '未核查';
  return `${r.statusFound === false ? '税务端无此发票，' : ''}核查于 ${formatTime(r.statusCheckedAt)}`;
}
