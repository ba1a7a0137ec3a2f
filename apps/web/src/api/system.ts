/** System administration calls (issue 4): users, departments, roles, online users, locations, logs, reports. */
import type {
  AiStatResult,
  ConsumeTimeItem,
  ConsumeTimeQuery,
  DeptDetail,
  DeptNode,
  DeptSaveInput,
  FilingCalendarSaveBody,
  FilingCalendarView,
  FileExportLogRow,
  FileExportStatRow,
  GeoStatRow,
  OnlineSession,
  OperationLogRow,
  OrgTreeNode,
  PageResult,
  ResetPasswordResult,
  RoleMember,
  RoleSummary,
  SignInLocationRow,
  SyncLogDetail,
  SyncLogPage,
  UserChoice,
  UserDetail,
  UserRow,
  UserSaveInput,
  UserSaveResult,
} from '@zhyy/shared';
import { api, workflowApi } from './clients';
import type { RequestOptions } from './http';

/** Filters and paging as the list calls take them; blank values are left out by the server. */
export type ListParams = Record<string, unknown> & { pageIndex: number; pageSize: number };
type Body = Record<string, unknown>;

export const systemApi = {
  filingCalendar: () => api.post<FilingCalendarView>('/system/filing-calendar/list', {}),
  saveFilingCalendar: (body: FilingCalendarSaveBody) => api.request<FilingCalendarView>('/system/filing-calendar/save', body),
  deleteFilingCalendar: (year: number) => api.request<FilingCalendarView>('/system/filing-calendar/delete', { year }),
  users: (p: ListParams) => api.post<PageResult<UserRow>>('/user/list', p),
  userDetail: (id: string, options?: RequestOptions) => api.post<UserDetail>('/user/detail', { id }, options),
  saveUser: (body: UserSaveInput) => api.request<UserSaveResult>('/user/save', body),
  resetPassword: (id: string) => api.post<ResetPasswordResult>('/user/reset-password', { id }),
  setUserStatus: (id: string, status: 0 | 1) => api.request<{ revokedSessions: number }>('/user/set-status', { id, status }),
  deleteUser: (id: string) => api.request<unknown>('/user/delete', { id }),
  exportUsers: (p: Body) => api.blob('/user/export', p),
  chooseUsers: (keyword: string, deptId?: string) => api.post<UserChoice[]>('/user/choose-list', { keyword, deptId, limit: 50 }),
  orgTree: () => api.post<DeptNode[]>('/user/user-org-tree-list'),
  userTree: () => api.post<OrgTreeNode[]>('/user/list-for-user-tree'),

  deptTree: () => api.post<DeptNode[]>('/dept/tree'),
  deptDetail: (id: string) => api.post<DeptDetail>('/dept/detail', { id }),
  saveDept: (body: DeptSaveInput) => api.request<{ id: string }>('/dept/save', body),
  deleteDept: (id: string) => api.request<unknown>('/dept/delete', { id }),

  roles: () => api.post<RoleSummary[]>('/role/list'),
  roleMembers: (role: string) => api.post<RoleMember[]>('/role/members', { role }),
  addRoleMembers: (role: string, userIds: string[]) => api.request<{ added: number }>('/role/add-members', { role, userIds }),
  removeRoleMember: (role: string, userId: string) => api.request<unknown>('/role/remove-member', { role, userId }),

  online: (p: ListParams) => api.post<PageResult<OnlineSession>>('/useronline/list', p),
  forceLogout: (sessionId: string) => api.request<unknown>('/useronline/force-logout', { sessionId }),

  signIns: (p: ListParams) => api.post<PageResult<SignInLocationRow>>('/geolocation/list', p),
  signInStatistic: (p: Body) => api.post<GeoStatRow[]>('/geolocation/statistic', p),

  operationLogs: (p: ListParams) => api.post<PageResult<OperationLogRow>>('/syslog/list', p),
  exportOperationLogs: (p: Body) => api.blob('/syslog/export', p),
  syncLogs: (p: ListParams) => api.post<SyncLogPage>('/syslog/integratedsync-log', p),
  syncLogDetail: (id: string) => api.post<SyncLogDetail>('/syslog/integratedsync-log-details', { id }),
  fileExports: (p: ListParams) => api.post<PageResult<FileExportLogRow>>('/syslog/file-export-log', p),
  fileExportStatistic: (p: Body) => api.post<FileExportStatRow[]>('/syslog/file-export-log-statistic', p),
  aiStatistic: (p: Body) => api.post<AiStatResult>('/syslog/ai-interface-statistic', p),
  exportAiStatistic: (p: Body) => api.blob('/syslog/export-ai-interface-statistic', p),

  /** One page of to-do items with their waiting time, from the workflow service (issue 5); the page handles errors. */
  consumeTime: (p: ConsumeTimeQuery) => workflowApi.post<PageResult<ConsumeTimeItem>>('/consumetime/list', p, { silent: true }),
};
