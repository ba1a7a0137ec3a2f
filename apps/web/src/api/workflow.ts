/** The workflow service's calls (SPEC section 7), through the workflow client: never fetch directly. */
import {
  WORKFLOW_ERROR_MARKER,
  type AdminShiftBody,
  type ApprovalStats,
  type CcBody,
  type CheckItem,
  type DeptItem,
  type EmpItem,
  type FlowTemplate,
  type InstanceRow,
  type ListBody,
  type NextStep,
  type NoticeDetail,
  type NoticeSaveBody,
  type PageResult,
  type PersonalSaveBody,
  type PersonalSettings,
  type ReturnBody,
  type SaveDraftBody,
  type SendBody,
  type ShiftBody,
  type StartBody,
  type StartFlowsAnswer,
  type TodoAnswer,
  type TrackEntry,
  type WorkDetail,
  ERROR_TOAST_MS,
} from '@zhyy/shared';
import { workflowApi } from './clients';
import { ApiError } from './errors';
import { showError } from '../ui/feedback';

export interface Moved {
  workId: number;
  state: number;
  nodeName: string;
  handlers: string[];
  waiting?: boolean;
}

/** An action's answer: its result and the server's message (shown as the success toast). */
async function act<T>(path: string, body: unknown): Promise<{ r: T; message: string }> {
  const e = await workflowApi.request<T>(path, body);
  return { r: e.r as T, message: e.message ?? '操作成功' };
}

export type ListQuery = Partial<ListBody> & { pageIndex: number; pageSize: number };

export const wfApi = {
  todo: () => workflowApi.post<TodoAnswer>('/todo', {}),
  list: (q: ListQuery) => workflowApi.post<PageResult<InstanceRow>>('/list', q),
  startFlows: () => workflowApi.post<StartFlowsAnswer>('/startflows', {}),
  template: (flowNo: string) => workflowApi.post<FlowTemplate>('/flowtemplate', { flowNo }),
  flowData: () => workflowApi.post<{ flows: Array<{ flowNo: string; name: string; category: string }> }>('/flowdata', { domain: 'OA' }, { noShowError: true }),
  depts: () => workflowApi.post<DeptItem[]>('/dept/list', {}),
  people: (keyword?: string) => workflowApi.post<EmpItem[]>('/emp/list', keyword ? { keyword } : {}),
  detail: (workId: number) => workflowApi.post<WorkDetail>('/workdetail', { workId }),
  checklist: (workId: number) => workflowApi.post<CheckItem[]>('/workchecklist', { workId }),
  track: (workId: number) => workflowApi.post<TrackEntry[]>('/workflow-record', { workId }),
  nextStep: (q: { workId?: number; flowNo?: string; form?: Record<string, unknown> }) => workflowApi.post<NextStep>('/nextstep', q),
  /** The web route of a work item's form; an `err@reason` answer is shown as an error toast and rejects. */
  async formUrl(workId: number): Promise<string> {
    const r = await workflowApi.post<string>('/generfrmurl', { workId });
    const at = typeof r === 'string' ? r.indexOf(WORKFLOW_ERROR_MARKER) : -1;
    if (at >= 0) {
      const text = r.slice(at + WORKFLOW_ERROR_MARKER.length);
      showError(text, ERROR_TOAST_MS);
      throw new ApiError('workflow', text);
    }
    return r;
  },
  saveDraft: (b: SaveDraftBody) => act<{ workId: number }>('/savedraft', b),
  start: (b: StartBody) => act<Moved>('/start', b),
  send: (b: SendBody) => act<Moved>('/send', b),
  returnTo: (b: ReturnBody) => act<Moved>('/return', b),
  shift: (b: ShiftBody) => act<Moved>('/shift', b),
  undo: (workId: number) => act<Moved>('/undo', { workId }),
  withdraw: (workId: number) => act<Moved>('/withdraw', { workId }),
  press: (workId: number, note?: string) => act<{ names: string[] }>('/press', { workId, note }),
  cc: (b: CcBody) => act<{ names: string[] }>('/cc', b),
  remove: (workId: number) => act<unknown>('/delete', { workId }),
  adminShift: (b: AdminShiftBody) => act<Moved>('/admin/shift', b),
  adminDelete: (workId: number, reason: string) => act<unknown>('/admin/delete', { workId, reason }),
  notice: (id: string) => workflowApi.post<NoticeDetail>('/notice/detail', { id }),
  notices: (q: { pageIndex: number; pageSize: number; keyword?: string }) => workflowApi.post<PageResult<NoticeDetail>>('/notice/list', q),
  saveNotice: (b: NoticeSaveBody) => act<NoticeDetail>('/notice/save', b),
  publishNotice: (id: string) => act<unknown>('/notice/publish', { id }),
  withdrawNotice: (id: string) => act<unknown>('/notice/withdraw', { id }),
  personal: () => workflowApi.post<PersonalSettings>('/personal/get', {}),
  savePersonal: (b: PersonalSaveBody) => act<PersonalSettings>('/personal/save', b),
  approvals: (days = 30) => workflowApi.post<ApprovalStats>('/stats/approvals', { days }),
  upload: (b: { name: string; type: string; content: string }) => workflowApi.post<{ id: string; name: string; size: number }>('/attachment/upload', b),
  download: (id: string) => workflowApi.blob('/attachment/download', { id }),
};
