/**
 * The accounting system (会计系统, the finance side's 财务系统 i8): vouchers (记账凭证) pushed from the
 * platform. General on purpose: 进项转出 (issue 14) pushes one, reimbursement (issue 15) will push its
 * own. The modules talk only to `AccountingGateway`; the simulator (default) and the HTTP client stand
 * behind it (index.ts picks one from the environment).
 */
import { ResponseCode } from '@zhyy/shared';
import { AppError } from '../../platform/envelope.js';

export interface VoucherEntry {
  /** 借 or 贷. */
  dc: 'debit' | 'credit';
  accountCode: string;
  accountName: string;
  /** 分, positive. */
  amount: number;
  /** The line's own summary (defaults to the header's). */
  summary?: string;
  /** 辅助核算: the cost centre the amount belongs to (reimbursement: the bill's department's). */
  costCentre?: { code: string; name: string };
}

export interface Voucher {
  /** Our voucher id: the push's identity. The same id pushed again is the same voucher. */
  id: string;
  /** 'YYYY-MM-DD' (Asia/Shanghai): the voucher date. */
  date: string;
  /** 'YYYYMM': the accounting period. */
  period: string;
  summary: string;
  /** Who made it (制单人). */
  maker: string;
  /** The source document: its type (e.g. incomeTransferOut, reimbursement) and number. */
  sourceType: string;
  sourceNo: string;
  entries: VoucherEntry[];
}

export interface VoucherAnswer {
  /** Our voucher id. */
  id: string;
  /** The accounting side's voucher number, e.g. 记-0001 (per month). */
  voucherNo: string;
  period: string;
}

/**
 * 红字冲销 (issue 32 item 3): the request to reverse a posted voucher. The accounting side makes the red
 * reversing voucher itself from the original it holds (same subjects, same 借/贷 sides, the amounts
 * negative), as 用友/金蝶's 冲销凭证 does, dated `date` in `period` (the current open period: the original's
 * may be closed). `id` is the reversing voucher's own id and the idempotency key (the same id again answers
 * the reversal already made); an original is reversed at most once.
 */
export interface VoucherReversal {
  id: string;
  /** Our id of the voucher to reverse. */
  reverses: string;
  date: string;
  period: string;
  summary: string;
  maker: string;
  sourceType: string;
  sourceNo: string;
}

export interface ReversalAnswer extends VoucherAnswer {
  /** The original voucher's number and period as the accounting side holds them. */
  reversed: { voucherNo: string; period: string };
}

/**
 * What the accounting side holds under our voucher id (the idempotency key): the question a settling job
 * asks after an exchange cut short (a crash between sending and recording). `date` is the voucher date
 * when the side tells it.
 */
export type VoucherLookup = { status: 'posted'; voucherNo: string; period: string; date?: string } | { status: 'notFound' };

/** An accounting period (YYYYMM) and whether it is closed (已结账: no voucher may be made, changed or deleted in it). */
export interface PeriodState {
  period: string;
  closed: boolean;
}

/** What an accountant does in the simulated accounting system (ACCOUNTING_MODE=simulator only; demos and tests). */
export interface SimulatedAccountant {
  /** Deletes our voucher `id` as an accountant would in i8; false when there is none. */
  deleteVoucher(id: string, ctx?: AccountingCallContext): Promise<{ deleted: boolean; voucherNo: string; period: string }>;
}

export interface AccountingCallContext {
  userId?: string | null;
  /** More business keys to index the sync log row by (e.g. the bill a period look-up is for). */
  refs?: readonly string[];
}

export interface AccountingGateway {
  readonly mode: 'simulator' | 'http';
  /** Pushes a voucher; idempotent by `voucher.id` (a repeat answers the same voucher number). Throws AccountingError on a refusal or failed exchange. */
  pushVoucher(voucher: Voucher, ctx?: AccountingCallContext): Promise<VoucherAnswer>;
  /** Books the red reversing voucher of a posted voucher (红字冲销); idempotent by `reversal.id`. Throws AccountingError on a refusal or failed exchange. */
  reverseVoucher(reversal: VoucherReversal, ctx?: AccountingCallContext): Promise<ReversalAnswer>;
  /** Whether the accounting side holds our voucher `id`. */
  voucherState(id: string, ctx?: AccountingCallContext): Promise<VoucherLookup>;
  /** Whether the accounting period `period` (YYYYMM) is closed. */
  periodState(period: string, ctx?: AccountingCallContext): Promise<PeriodState>;
  /** The simulated accountant: present only in simulator mode. */
  readonly simulator?: SimulatedAccountant;
}

/** A refusal or failed exchange with the accounting system: its Chinese message is shown and kept. */
export class AccountingError extends AppError {
  constructor(
    message: string,
    readonly serviceCode: string,
    readonly response?: unknown,
    status = 400,
  ) {
    super(ResponseCode.businessError, message, status);
    this.name = 'AccountingError';
  }
}

export interface AccountingConfig {
  mode: 'simulator' | 'http';
  url?: string;
  token?: string;
  timeoutMs?: number;
  /** simulator: how long an answer takes (ms). */
  delayMs?: number;
}

/** Sync log types (system 2, the accounting system) of the exchanges. */
export const AccountingMethods = { push: 'accountingPushVoucher', state: 'accountingVoucherState', period: 'accountingPeriodState', simDelete: 'accountingSimDeleteVoucher', reverse: 'accountingReverseVoucher' } as const;

/** 2026年05月 for 202605. */
export const periodText = (period: string) => (/^\d{6}$/.test(period) ? `${period.slice(0, 4)}年${period.slice(4)}月` : period);

/** Why a voucher is not well formed ('' when it is): at least one 借 and one 贷, positive 分, 借贷相等. */
export function voucherProblem(v: Voucher): string {
  if (!v.entries.length) return '凭证没有分录';
  if (v.entries.some((e) => !Number.isInteger(e.amount) || e.amount <= 0)) return '分录金额须为正数（分）';
  if (v.entries.some((e) => !e.accountCode || !e.accountName)) return '分录缺少科目';
  const debit = v.entries.filter((e) => e.dc === 'debit').reduce((s, e) => s + e.amount, 0);
  const credit = v.entries.filter((e) => e.dc === 'credit').reduce((s, e) => s + e.amount, 0);
  if (!debit || !credit) return '凭证须有借方和贷方分录';
  if (debit !== credit) return `借贷不平衡（借方${(debit / 100).toFixed(2)}元，贷方${(credit / 100).toFixed(2)}元）`;
  return '';
}
