/** Outgoing-invoice ledgers (issue 7): 销项发票台账, the detail's history, uploads, re-send, 数电红字 ledger. */
import { ERROR_TOAST_MS, TOKEN_HEADER, type InvoiceHistory, type LedgerOptions, type LedgerPage, type LedgerPrint, type PageResult, type RedConfirmDetail, type RedConfirmRow } from '@zhyy/shared';
import { getToken } from '../stores/session';
import { showError } from '../ui/feedback';
import { api } from './clients';
import type { ListParams } from './system';

type Body = Record<string, unknown>;

export interface InvoiceImages {
  invoice: { id: string; source: number; orderNo: string; invoiceNo: string; digitalNo: string; buyerName: string; amountIncl: number; issueDate: string | null; status: number };
  files: Array<{ id: string; type: number; format: string; name: string; size: number; createdAt: string; createdByName: string }>;
  maxBytes: number;
}

/**
 * Streams an export and reports the bytes received, so the page can show progress; resolves to the
 * file. A JSON answer is a refusal: its message is shown like any other error.
 */
export async function downloadWithProgress(path: string, body: Body, onBytes: (received: number) => void, signal?: AbortSignal): Promise<Blob> {
  const token = getToken();
  const res = await fetch(`/api${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...(token ? { [TOKEN_HEADER]: token } : {}) }, body: JSON.stringify(body), signal });
  const type = res.headers.get('Content-Type') ?? '';
  if (!res.ok || type.includes('application/json') || !res.body) {
    let message = '导出失败，请稍后重试';
    try {
      const json = (await res.json()) as { message?: string };
      if (json.message) message = json.message;
    } catch {
      // Not JSON: keep the generic message.
    }
    showError(message, ERROR_TOAST_MS);
    throw new Error(message);
  }
  const reader = res.body.getReader();
  const parts: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    received += value.length;
    onBytes(received);
  }
  return new Blob(parts as BlobPart[], { type });
}

export const ledgerApi = {
  list: (p: ListParams) => api.post<LedgerPage>('/invoice/list', p),
  options: () => api.post<LedgerOptions>('/invoice/ledger-options', {}),
  buyers: (keyword: string) => api.post<Array<{ id: string; name: string; taxNo: string }>>('/invoice/ledger-buyers', { keyword }),
  print: (p: Body) => api.post<LedgerPrint>('/invoice/print', p),
  history: (id: string) => api.post<InvoiceHistory>('/invoice/detail-history', { id }),
  images: (id: string) => api.post<InvoiceImages>('/invoice/invoice-image', { id }),
  upload: (body: { id: string; type: number; fileName: string; content: string }) => api.request<{ fileId: string }>('/invoice/upload-invoiceimg', body),
  send: (body: { id: string; email: string; mobile: string }) => api.request<{ to: string }>('/invoice/send-invoice', body),
  redLedger: (p: ListParams) => api.post<PageResult<RedConfirmRow>>('/invoiceredconfirm/digital-electric-red-ledger', p),
  redDetail: (id: number) => api.post<Omit<RedConfirmDetail, 'can'>>('/invoiceredconfirm/digital-electric-red-ledger-detail', { id }),
  exportRedLedger: (p: Body) => api.blob('/invoiceredconfirm/export-digital-electric-red-ledger', p),
};
