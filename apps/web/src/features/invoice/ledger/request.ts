/** The ledger filter form's values → the request of /invoice/list, export and print. Money: 元 typed, 分 sent. */
import type { Dayjs } from 'dayjs';
import { canAccessAny, requirementForPages } from '@zhyy/shared';
import { yuanToFen } from '../../common/yuan';

export const LEDGER_KEY = ['invoice', 'ledger'] as const;
export const UPLOAD_PAGE = '/invoice/invoiceaccount/invoice-upload/:id';
export const detailPath = (id: string) => `/invoice/invoiceaccount/invoice-detail/${id}`;
export const uploadPath = (id: string) => `/invoice/invoiceaccount/invoice-upload/${id}`;
export const redDetailPath = (id: number) => `/invoice/invoiceaccount/digital-electric-red-ledger-detail/${id}`;

/** Whether the roles may change the ledger (upload, re-send): the upload page's roles. */
export const canChangeLedger = (roles: readonly string[]) => canAccessAny([...roles], requirementForPages([UPLOAD_PAGE]));

export interface LedgerFormValues {
  issued?: [Dayjs | null, Dayjs | null] | null;
  buyerId?: string;
  buyerName?: string;
  number?: string;
  status?: number;
  colour?: number;
  kind?: number;
  source?: number;
  projectId?: string;
  contractId?: string;
  amountMin?: number | null;
  amountMax?: number | null;
  creator?: string;
}

export { yuanToFen };

export function toLedgerRequest(v: LedgerFormValues): Record<string, unknown> {
  const out: Record<string, unknown> = {
    issueFrom: v.issued?.[0]?.format('YYYY-MM-DD'),
    issueTo: v.issued?.[1]?.format('YYYY-MM-DD'),
    buyerId: v.buyerId,
    buyerName: v.buyerName?.trim(),
    number: v.number?.trim(),
    status: v.status,
    colour: v.colour,
    kind: v.kind,
    source: v.source,
    projectId: v.projectId,
    contractId: v.contractId,
    amountMin: yuanToFen(v.amountMin),
    amountMax: yuanToFen(v.amountMax),
    creator: v.creator?.trim(),
  };
  return Object.fromEntries(Object.entries(out).filter(([, x]) => x !== undefined && x !== null && x !== ''));
}

/** A file's category as the ledger shows it: 1000 is whatever the tax service or the uploader gave as the original (PDF, OFD or XML). */
export const fileTypeLabel = (type: number, label: (t: number) => string) => (type === 1000 ? '发票原件' : label(type));
