/**
 * The one small interface other areas use (`app.workflow`): start an approval for a business record,
 * learn its outcome, and look up the instance of a record. See docs/workflow.md.
 */
import type { Kysely } from 'kysely';
import { FlowState, TrackAction, WorkItemState, type FlowStateValue, type TrackEntry } from '@zhyy/shared';
import type { Database } from '../../db/schema.js';
import { refuse } from '../../platform/envelope.js';
import type { Actor, Moved } from './engine-core.js';
import type { WorkflowEngine } from './engine.js';
import type { FlowOutcomeHandler, OutcomeHandler, OutcomeRegistry } from './outcomes.js';
import { wf } from './tables.js';

export interface StartForRecordInput {
  /** The template, e.g. 'FY01' (费用报销审批). */
  flowNo: string;
  /** The owning area's record kind, e.g. 'reimbursement'; outcome handlers are registered per kind. */
  recordType: string;
  recordId: string;
  title: string;
  /** The user on whose behalf the flow starts (their department decides the managers). */
  starterId: string;
  /** Form values matching the template's form definition. */
  form: Record<string, unknown>;
  /** Handlers of the first node when its rule is "chosen by the sender". */
  toUserIds?: string[];
  /** The caller's transaction, so the record and the instance are written together. */
  trx?: Kysely<Database>;
}

export interface RecordInstance {
  workId: number;
  state: FlowStateValue;
  stateName: string;
  nodeName: string;
  handlerNames: string;
  finishedAt: string | null;
}

export interface WorkflowFacade {
  startForRecord(input: StartForRecordInput): Promise<Moved>;
  /**
   * Starts the record's approval, or resubmits it: a withdrawn instance (back in draft) is started
   * again; an instance returned to the starter is sent on with the new form. Same input as startForRecord.
   */
  submitForRecord(input: StartForRecordInput): Promise<Moved>;
  /** The starter takes the record's running instance back before anyone acted (the engine's withdraw). */
  withdrawForRecord(recordType: string, recordId: string, starterId: string, trx?: Kysely<Database>): Promise<Moved>;
  /** Deletes the record's approval draft (a withdrawn instance), if any, as its starter; outcome 'deleted'. */
  discardForRecord(recordType: string, recordId: string, starterId: string, trx?: Kysely<Database>): Promise<boolean>;
  /** Whether a user holds an open work item of the instance (current) or handled one (past). */
  handlerOf(workId: number, userId: string, trx?: Kysely<Database>): Promise<{ current: boolean; past: boolean }>;
  /** The instance's track (every action with its opinion), in order. */
  trackOf(workId: number): Promise<TrackEntry[]>;
  /** Called inside the action's transaction on complete, returned (to the starter), withdrawn and deleted. */
  onOutcome(recordType: string, handler: OutcomeHandler): () => void;
  /** The same for every instance of a template, started for a record or from 发起申请 (e.g. KP01 开票申请). */
  onFlowOutcome(flowNo: string, handler: FlowOutcomeHandler): () => void;
  /** The latest instance of a record (any state), or null. */
  instanceOf(recordType: string, recordId: string, trx?: Kysely<Database>): Promise<RecordInstance | null>;
}

export function createFacade(db: Kysely<Database>, engine: WorkflowEngine, outcomes: OutcomeRegistry): WorkflowFacade {
  async function actorOf(trx: Kysely<Database> | undefined, userId: string): Promise<Actor> {
    const k = wf(trx ?? db);
    const u = await k
      .selectFrom('users as u')
      .leftJoin('departments as d', 'd.id', 'u.dept_id')
      .select(['u.id', 'u.name', 'u.dept_id', 'u.status', 'd.name as dept'])
      .where('u.id', '=', userId)
      .executeTakeFirst();
    if (!u || u.status !== 1) throw refuse('发起人不存在或已停用');
    const roles = (await k.selectFrom('user_roles').select('role').where('user_id', '=', u.id).execute()).map((r) => r.role);
    return { id: u.id, name: u.name, roles, deptId: u.dept_id, deptName: u.dept ?? '' };
  }
  const liveOf = (trx: Kysely<Database> | undefined, recordType: string, recordId: string) =>
    wf(trx ?? db)
      .selectFrom('wf_instances')
      .select(['work_id', 'state'])
      .where('record_type', '=', recordType)
      .where('record_id', '=', recordId)
      .where('state', 'not in', [FlowState.complete, FlowState.deleted])
      .orderBy('work_id', 'desc')
      .executeTakeFirst();
  return {
    async submitForRecord(input) {
      const live = await liveOf(input.trx, input.recordType, input.recordId);
      if (!live) return this.startForRecord(input);
      const actor = await actorOf(input.trx, input.starterId);
      if (live.state === FlowState.draft) return engine.start(actor, { flowNo: input.flowNo, workId: Number(live.work_id), title: input.title, form: input.form, toUserIds: input.toUserIds }, input.trx);
      return engine.send(actor, { workId: Number(live.work_id), form: input.form, opinion: '重新提交', toUserIds: input.toUserIds }, input.trx);
    },
    async withdrawForRecord(recordType, recordId, starterId, trx) {
      const live = await liveOf(trx, recordType, recordId);
      if (!live) throw refuse('该单据没有进行中的审批流程');
      return engine.withdraw(await actorOf(trx, starterId), Number(live.work_id), trx);
    },
    async discardForRecord(recordType, recordId, starterId, trx) {
      const live = await liveOf(trx, recordType, recordId);
      if (!live) return false;
      if (live.state !== FlowState.draft) throw refuse('该单据的审批流程尚未结束，不能删除');
      await engine.deleteDraft(await actorOf(trx, starterId), Number(live.work_id), trx);
      return true;
    },
    async handlerOf(workId, userId, trx) {
      const items = await wf(trx ?? db).selectFrom('wf_work_items').select('state').where('work_id', '=', workId).where('handler_id', '=', userId).execute();
      return { current: items.some((i) => i.state === WorkItemState.open), past: items.some((i) => i.state !== WorkItemState.open) };
    },
    async trackOf(workId) {
      const rows = await wf(db).selectFrom('wf_tracks').selectAll().where('work_id', '=', workId).orderBy('seq').execute();
      return rows.map((r) => ({
        id: r.id,
        action: r.action as TrackEntry['action'],
        actionName: TrackAction.label(r.action),
        nodeId: r.node_id,
        nodeName: r.node_name,
        actorName: r.actor_name,
        deptName: r.dept_name,
        opinion: r.opinion,
        toNodeName: r.to_node_name,
        toNames: r.to_names,
        createdAt: r.created_at,
      }));
    },
    async startForRecord(input) {
      const actor = await actorOf(input.trx, input.starterId);
      return engine.start(actor, { flowNo: input.flowNo, title: input.title, form: input.form, toUserIds: input.toUserIds }, input.trx, {
        recordType: input.recordType,
        recordId: input.recordId,
      });
    },
    onOutcome: (recordType, handler) => outcomes.on(recordType, handler),
    onFlowOutcome: (flowNo, handler) => outcomes.onFlow(flowNo, handler),
    async instanceOf(recordType, recordId, trx) {
      const row = await wf(trx ?? db)
        .selectFrom('wf_instances')
        .select(['work_id', 'state', 'node_name', 'handler_names', 'finished_at'])
        .where('record_type', '=', recordType)
        .where('record_id', '=', recordId)
        .orderBy('work_id', 'desc')
        .executeTakeFirst();
      if (!row) return null;
      return {
        workId: Number(row.work_id),
        state: row.state as FlowStateValue,
        stateName: FlowState.label(row.state),
        nodeName: row.node_name,
        handlerNames: row.handler_names,
        finishedAt: row.finished_at,
      };
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The workflow service's interface for other areas (modules/workflow/facade.ts). */
    workflow: WorkflowFacade;
  }
}
