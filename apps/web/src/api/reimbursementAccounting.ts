/** 报销入账 (issue 15): /api/reimbursement/accounting/* — 一键报销, 报销编辑, 报销撤销, 同步日志. */
import type {
  PageResult,
  ReimbApplyPage,
  ReimbEditBody,
  ReimbEditDetail,
  ReimbPushAnswer,
  ReimbPushedRow,
  ReimbRevocationRow,
  ReimbRevokeAnswer,
  ReimbSimDeleteAnswer,
  ReimbSyncLogDetail,
  ReimbSyncLogRow,
} from '@zhyy/shared';
import { api } from './clients';
import type { ListParams } from './system';

const P = '/reimbursement/accounting';
/** The pages' actions show their refusal in place (silent: no toast as well). */
const quiet = { silent: true };

export const reimbAccountingApi = {
  applyList: (p: ListParams) => api.post<ReimbApplyPage>(`${P}/apply/list`, p),
  /** One bill per call: the page shows the progress and each bill's result. */
  push: (billIds: string[]) => api.request<ReimbPushAnswer>(`${P}/push`, { billIds }, quiet),
  editDetail: (billId: string) => api.post<ReimbEditDetail>(`${P}/edit/detail`, { billId }),
  editSave: (body: ReimbEditBody) => api.request<ReimbEditDetail>(`${P}/edit/save`, body, quiet),
  revocations: (p: ListParams) => api.post<PageResult<ReimbRevocationRow>>(`${P}/revoke/list`, p),
  exportRevocations: (filters: Record<string, unknown>) => api.blob(`${P}/revoke/export`, filters),
  pushed: (p: ListParams) => api.post<PageResult<ReimbPushedRow>>(`${P}/revoke/pushed`, p),
  /** method: delete (the voucher deleted in the accounting system first) or reverse (红字冲销凭证). */
  revoke: (body: { billId: string; reason: string; method: 'delete' | 'reverse' }) => api.request<ReimbRevokeAnswer>(`${P}/revoke/add`, body, quiet),
  /** 模拟会计系统操作 (simulator mode only): the accountant deletes the bill's voucher. */
  simDeleteVoucher: (billId: string) => api.request<ReimbSimDeleteAnswer>(`${P}/revoke/sim-delete-voucher`, { billId }, quiet),
  syncLogs: (p: ListParams) => api.post<PageResult<ReimbSyncLogRow>>(`${P}/synclog/list`, p),
  syncLogDetail: (id: string) => api.post<ReimbSyncLogDetail>(`${P}/synclog/detail`, { id }),
};
