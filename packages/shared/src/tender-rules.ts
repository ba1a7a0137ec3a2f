/**
 * 投标管理 (issue 17): the rules both sides apply (DOMAIN "Tender management", SPEC section 3's
 * attachment types). A contract's required pages; a performance record's completeness (its required
 * pages, its acceptance date within the tender's window, its amount at least the threshold); a
 * certificate's state on a day (expired in red, within 90 days in orange) and its validity on a tender's
 * deadline, not only today.
 */
import { AttachmentType, ContractType } from './enums.js';
import { daysBetween } from './reimbursement-rules.js';

/** Expired certificates show red, those expiring within this many days orange (issue 17). */
export const CERT_WARN_DAYS = 90;
/** The reminder days before expiry (issue 17), the default of 投标设置. */
export const CERT_REMIND_DAYS = [90, 60, 30, 7] as const;
/** Defaults of 投标设置: the performance window in years, the amount threshold in 分, the watermark. */
export const TENDER_DEFAULTS = { windowYears: 5, thresholdFen: 0, watermark: '仅供××项目投标使用' } as const;

type ContractTypeValue = (typeof ContractType.values)[number];
type AttachmentTypeValue = (typeof AttachmentType.values)[number];

/** The pages of each contract type, in the order a tender file binds them (SPEC section 3). */
export const CONTRACT_PAGES: Record<number, readonly AttachmentTypeValue[]> = {
  [ContractType.frame]: [2111, 2112, 2113, 2114, 2115, 2900, 2901],
  [ContractType.single]: [2211, 2212, 2213, 2214, 2215, 2900, 2901],
  [ContractType.order]: [2310, 2900, 2901],
};

/**
 * The pages a contract must have to count as complete: its type's cover, period, amount and signature
 * pages (the order page for an order), and the acceptance certificate (验收证书, the evidence of 竣工验收).
 * The cost composition tables and the approval bill are kept when there are any, not required.
 */
export const REQUIRED_PAGES: Record<number, readonly AttachmentTypeValue[]> = {
  [ContractType.frame]: [2111, 2112, 2113, 2114, 2901],
  [ContractType.single]: [2211, 2212, 2213, 2214, 2901],
  [ContractType.order]: [2310, 2901],
};

export function contractPages(type: ContractTypeValue | number): readonly number[] {
  return CONTRACT_PAGES[type] ?? [];
}

export function requiredPages(type: ContractTypeValue | number): readonly number[] {
  return REQUIRED_PAGES[type] ?? [];
}

/** The required pages a contract lacks, in binding order. */
export function missingPages(type: number, present: Iterable<number>): number[] {
  const have = new Set(present);
  return requiredPages(type).filter((p) => !have.has(p));
}

/** 'YYYY-MM-DD' n years before a day (29 Feb falls back to 28 Feb). */
export function yearsBefore(day: string, years: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const ty = y - years;
  const last = new Date(Date.UTC(ty, m, 0)).getUTCDate();
  return `${String(ty).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

export interface PerformanceFacts {
  contractType: number;
  /** The attachment types the contract has. */
  pages: Iterable<number>;
  /** 竣工验收 day 'YYYY-MM-DD', or null when not accepted yet. */
  acceptedOn: string | null;
  /** 分 */
  amount: number;
}

export interface PerformanceRule {
  /** The tender's deadline (or today): the window ends here. */
  onDay: string;
  /** The window in years (3 or 5 in practice). */
  years: number;
  /** The least amount in 分 (0: none). */
  thresholdFen: number;
}

/** Why a contract does not count as a performance record (empty: it counts), in Chinese. */
export function performanceProblems(f: PerformanceFacts, rule: PerformanceRule): string[] {
  const out: string[] = [];
  const missing = missingPages(f.contractType, f.pages);
  if (missing.length) out.push(`缺少${missing.map((p) => AttachmentType.label(p)).join('、')}`);
  if (!f.acceptedOn) out.push('未填写竣工验收日期');
  else {
    const from = yearsBefore(rule.onDay, rule.years);
    if (f.acceptedOn < from) out.push(`竣工验收日期${f.acceptedOn}早于${from}（近${rule.years}年）`);
    else if (f.acceptedOn > rule.onDay) out.push(`竣工验收日期${f.acceptedOn}晚于${rule.onDay}`);
  }
  if (rule.thresholdFen > 0 && f.amount < rule.thresholdFen) out.push(`合同金额低于${(rule.thresholdFen / 100).toFixed(2)}元`);
  return out;
}

/** A certificate's state on a day: no end date, valid, expiring within `warnDays`, or expired. */
export type CertState = 'permanent' | 'valid' | 'expiring' | 'expired';

export function certState(validTo: string | null | undefined, today: string, warnDays: number = CERT_WARN_DAYS): CertState {
  if (!validTo) return 'permanent';
  if (validTo < today) return 'expired';
  return daysBetween(today, validTo) <= warnDays ? 'expiring' : 'valid';
}

export const CERT_STATE_LABEL: Record<CertState, string> = { permanent: '长期有效', valid: '有效', expiring: '即将到期', expired: '已过期' };

/** Valid on a tender's deadline: begun by then and not ended before it. Null when it is; the reason otherwise. */
export function certProblemOn(c: { validFrom: string | null; validTo: string | null }, deadline: string): string | null {
  if (c.validFrom && c.validFrom > deadline) return `证书${c.validFrom}起才生效，投标截止日${deadline}尚未生效`;
  if (c.validTo && c.validTo < deadline) return `证书${c.validTo}到期，投标截止日${deadline}已失效`;
  return null;
}
