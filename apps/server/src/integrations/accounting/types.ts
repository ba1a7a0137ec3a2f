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

export type VoucherLookup = { status: 'posted'; voucherNo: string; period: string } | { status: 'notFound' };

export interface AccountingCallContext {
  userId?: string | null;
}

export interface AccountingGateway {
  readonly mode: 'simulator' | 'http';
  /** Pushes a voucher; idempotent by `voucher.id` (a repeat answers the same voucher number). Throws AccountingError on a refusal or failed exchange. */
  pushVoucher(voucher: Voucher, ctx?: AccountingCallContext): Promise<VoucherAnswer>;
  /** Whether the accounting side holds our voucher `id`. */
  voucherState(id: string, ctx?: AccountingCallContext): Promise<VoucherLookup>;
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
export const AccountingMethods = { push: 'accountingPushVoucher', state: 'accountingVoucherState' } as const;

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
