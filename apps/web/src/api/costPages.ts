/**
 * 成本管理 (issue 16) calls of 待审核成本单, 月度成本汇总 and 成本设置 (docs/cost.md; the contracts are
 * packages/shared/src/api/cost.ts). Changes go through `api.request`, whose success fires the counts
 * refresh: the sidebar's 待审核成本单 badge (toAudit, cost-todo-data) follows an audit at once.
 */
import type {
  CostAuditorView,
  CostBatchResult,
  CostClosingLog,
  CostClosingView,
  CostImportResult,
  CostOrderDetail,
  CostOrderPage,
  CostPmsView,
  CostPriceRow,
  CostSummary,
  CostTodoData,
  DeptNode,
  PageResult,
} from '@zhyy/shared';
import { api } from './clients';

type Body = Record<string, unknown>;

export interface CostPriceSave {
  id?: string;
  itemCode: string;
  itemName: string;
  category: string;
  spec: string;
  unit: string;
  unitPrice: string;
  taxRate: string;
  validFrom: string;
  validTo: string | null;
}
export interface CostPriceKeyBody {
  itemCode: string;
  spec: string;
  unit: string;
}
export interface CostPmsSave {
  mode: 'simulator' | 'http';
  url: string;
  /** Empty: the stored credential stays. */
  token: string;
  timeoutMs: number;
}

export const costPagesApi = {
  // 待审核成本单
  toAuditList: (p: Body) => api.post<CostOrderPage>('/cost-order/to-audit-list', p),
  detail: (id: string) => api.post<CostOrderDetail>('/cost-order/cost-order-detail', { id }),
  audit: (ids: string[]) => api.request<CostBatchResult>('/cost-order/set-coststatus-audited', { ids }),
  invalidate: (ids: string[], reason: string) => api.request<CostBatchResult>('/cost-order/set-coststatus-invalid', { ids, reason }),
  /** The queue's count for the caller (the badge's source); failures are silent. */
  todo: () => api.post<CostTodoData>('/cost-order/cost-todo-data', {}, { silent: true }),
  // 月度成本汇总 (and its drill-down to the orders)
  orders: (p: Body) => api.post<CostOrderPage>('/cost-order/list', p),
  summary: (p: Body) => api.post<CostSummary>('/cost-order/summary', p),
  exportSummary: (p: Body) => api.blob('/cost-order/export-cost-summary', p),
  // 成本设置: 价格表
  prices: (p: Body) => api.post<PageResult<CostPriceRow>>('/cost-price/list', p),
  priceTimeline: (key: CostPriceKeyBody) => api.post<CostPriceRow[]>('/cost-price/timeline', key),
  savePrice: (body: CostPriceSave) => api.request<CostPriceRow>('/cost-price/save', body),
  deletePrice: (id: string) => api.request<null>('/cost-price/delete', { id }),
  exportPrices: (p: Body) => api.blob('/cost-price/export', p),
  importPrices: (file: string) => api.request<CostImportResult>('/cost-price/import', { file }),
  priceTemplate: () => api.blob('/cost-price/template', {}),
  // 成本设置: 审核人, 月结, 项目管理系统接口
  auditors: () => api.post<CostAuditorView[]>('/cost-setting/auditors', {}),
  saveAuditor: (userId: string, deptIds: string[]) => api.request<CostAuditorView[]>('/cost-setting/auditors-save', { userId, deptIds }),
  closings: (month: string) => api.post<CostClosingView[]>('/cost-setting/closings', { month }),
  close: (deptId: string, month: string) => api.request<CostClosingView[]>('/cost-setting/close', { deptId, month }),
  reopen: (deptId: string, month: string, reason: string) => api.request<CostClosingView[]>('/cost-setting/reopen', { deptId, month, reason }),
  closingLogs: (p: Body) => api.post<PageResult<CostClosingLog>>('/cost-setting/closing-logs', p),
  pms: () => api.post<CostPmsView>('/cost-setting/pms', {}),
  savePms: (body: CostPmsSave) => api.request<CostPmsView>('/cost-setting/pms-save', body),
  testPms: () => api.post<{ ok: boolean; message: string }>('/cost-setting/pms-test', {}),
  /** The department tree (any signed-in user): the department filters and the auditors' departments. */
  deptTree: () => api.post<DeptNode[]>('/user/user-org-tree-list', {}),
};
