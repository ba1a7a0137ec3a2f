/**
 * The one small interface other areas use (`app.workflow`): start an approval for a business record,
 * learn its outcome, and look up the instance of a record. See docs/workflow.md.
 */
import type { Kysely } from 'kysely';
import { FlowState, type FlowStateValue } from '@zhyy/shared';
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
  /** Called inside the action's transaction on complete, returned (to the starter), withdrawn and deleted. */
  onOutcome(recordType: string, handler: OutcomeHandler): () => void;
  /** The same for every instance of a template, started for a record or from 发起申请 (e.g. KP01 开票申请). */
  onFlowOutcome(flowNo: string, handler: FlowOutcomeHandler): () => void;
  /** The latest instance of a record (any state), or null. */
  instanceOf(recordType: string, recordId: string, trx?: Kysely<Database>): Promise<RecordInstance | null>;
}

export function createFacade(db: Kysely<Database>, engine: WorkflowEngine, outcomes: OutcomeRegistry): WorkflowFacade {
  return {
    async startForRecord(input) {
      const k = wf(input.trx ?? db);
      const u = await k
        .selectFrom('users as u')
        .leftJoin('departments as d', 'd.id', 'u.dept_id')
        .select(['u.id', 'u.name', 'u.dept_id', 'u.status', 'd.name as dept'])
        .where('u.id', '=', input.starterId)
        .executeTakeFirst();
      if (!u || u.status !== 1) throw refuse('发起人不存在或已停用');
      const roles = (await k.selectFrom('user_roles').select('role').where('user_id', '=', u.id).execute()).map((r) => r.role);
      const actor: Actor = { id: u.id, name: u.name, roles, deptId: u.dept_id, deptName: u.dept ?? '' };
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
