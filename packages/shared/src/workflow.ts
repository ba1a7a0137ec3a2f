/**
 * The workflow service's vocabulary (DOMAIN.md "Workflow (CCFlow-style)"): instance states, work-item
 * states, track actions, and the shape of a flow template (form fields and nodes).
 */
import { defineEnum, type EnumValue } from './enum.js';
import { ADMIN_ROLE, ADMINISTRATOR } from './roles.js';

/** Instance states: 1 draft … 7 deleted (DOMAIN.md). */
export const FlowState = defineEnum({
  draft: [1, '草稿'],
  running: [2, '运行中'],
  complete: [3, '已完成'],
  hungUp: [4, '挂起'],
  returned: [5, '已退回'],
  shifted: [6, '已移交'],
  deleted: [7, '已删除'],
});
export type FlowStateValue = EnumValue<typeof FlowState>;

/** States in which an instance still has open work (在途). */
export const OPEN_FLOW_STATES: readonly FlowStateValue[] = [FlowState.running, FlowState.returned, FlowState.shifted];

/** A handler's work item at one node. */
export const WorkItemState = defineEnum({
  open: [0, '待处理'],
  done: [1, '已同意'],
  returned: [2, '已退回'],
  shifted: [3, '已移交'],
  cancelled: [4, '已取消'],
});

/** Every action of the track. */
export const TrackAction = defineEnum({
  save: ['save', '保存草稿'],
  start: ['start', '发起'],
  send: ['send', '同意'],
  return: ['return', '退回'],
  shift: ['shift', '移交'],
  undo: ['undo', '撤销发送'],
  press: ['press', '催办'],
  cc: ['cc', '抄送'],
  delete: ['delete', '删除'],
  withdraw: ['withdraw', '撤回'],
  complete: ['complete', '流程结束'],
  adminShift: ['adminShift', '管理员移交'],
  adminDelete: ['adminDelete', '管理员删除'],
  /** The applicant was among a step's approvers: the step went to someone else (issue 27). */
  passOver: ['passOver', '自动转交'],
});
export type TrackActionValue = EnumValue<typeof TrackAction>;

/** Who manages every instance and publishes notices: roles 1 and 3 (and admin). */
export const WORKFLOW_ADMIN_ROLES = [ADMIN_ROLE, ADMINISTRATOR, '3'] as const;
export function isWorkflowAdmin(roles: readonly string[]): boolean {
  return roles.some((r) => (WORKFLOW_ADMIN_ROLES as readonly string[]).includes(r));
}

// ---------------------------------------------------------------- form definition

export type ScalarFieldType = 'text' | 'textarea' | 'number' | 'money' | 'date' | 'select';
export type FieldType = ScalarFieldType | 'dateRange' | 'user' | 'dept' | 'attachments' | 'table';

export interface FieldBase {
  /** Key in the form values (letters, digits, underscore). */
  key: string;
  label: string;
  required?: boolean;
  /** Shown under the input. */
  help?: string;
  /** Text length limit (text, textarea). */
  maxLength?: number;
  /** Number range (number, money in 分). */
  min?: number;
  max?: number;
  /** Select options. */
  options?: string[];
  /** Grid span in the form: 1 half row, 2 full row. */
  span?: 1 | 2;
}

export interface ColumnDef extends FieldBase {
  type: ScalarFieldType;
}

export interface FieldDef extends FieldBase {
  type: FieldType;
  /** Detail table columns. */
  columns?: ColumnDef[];
  /** Sum of this money column is written to `sumInto` (a money field) by the form. */
  sumColumn?: string;
  sumInto?: string;
  /**
   * A number field derived from a dateRange field (the key given): its working days by the shared
   * work calendar (work-calendar.ts). The form shows it computed; the server fills it in when
   * missing and refuses a value that contradicts the dates. With halfDays, half a day less at either
   * end of the range is allowed (请假天数 2.5 for three working days).
   */
  workdaysOf?: string;
  halfDays?: boolean;
}

export interface UserRef {
  id: string;
  name: string;
}
export interface DeptRef {
  id: string;
  name: string;
}
export interface AttachmentRef {
  id: string;
  name: string;
  size: number;
}

export type FormValues = Record<string, unknown>;

// ---------------------------------------------------------------- node definition

export type HandlerRule =
  | { kind: 'role'; roles: string[] }
  | { kind: 'deptManager' }
  | { kind: 'parentManager' }
  | { kind: 'users'; loginNames: string[] }
  | { kind: 'chosen' }
  | { kind: 'starter' };

export const HANDLER_RULE_LABELS: Record<HandlerRule['kind'], string> = {
  role: '角色',
  deptManager: '发起人部门负责人',
  parentManager: '上级部门负责人',
  users: '指定人员',
  chosen: '发送人选择',
  starter: '发起人',
};

export type CompareOp = 'gt' | 'gte' | 'lt' | 'lte' | 'eq' | 'ne' | 'in';

export type Condition =
  | { field: string; op: CompareOp; value: number | string | string[] }
  | { all: Condition[] }
  | { any: Condition[] };

export interface FlowRoute {
  to: string;
  /** Absent: the default route. Routes are tried in order; the first that holds is taken. */
  when?: Condition;
  /** Shown in the designer view and the track, e.g. 金额超过5万元. */
  label?: string;
}

/** The start node's id in every definition. */
export const START_NODE_ID = 'start';

export type NodeType = 'start' | 'approval' | 'cc' | 'end';
/** single: one handler; countersign: all must approve; any: the first to approve decides. */
export type ApprovalMode = 'single' | 'countersign' | 'any';

export interface NodeDef {
  id: string;
  name: string;
  type: NodeType;
  handler?: HandlerRule;
  mode?: ApprovalMode;
  next: FlowRoute[];
}

export interface FlowDefinition {
  form: FieldDef[];
  nodes: NodeDef[];
}

export const APPROVAL_MODE_LABELS: Record<ApprovalMode, string> = { single: '单人审批', countersign: '会签（全部同意）', any: '或签（任一人同意）' };
