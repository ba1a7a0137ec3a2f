/** The workflow service under /api/miswf/workflow/ (SPEC section 7): request bodies and answers. */
import { z } from '../zod-locale.js';
import type { FieldDef, FlowStateValue, NodeDef, TrackActionValue } from '../workflow.js';
import { INT_MAX, PageQuery, isoDay, text } from './common.js';
import { emailField, mobileField } from '../contact-rules.js';

export const WorkId = z.coerce.number({ error: '流程编号应为数字' }).int('流程编号应为整数').positive('流程编号不正确').max(INT_MAX, '流程编号不正确');
const Opinion = text().trim().max(500, '意见不能超过500个字');
const Reason = (what: string) => text().trim().min(1, `请填写${what}`).max(500, `${what}不能超过500个字`);
const UserId = text().min(1, '请选择人员').max(64);
const FlowNo = text().trim().min(1, '请选择流程').max(32);
const IsoDay = isoDay();

export const TodoBody = z.object({ newPublic: z.boolean().optional() });
export const WorkBody = z.object({ workId: WorkId });
export type WorkBody = z.infer<typeof WorkBody>;

/** Save a draft (new when workId is absent) or start (from a draft when workId is given). */
export const SaveDraftBody = z.object({
  workId: WorkId.optional(),
  flowNo: FlowNo,
  title: text().trim().max(100, '标题不能超过100个字').optional(),
  form: z.record(text(), z.unknown()).default({}),
});
export type SaveDraftBody = z.infer<typeof SaveDraftBody>;
export const StartBody = SaveDraftBody.extend({ toUserIds: z.array(UserId).max(50).optional() });
export type StartBody = z.infer<typeof StartBody>;

export const SendBody = z.object({
  workId: WorkId,
  opinion: Opinion.optional(),
  /** The handlers of the next node when its rule is "chosen by the sender". */
  toUserIds: z.array(UserId).max(50, '最多选择50人').optional(),
  /** Changed form values (the start node after a return). */
  form: z.record(text(), z.unknown()).optional(),
});
export type SendBody = z.infer<typeof SendBody>;
export const ReturnBody = z.object({ workId: WorkId, toNodeId: text().min(1, '请选择退回节点').max(32), reason: Reason('退回原因') });
export type ReturnBody = z.infer<typeof ReturnBody>;
export const ShiftBody = z.object({ workId: WorkId, toUserId: UserId, reason: Reason('移交原因') });
export type ShiftBody = z.infer<typeof ShiftBody>;
export const CcBody = z.object({ workId: WorkId, userIds: z.array(UserId).min(1, '请选择抄送人').max(50, '最多抄送50人'), note: Opinion.optional() });
export type CcBody = z.infer<typeof CcBody>;
export const PressBody = z.object({ workId: WorkId, note: Opinion.optional() });
export const AdminShiftBody = z.object({ workId: WorkId, fromUserId: UserId.optional(), toUserId: UserId, reason: Reason('移交原因') });
export type AdminShiftBody = z.infer<typeof AdminShiftBody>;
export const AdminDeleteBody = z.object({ workId: WorkId, reason: Reason('删除原因') });

export const ListScope = z.enum(['todo', 'running', 'draft', 'mine', 'involved', 'cc', 'all']);
export type ListScope = z.infer<typeof ListScope>;
export const ListBody = PageQuery.extend({
  scope: ListScope.default('all'),
  flowNo: text().max(32).optional(),
  title: text().trim().max(100).optional(),
  starter: text().trim().max(64).optional(),
  deptId: text().max(64).optional(),
  state: z.coerce.number().int().min(1).max(7).optional(),
  from: IsoDay.optional(),
  to: IsoDay.optional(),
});
export type ListBody = z.infer<typeof ListBody>;

export const FlowDataBody = z.object({ domain: text().max(32).optional() });
export const FlowTemplateBody = z.object({ flowNo: FlowNo });
export const EmpListBody = z.object({ keyword: text().trim().max(50).optional(), deptId: text().max(64).optional() });
export const ConsumeTimeBody = PageQuery.extend({ workId: WorkId.optional(), flowNo: text().max(32).optional(), from: IsoDay.optional(), to: IsoDay.optional() });
export type ConsumeTimeBody = z.infer<typeof ConsumeTimeBody>;
export const StatsBody = z.object({ days: z.coerce.number().int().min(1).max(365).default(30) });

export const NoticeSaveBody = z.object({
  id: text().max(64).optional(),
  title: text().trim().min(1, '请填写公告标题').max(100, '标题不能超过100个字'),
  infoColumnName: text().trim().min(1, '请选择栏目').max(20, '栏目不能超过20个字'),
  content: text().trim().min(1, '请填写公告内容').max(5000, '内容不能超过5000个字'),
});
export type NoticeSaveBody = z.infer<typeof NoticeSaveBody>;
export const NoticeIdBody = z.object({ id: text().min(1, '缺少公告ID').max(64) });
export const NoticeListBody = PageQuery.extend({ keyword: text().trim().max(50).optional(), state: z.coerce.number().int().min(0).max(1).optional() });

export const PersonalSaveBody = z.object({
  phone: mobileField('手机号'),
  email: emailField('邮箱'),
  defaultOpinion: text().trim().max(200, '默认意见不能超过200个字'),
});
export type PersonalSaveBody = z.infer<typeof PersonalSaveBody>;

export const UploadBody = z.object({
  name: text().trim().min(1, '缺少文件名').max(200, '文件名过长'),
  type: text().max(100).default('application/octet-stream'),
  /** The file as base64 (at most 3 MiB of content). */
  content: text().min(1, '文件为空').max(4 * 1024 * 1024, '单个文件不能超过3MB'),
});
export const AttachmentIdBody = z.object({ id: text().min(1).max(64) });

// ---------------------------------------------------------------- answers

export interface TodoItem {
  WorkID: number;
  Title: string;
  FlowNo: string;
  FlowName: string;
  NodeName: string;
  StarterName: string;
  DeptName: string;
  /** When the work arrived at me. */
  ArrivedAt: string;
  Pressed: boolean;
}

export interface TodoCounts {
  Todolist_Draft: number;
  Todolist_Runing: number;
  Todolist_MyFlow: number;
  Todolist_EmpWorks: number;
  Todolist_MyStartFlow: number;
}
export type TodoAnswer = TodoCounts & { items: TodoItem[] };

export interface NoticeItem {
  id: string;
  title: string;
  infoColumnName: string;
  publishedAt: string | null;
  publisherName: string;
}
export interface NoticeDetail extends NoticeItem {
  content: string;
  state: number;
  updatedAt: string;
}

export interface InstanceRow {
  WorkID: number;
  Title: string;
  FlowNo: string;
  FlowName: string;
  State: FlowStateValue;
  NodeName: string;
  Handlers: string;
  StarterName: string;
  DeptName: string;
  CreatedAt: string;
  UpdatedAt: string;
  FinishedAt: string | null;
  /** For the to-do scope: when the work arrived and whether it was pressed. */
  ArrivedAt?: string;
  Pressed?: boolean;
}

export interface StartFlow {
  flowNo: string;
  name: string;
  category: string;
  description: string;
  version: number;
  startedByMe: number;
}
export interface StartFlowsAnswer {
  groups: Array<{ category: string; flows: StartFlow[] }>;
  frequent: StartFlow[];
}

export interface FlowTemplate {
  flowNo: string;
  name: string;
  category: string;
  description: string;
  version: number;
  form: FieldDef[];
  nodes: NodeDef[];
}

export interface TrackEntry {
  id: string;
  action: TrackActionValue;
  actionName: string;
  nodeId: string;
  nodeName: string;
  actorName: string;
  deptName: string;
  opinion: string;
  toNodeName: string;
  toNames: string;
  createdAt: string;
}

export interface Permissions {
  send: boolean;
  return: boolean;
  shift: boolean;
  cc: boolean;
  undo: boolean;
  withdraw: boolean;
  press: boolean;
  delete: boolean;
  edit: boolean;
  admin: boolean;
}

export interface NextStep {
  nodeId: string;
  nodeName: string;
  type: string;
  /** True when the sender picks the handlers. */
  choose: boolean;
  handlers: Array<{ id: string; name: string; deptName: string }>;
  mode: string;
}

export interface WorkDetail {
  WorkID: number;
  Title: string;
  FlowNo: string;
  FlowName: string;
  Version: number;
  State: FlowStateValue;
  NodeId: string;
  NodeName: string;
  Handlers: Array<{ id: string; name: string; state: number }>;
  StarterId: string;
  StarterName: string;
  DeptName: string;
  CreatedAt: string;
  FinishedAt: string | null;
  RecordType: string | null;
  /** The business record the instance was started for (e.g. the reimbursement bill's id). */
  RecordId: string | null;
  form: FieldDef[];
  nodes: NodeDef[];
  values: Record<string, unknown>;
  can: Permissions;
  /** Earlier nodes this instance passed through (targets of a return). */
  returnTargets: Array<{ id: string; name: string }>;
  track: TrackEntry[];
  defaultOpinion: string;
}

export interface CheckItem {
  nodeId: string;
  nodeName: string;
  actorName: string;
  deptName: string;
  opinion: string;
  action: TrackActionValue;
  actionName: string;
  createdAt: string;
}

export interface ConsumeRow {
  WorkID: number;
  Title: string;
  FlowName: string;
  NodeName: string;
  HandlerName: string;
  DeptName: string;
  ArrivedAt: string;
  DoneAt: string | null;
  Minutes: number;
  State: number;
}

export interface PersonalSettings {
  name: string;
  loginName: string;
  deptName: string;
  position: string;
  phone: string;
  email: string;
  defaultOpinion: string;
}

export interface ApprovalStats {
  days: Array<{ day: string; send: number; return: number }>;
}

export interface EmpItem {
  id: string;
  name: string;
  loginName: string;
  deptName: string;
  position: string;
}
export interface DeptItem {
  id: string;
  name: string;
  parentId: string | null;
  managerName: string;
}
