/**
 * The ticking rules on our side (DOMAIN.md "Ticking rules", issue 14), as pure functions of one pool
 * row and the period: why an invoice cannot be ticked or unticked now ('' when it can), and whether
 * ticking it asks for confirmation (疑点 or abnormal). The tax service applies its own (simulator/
 * income-ticks.ts); these run first so that a batch with a local refusal never reaches it.
 */
import { effectiveTaxProblem, IncomeBookingState, IncomeInvoiceState, IncomeRiskLevel, IncomeVerifyState, isTickableKind, NOT_TICKABLE_MESSAGE, TickUsage } from '@zhyy/shared';
import { flagsOf } from '../pool/filters.js';
import type { IncomeInvoiceTable } from '../pool/tables.js';

export type TickScope = 'deduction' | 'rebate';
export const SCOPE_USAGES: Record<TickScope, readonly number[]> = { deduction: [1, 4], rebate: [2, 3] };
export const SCOPE_PAGE: Record<TickScope, string> = { deduction: '抵扣勾选', rebate: '退税勾选' };

export interface PeriodFacts {
  period: string;
  windowFrom: string;
  windowTo: string;
  tickBookedOnly: boolean;
}

export type TickRow = Pick<
  IncomeInvoiceTable,
  'kind' | 'issue_date' | 'tax' | 'invoice_state' | 'red_pending' | 'risk_level' | 'verify_state' | 'buyer_mismatch' | 'duplicate_of' | 'booking_state' | 'vat_usage' | 'tick_state' | 'tick_period'
> &
  Partial<Pick<IncomeInvoiceTable, 'digital_no' | 'amount_incl'>>;

const DEAD: readonly number[] = [IncomeInvoiceState.lostControl, IncomeInvoiceState.voided, IncomeInvoiceState.red, IncomeInvoiceState.fullRed];
const usageLabel = (u: number) => TickUsage.label(u);
export const RED_NOT_TICKABLE = '红字发票不能勾选；蓝字发票已抵扣的，请按红字发票信息确认单作进项税额转出';

/** Why `r` cannot be ticked for `usage` with `effectiveTax` now ('' when it can). */
export function tickRefusal(r: TickRow, usage: number, effectiveTax: number, p: PeriodFacts): string {
  const had = Number(r.vat_usage ?? 0);
  if (!isTickableKind(r.kind, r.digital_no)) return NOT_TICKABLE_MESSAGE;
  // A red invoice received reverses a blue one: the blue invoice's deducted tax is transferred out (进项转出, 红字信息表注明), never ticked (issue 29).
  if (Number(r.amount_incl) < 0) return RED_NOT_TICKABLE;
  if (Number(r.buyer_mismatch)) return '购方非本公司的发票不能勾选';
  if (had !== 0 && had !== usage) return `该发票已勾选为${usageLabel(had)}，不能再勾选为${usageLabel(usage)}`;
  if (Number(r.tick_state) === 1 && r.tick_period && r.tick_period !== p.period) return `该发票已于税款所属期${r.tick_period}勾选，不能在本期更改`;
  // A customs notice is not 查验'd as an invoice: the bureau matches it against the customs data (稽核比对) when it is ticked.
  if (r.kind !== 'customs' && r.verify_state !== IncomeVerifyState.match) return '该发票未查验一致，不能勾选';
  if (r.issue_date < p.windowFrom || r.issue_date > p.windowTo) return `开票日期不在本期可勾选范围（${p.windowFrom}至${p.windowTo}）内`;
  if (DEAD.includes(r.invoice_state)) return `该发票${IncomeInvoiceState.label(r.invoice_state)}，不能勾选`;
  if (usage === TickUsage.deduct && r.risk_level === IncomeRiskLevel.abnormalVoucher) return '异常凭证不能勾选抵扣';
  // 抵扣 carries a typed effective tax: a positive amount of at most the invoice's tax, to the 分 (the other usages record the tax).
  if (usage === TickUsage.deduct) {
    const problem = effectiveTaxProblem(effectiveTax, Number(r.tax));
    if (problem) return problem;
  }
  if (p.tickBookedOnly && r.booking_state !== IncomeBookingState.bookedDeduct && r.booking_state !== IncomeBookingState.bookedNoDeduct) return '已开启先入账后勾选，该发票未入账，不能勾选';
  return '';
}

/** Why `r`'s tick cannot be undone on the `scope` page now ('' when it can). */
export function untickRefusal(r: TickRow, scope: TickScope, period: string): string {
  if (Number(r.tick_state) !== 1) return '该发票未勾选，无需撤销';
  const had = Number(r.vat_usage ?? 0);
  if (!SCOPE_USAGES[scope].includes(had)) return `该发票勾选为${usageLabel(had)}，请在${SCOPE_PAGE[scope === 'deduction' ? 'rebate' : 'deduction']}中撤销`;
  if (r.tick_period !== period) return `该发票已于税款所属期${r.tick_period}勾选，不能在本期撤销`;
  return '';
}

/** 疑点 (risk 03) or any abnormal flag: ticking it asks for confirmation. */
export const needsConfirm = (r: TickRow & Parameters<typeof flagsOf>[0]) => r.risk_level === IncomeRiskLevel.suspicious || flagsOf(r).length > 0;
