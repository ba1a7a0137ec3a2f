/** 费用报销, applying (issue 15): my bills, the bill editor, the pool picker, attachments, 核定. */
import type {
  PageResult,
  PoolArrival,
  ReimbApplyOptions,
  ReimbBillDetail,
  ReimbBillRow,
  ReimbCandidate,
  ReimbListAnswer,
  ReimbPeerView,
  ReimbProfile,
  ReimbSaveBody,
  UploadRecognition,
  UploadRecogniseBody,
  UploadSaveBody,
} from '@zhyy/shared';
import type { ListParams } from './system';
import { api } from './clients';

const P = '/reimbursement';

export const reimbApi = {
  myList: (params: ListParams) => api.post<ReimbListAnswer>(`${P}/my/list`, params) as Promise<ReimbListAnswer & PageResult<ReimbBillRow>>,
  options: () => api.post<ReimbApplyOptions>(`${P}/my/options`, {}),
  /** The applicant's or an approver's view. */
  get: (id: string) => api.post<ReimbBillDetail>(`${P}/bill/get`, { id }, { silent: true }),
  /** The ledger's view (roles 1, 12, 16). */
  detail: (id: string) => api.post<ReimbBillDetail>(`${P}/bill/detail`, { id }, { silent: true }),
  save: (body: Partial<ReimbSaveBody>) => api.request<{ id: string; billNo: string }>(`${P}/bill/save`, body, { silent: true }),
  submit: (id: string) => api.request<{ workId: number; nodeName: string; handlers: string[] }>(`${P}/bill/submit`, { id }, { silent: true }),
  withdraw: (id: string) => api.request<null>(`${P}/bill/withdraw`, { id }, { silent: true }),
  remove: (id: string) => api.request<null>(`${P}/bill/delete`, { id }, { silent: true }),
  approveLine: (lineId: string, approvedAmount: number, note: string) => api.request<{ approvedAmount: number }>(`${P}/bill/approve-line`, { lineId, approvedAmount, note }, { silent: true }),
  /** 接受疑似重复 (issue 32 #4): the current approver accepts one match of a line with an opinion. */
  acceptDuplicate: (lineId: string, otherLineId: string, opinion: string) => api.request<{ otherBillNo: string }>(`${P}/bill/accept-duplicate`, { lineId, otherLineId, opinion }, { silent: true }),
  /** The other bill of a match, as the approver of `billId` may see it. */
  peer: (billId: string, peerId: string) => api.post<ReimbPeerView>(`${P}/bill/peer`, { id: billId, peerId }, { silent: true }),
  candidates: (billId?: string, keyword?: string) => api.post<ReimbCandidate[]>(`${P}/invoice/candidates`, { ...(billId ? { billId } : {}), ...(keyword ? { keyword } : {}) }),
  /** One invoice as a candidate (the one just uploaded), whatever the search; refused (no toast) with the reason it may not be picked. */
  candidate: async (invoiceId: string, billId?: string) => (await api.post<ReimbCandidate[]>(`${P}/invoice/candidates`, { invoiceId, ...(billId ? { billId } : {}) }, { silent: true }))[0],
  recognise: (body: UploadRecogniseBody) => api.post<UploadRecognition>(`${P}/invoice/upload-recognise`, body, { silent: true }),
  saveUpload: (body: UploadSaveBody) => api.request<PoolArrival>(`${P}/invoice/upload-save`, body, { silent: true }),
  invoiceFile: (id: string) => api.blob(`${P}/invoice/file`, { id }),
  uploadAttachment: (billId: string, name: string, content: string) => api.request<{ id: string; name: string; size: number }>(`${P}/attachment/upload`, { billId, name, content }, { silent: true }),
  deleteAttachment: (id: string) => api.request<null>(`${P}/attachment/delete`, { id }, { silent: true }),
  downloadAttachment: (id: string) => api.blob(`${P}/attachment/download`, { id }),
  profile: () => api.post<ReimbProfile>(`${P}/profile/get`, {}),
};
