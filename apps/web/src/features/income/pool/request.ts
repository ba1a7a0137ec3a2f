/** The pool filter form's values → the request of the list and export calls. Money: 元 typed, 分 sent. */
import type { Dayjs } from 'dayjs';
import { canAccessAny, requirementForPages } from '@zhyy/shared';
import { yuanToFen } from '../../common/yuan';

export const POOL_KEY = ['income', 'pool'] as const;
export const POOL_LIST = '/income/invoicePool/list';
export const POOL_OTHER = '/income/invoicePool/other';
export const POOL_ABNORMAL = '/income/invoicePool/abnormal';
export const poolDetailPath = (id: string) => `/income/invoicePool/detail/${id}`;

/** Whether the roles may enter a paper invoice (手工录入): the list page's roles, as the server's save route. */
export const canEnterPool = (roles: readonly string[]) => canAccessAny([...roles], requirementForPages([POOL_LIST]));

export interface PoolFormValues {
  issued?: [Dayjs | null, Dayjs | null] | null;
  kind?: string;
  sellerName?: string;
  number?: string;
  invoiceState?: number;
  abnormalFlag?: string;
  invoiceCode?: string;
  sellerTaxNo?: string;
  buyerName?: string;
  buyerTaxNo?: string;
  amountMin?: number | null;
  amountMax?: number | null;
  riskLevel?: string;
  verifyState?: number;
  signState?: number;
  bookingState?: string;
  source?: number;
  usage?: number;
  archiveNo?: string;
  docNo?: string;
  checkCode?: string;
}

const trimmed = (v: string | undefined) => v?.trim();

export function toPoolRequest(v: PoolFormValues): Record<string, unknown> {
  const out: Record<string, unknown> = {
    issueFrom: v.issued?.[0]?.format('YYYY-MM-DD'),
    issueTo: v.issued?.[1]?.format('YYYY-MM-DD'),
    kind: v.kind,
    sellerName: trimmed(v.sellerName),
    number: trimmed(v.number),
    invoiceState: v.invoiceState,
    abnormalFlag: v.abnormalFlag,
    invoiceCode: trimmed(v.invoiceCode),
    sellerTaxNo: trimmed(v.sellerTaxNo),
    buyerName: trimmed(v.buyerName),
    buyerTaxNo: trimmed(v.buyerTaxNo),
    amountMin: yuanToFen(v.amountMin),
    amountMax: yuanToFen(v.amountMax),
    riskLevel: v.riskLevel,
    verifyState: v.verifyState,
    signState: v.signState,
    bookingState: v.bookingState,
    source: v.source,
    usage: v.usage,
    archiveNo: trimmed(v.archiveNo),
    docNo: trimmed(v.docNo),
    checkCode: trimmed(v.checkCode),
  };
  return Object.fromEntries(Object.entries(out).filter(([, x]) => x !== undefined && x !== null && x !== ''));
}

/** The number an invoice is known by: the 数电 number, else 发票号码. */
export const poolNumber = (r: { digitalNo: string; invoiceNo: string }) => r.digitalNo || r.invoiceNo;
