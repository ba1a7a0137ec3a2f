/**
 * The workflow state machine: which action is allowed in which instance state (TRANSITIONS), and who
 * may take it (ACTOR_RULES). The engine asks `whyNot(action, facts)` before changing anything and
 * refuses with the answer; the detail view asks the same function to show only the buttons that work.
 */
import { FlowState, isWorkflowAdmin, type FlowStateValue } from '@zhyy/shared';

export type FlowAction = 'saveDraft' | 'start' | 'send' | 'return' | 'shift' | 'undo' | 'withdraw' | 'press' | 'cc' | 'delete' | 'adminShift' | 'adminDelete';

const { draft, running, complete, hungUp, returned, shifted } = FlowState;
const OPEN = [running, returned, shifted] as const;

export interface Transition {
  /** States the action may start from. */
  from: readonly FlowStateValue[];
  /** The state it leads to ('same' keeps it; several when the engine decides, e.g. send completes or not). */
  to: readonly FlowStateValue[] | 'same';
  label: string;
}

/** The explicit table of allowed transitions. */
export const TRANSITIONS: Readonly<Record<FlowAction, Transition>> = {
  saveDraft: { from: [draft], to: [draft], label: '保存草稿' },
  start: { from: [draft], to: [running, complete], label: '发起' },
  send: { from: OPEN, to: [running, complete], label: '发送' },
  return: { from: OPEN, to: [returned], label: '退回' },
  shift: { from: OPEN, to: [shifted], label: '移交' },
  undo: { from: OPEN, to: [running, returned], label: '撤销发送' },
  withdraw: { from: [running], to: [draft], label: '撤回' },
  press: { from: OPEN, to: 'same', label: '催办' },
  cc: { from: [...OPEN, complete], to: 'same', label: '抄送' },
  delete: { from: [draft], to: [FlowState.deleted], label: '删除' },
  adminShift: { from: OPEN, to: [shifted], label: '移交' },
  adminDelete: { from: [draft, ...OPEN, hungUp], to: [FlowState.deleted], label: '删除' },
};

/** What the rules need to know about an instance and the person acting. */
export interface Facts {
  state: FlowStateValue;
  actorId: string;
  actorRoles: readonly string[];
  starterId: string;
  /** The actor holds an open work item at the current node. */
  holdsOpenItem: boolean;
  /** The instance stands at its start node (returned to the starter). */
  atStart: boolean;
  /** The actor took part (started, handled, or was copied). */
  participant: boolean;
  /** The latest action that moved the instance (start, send, return, shift, undo, withdraw, admin shift). */
  lastMove: { action: string; actorId: string | null; fromStart: boolean } | null;
  /** When the instance was last pressed, ISO. */
  lastPressAt: string | null;
  now: Date;
}

/** Pressing again within this time is refused. */
export const PRESS_INTERVAL_MS = 10 * 60 * 1000;

export function stateRefusal(action: FlowAction, state: FlowStateValue): string | null {
  const t = TRANSITIONS[action];
  if (t.from.includes(state)) return null;
  return `流程当前状态为「${FlowState.label(state)}」，不能${t.label}`;
}

const ACTOR_RULES: Readonly<Record<FlowAction, (f: Facts) => string | null>> = {
  saveDraft: (f) => (f.actorId === f.starterId ? null : '只有发起人可以修改草稿'),
  start: (f) => (f.actorId === f.starterId ? null : '只有发起人可以提交该草稿'),
  send: (f) => (f.holdsOpenItem ? null : '您不是当前节点的处理人，不能审批'),
  return: (f) => {
    if (!f.holdsOpenItem) return '您不是当前节点的处理人，不能退回';
    return f.atStart ? '申请已退回到发起人，请修改后重新提交，不能再退回' : null;
  },
  shift: (f) => {
    if (!f.holdsOpenItem) return '您不是当前节点的处理人，不能移交';
    return f.atStart ? '申请已退回到发起人，只能由发起人修改后重新提交，不能移交' : null;
  },
  undo: (f) => {
    if (!f.lastMove || f.lastMove.action !== 'send' || f.lastMove.actorId !== f.actorId) return '只能撤销自己最近一次发送，且下一节点尚未处理';
    return null;
  },
  withdraw: (f) => {
    if (f.actorId !== f.starterId) return '只有发起人可以撤回';
    const m = f.lastMove;
    const untouched = m && m.actorId === f.starterId && (m.action === 'start' || (m.action === 'send' && m.fromStart));
    return untouched ? null : '已有人处理，不能撤回';
  },
  press: (f) => {
    if (f.actorId !== f.starterId) return '只有发起人可以催办';
    if (f.lastPressAt && f.now.getTime() - Date.parse(f.lastPressAt) < PRESS_INTERVAL_MS) return '10分钟内已催办过，请稍后再试';
    return null;
  },
  cc: (f) => (f.participant || f.holdsOpenItem ? null : '只有发起人或处理人可以抄送'),
  delete: (f) => (f.actorId === f.starterId ? null : '只有发起人可以删除草稿'),
  adminShift: (f) => (isWorkflowAdmin(f.actorRoles) ? null : '权限不足'),
  adminDelete: (f) => (isWorkflowAdmin(f.actorRoles) ? null : '权限不足'),
};

/** The refusal for an action (state first, then the actor), or null when it is allowed. */
export function whyNot(action: FlowAction, f: Facts): string | null {
  return stateRefusal(action, f.state) ?? ACTOR_RULES[action](f);
}
