/**
 * 成本管理 calls (issue 16), one function per call of docs/cost.md (CALLS), for every cost page: the price list
 * (/cost-price/*), orders — entry, import, the project-management sync, the ledger, detail, audit, to-do count,
 * summary, the project choices — (/cost-order/*) and the settings (/cost-setting/*). Bodies are the shared zod
 * schemas' input types; answers the shared response types (packages/shared/src/api/cost.ts).
 *
 * Reads use `post` (the answer's `r`); changes use `request` (Done<T>: the whole envelope: its message says what
 * was done), whose success fires the counts refresh, so the sidebar's 待审核成本单 badge follows an audit at once.
 * Every change takes RequestOptions, so a form may pass `{ silent: true }` and show the server's Chinese refusal
 * in place instead of the toast. Exports and templates are blobs (`api.blob`); the ledger's big exports are
 * streamed with progress by ExportProgress from COST_EXPORT_PATHS.
 */
import type { z } from 'zod';
import type {
  CostAuditorBody,
  CostAuditorView,
  CostBatchResult,
  CostCloseBody,
  CostCloseCheck,
  CostCloseCheckQuery,
  CostClosingLog,
  CostClosingQuery,
  CostClosingView,
  CostCopyBody,
  CostFileBody,
  CostIdBody,
  CostIdsBody,
  CostImportResult,
  CostInvalidBody,
  CostOrderBody,
  CostOrderDetail,
  CostOrderFilter,
  CostOrderPage,
  CostOrderQuery,
  CostOrderSaved,
  CostPmsBody,
  CostPmsSyncBody,
  CostPmsSyncResult,
  CostPmsView,
  CostPriceBody,
  CostPriceKey,
  CostPriceOptionsQuery,
  CostPriceQuery,
  CostPriceRow,
  CostProjectOption,
  CostProjectQuery,
  CostReopenBody,
  CostRepriceResult,
  CostSummary,
  CostSummaryPageQuery,
  CostSummaryProjects,
  CostSummaryProjectsQuery,
  CostSummaryQuery,
  CostTodoData,
  Envelope,
  PageQuery,
  PageResult,
} from '@zhyy/shared';
import { api } from './clients';
import type { RequestOptions } from './http';

type In<S extends z.ZodType> = z.input<S>;
/** A change's answer: the envelope (its message says what was done) with the call's `r`. */
export type Done<T> = Envelope<T> & { r: T };
const change = <T>(path: string, body: unknown, options?: RequestOptions) => api.request<T>(path, body, options) as Promise<Done<T>>;

const PRICE = '/cost-price';
const ORDER = '/cost-order';
const SETTING = '/cost-setting';

/** The price list (成本设置; the options feed the order editor). */
export const costPriceApi = {
  list: (q: In<typeof CostPriceQuery>) => api.post<PageResult<CostPriceRow>>(`${PRICE}/list`, q),
  /** The windows in force for the month (priceForMonth), one per item/spec/unit; up to 500 by keyword. */
  options: (q: In<typeof CostPriceOptionsQuery>) => api.post<CostPriceRow[]>(`${PRICE}/options`, q),
  /** Every window of one item/spec/unit, oldest first. */
  timeline: (key: In<typeof CostPriceKey>) => api.post<CostPriceRow[]>(`${PRICE}/timeline`, key),
  save: (body: In<typeof CostPriceBody>, options?: RequestOptions) => change<CostPriceRow>(`${PRICE}/save`, body, options),
  remove: (body: In<typeof CostIdBody>, options?: RequestOptions) => change<null>(`${PRICE}/delete`, body, options),
  export: (q: Omit<In<typeof CostPriceQuery>, 'pageIndex' | 'pageSize'>) => api.blob(`${PRICE}/export`, q),
  import: (body: In<typeof CostFileBody>, options?: RequestOptions) => change<CostImportResult>(`${PRICE}/import`, body, options),
  template: () => api.blob(`${PRICE}/template`, {}),
};

/** Orders: entry (roles 1, 16, 17), the ledger, detail, the project choices, audit, the to-do count and the summary. */
export const costOrderApi = {
  // ---- the ledger (成本单台账) ----
  list: (q: In<typeof CostOrderQuery>) => api.post<CostOrderPage>(`${ORDER}/list`, q),
  /** One row per order, the ledger's filters (streamed; see COST_EXPORT_PATHS for the progress download). */
  export: (f: In<typeof CostOrderFilter>) => api.blob(`${ORDER}/export`, f),
  /** The order with its lines, log, last month's order and what the caller may do; silent: the page shows a refusal in place. */
  detail: (id: string, options: RequestOptions = { silent: true }) => api.post<CostOrderDetail>(`${ORDER}/cost-order-detail`, { id } satisfies In<typeof CostIdBody>, options),
  /** The project choices of every cost page (filters and the editor): up to 50 by code or name; silent (the picker says it is unavailable). */
  projects: (keyword?: string) => api.post<CostProjectOption[]>(`${ORDER}/projects`, (keyword ? { keyword } : {}) satisfies In<typeof CostProjectQuery>, { silent: true }),

  // ---- entry ----
  /** New (no id) or an edit of an order awaiting audit. */
  save: (body: In<typeof CostOrderBody>, options?: RequestOptions) => change<CostOrderSaved>(`${ORDER}/save`, body, options),
  copyLastMonth: (body: In<typeof CostCopyBody>, options?: RequestOptions) => change<CostOrderSaved>(`${ORDER}/copy-last-month`, body, options),
  reprice: (id: string, options?: RequestOptions) => change<CostRepriceResult>(`${ORDER}/reprice`, { id } satisfies In<typeof CostIdBody>, options),
  import: (body: In<typeof CostFileBody>, options?: RequestOptions) => change<CostImportResult>(`${ORDER}/import`, body, options),
  importTemplate: () => api.blob(`${ORDER}/import-template`, {}),
  pmsSync: (body: In<typeof CostPmsSyncBody>, options?: RequestOptions) => change<CostPmsSyncResult>(`${ORDER}/pms-sync`, body, options),

  // ---- audit (待审核成本单) ----
  toAuditList: (q: In<typeof CostOrderQuery>) => api.post<CostOrderPage>(`${ORDER}/to-audit-list`, q),
  audit: (body: In<typeof CostIdsBody>, options?: RequestOptions) => change<CostBatchResult>(`${ORDER}/set-coststatus-audited`, body, options),
  invalidate: (body: In<typeof CostInvalidBody>, options?: RequestOptions) => change<CostBatchResult>(`${ORDER}/set-coststatus-invalid`, body, options),
  /** The badge count (api/live's fetchCostTodo): silent, a failure is never toasted (SPEC: errors silenced). */
  todo: () => api.post<CostTodoData>(`${ORDER}/cost-todo-data`, {}, { silent: true }),

  // ---- 月度成本汇总 ----
  /** A page of department-months with the trend, composition and totals of all (issue 30). */
  summary: (q: In<typeof CostSummaryPageQuery>) => api.post<CostSummary>(`${ORDER}/summary`, q),
  /** A department-month's projects and their categories, paged (the drill-down). */
  summaryProjects: (q: In<typeof CostSummaryProjectsQuery>) => api.post<CostSummaryProjects>(`${ORDER}/summary-projects`, q),
  exportSummary: (q: In<typeof CostSummaryQuery>) => api.blob(`${ORDER}/export-cost-summary`, q),
  /** 结账核验: one month's closed departments, their digests recomputed by the server (a read). */
  closeCheck: (q: In<typeof CostCloseCheckQuery>) => api.post<CostCloseCheck[]>(`${ORDER}/close-check`, q),
};

/** 成本设置 (roles 1, 17): auditors, month closing, the project-management interface. */
export const costSettingApi = {
  auditors: () => api.post<CostAuditorView[]>(`${SETTING}/auditors`, {}),
  saveAuditors: (body: In<typeof CostAuditorBody>, options?: RequestOptions) => change<CostAuditorView[]>(`${SETTING}/auditors-save`, body, options),
  closings: (q: In<typeof CostClosingQuery>) => api.post<CostClosingView[]>(`${SETTING}/closings`, q),
  close: (body: In<typeof CostCloseBody>, options?: RequestOptions) => change<CostClosingView[]>(`${SETTING}/close`, body, options),
  reopen: (body: In<typeof CostReopenBody>, options?: RequestOptions) => change<CostClosingView[]>(`${SETTING}/reopen`, body, options),
  closingLogs: (q: In<typeof PageQuery>) => api.post<PageResult<CostClosingLog>>(`${SETTING}/closing-logs`, q),
  pms: () => api.post<CostPmsView>(`${SETTING}/pms`, {}),
  savePms: (body: In<typeof CostPmsBody>, options?: RequestOptions) => change<CostPmsView>(`${SETTING}/pms-save`, body, options),
  /** 测试连接 with the saved settings: a read (nothing changes), its answer shown on the page. */
  testPms: () => api.post<{ ok: boolean; message: string }>(`${SETTING}/pms-test`, {}),
};

/** The streamed exports (ExportProgress posts them itself, showing the bytes received). */
export const COST_EXPORT_PATHS = {
  orders: `${ORDER}/export`,
  summary: `${ORDER}/export-cost-summary`,
  prices: `${PRICE}/export`,
} as const;

/** An .xlsx file → the base64 text CostFileBody carries (no data: prefix). */
export function fileToBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result).replace(/^data:[^,]*,/, ''));
    r.onerror = () => reject(r.error ?? new Error('读取文件失败'));
    r.readAsDataURL(file);
  });
}
