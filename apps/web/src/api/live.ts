/** The counts behind the badges and the presence heartbeat: every failure here is silent (SPEC section 8). */
import type { HeartBeatResult, MessageUnreadCount } from '@zhyy/shared';
import { api, oaApi, pmsApi, workflowApi } from './clients';
import { costOrderApi } from './cost';

export interface WorkflowTodoItem {
  WorkID: number | string;
  Title: string;
}

export interface WorkflowTodo {
  Todolist_Draft?: number;
  Todolist_Runing?: number;
  Todolist_MyFlow?: number;
  Todolist_EmpWorks?: number;
  Todolist_MyStartFlow?: number;
  items?: WorkflowTodoItem[];
}

export interface PublicNotice {
  id: string | number;
  title: string;
  infoColumnName?: string;
}

const silent = { silent: true } as const;

export const fetchWorkflowTodo = () => workflowApi.post<WorkflowTodo>('/todo', {}, silent);
export const fetchNotices = () => workflowApi.post<{ items?: PublicNotice[] }>('/todo', { newPublic: true }, silent);
export const fetchInvoiceCounts = () => api.post<Record<string, unknown>>('/invoice/billing-cancellation-count', {}, silent);
/** 待审核成本单's count: the cost client's own call (silent too). */
export const fetchCostTodo = () => costOrderApi.todo();
export const fetchOaTodo = (loginName: string) => oaApi.get<number>(`/todo-num/${encodeURIComponent(loginName)}`, silent);
export const fetchPmsTodo = (loginName: string) => pmsApi.get<number>(`/todo-num/${encodeURIComponent(loginName)}`, silent);
export const heartBeat = () => api.post<HeartBeatResult>('/useronline/heartBeat', {}, silent);

/** The signed-in user's unread 站内消息 (the navbar bell). */
export const fetchUnreadMessages = () => api.post<MessageUnreadCount>('/messages/unread-count', {}, silent);
