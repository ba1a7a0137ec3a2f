/**
 * The workflow service behind the routes: turns the signed-in user into an engine actor, runs the
 * action, and writes the operation log in the same transaction.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import {
  OperationLogType,
  isWorkflowAdmin,
  START_NODE_ID,
  type AdminShiftBody,
  type CcBody,
  type NextStep,
  type ReturnBody,
  type SaveDraftBody,
  type SendBody,
  type ShiftBody,
  type StartBody,
} from '@zhyy/shared';
import type { Database } from '../../db/schema.js';
import type { AuthUser } from '../../platform/context.js';
import { forbidden, refuse } from '../../platform/envelope.js';
import { WorkflowCatalog } from './catalog.js';
import { WorkflowDetails } from './detail.js';
import type { Actor, Moved } from './engine-core.js';
import { WorkflowEngine } from './engine.js';
import { NoticeService } from './notices.js';
import type { OutcomeRegistry } from './outcomes.js';
import { PersonalService } from './personal.js';
import { WorkflowQueries } from './queries.js';
import { definitionOf } from './repo.js';
import { wf, type WfDb } from './tables.js';

export const actorOf = (u: AuthUser): Actor => ({ id: u.id, name: u.name, roles: u.roles, deptId: u.deptId, deptName: u.deptName });

/** What the user is told after an action that moved the instance. */
export function movedMessage(m: Moved): string {
  if (m.waiting) return `已同意，等待${m.handlers.join('、')}会签`;
  if (m.state === 3) return '审批完成，流程已结束';
  return `已发送至「${m.nodeName}」：${m.handlers.join('、')}`;
}

export class WorkflowService {
  readonly db: WfDb;
  readonly engine: WorkflowEngine;
  readonly queries: WorkflowQueries;
  readonly details: WorkflowDetails;
  readonly catalog: WorkflowCatalog;
  readonly notices: NoticeService;
  readonly personal: PersonalService;

  constructor(
    private readonly app: FastifyInstance,
    outcomes: OutcomeRegistry,
  ) {
    this.db = wf(app.db.kysely);
    this.engine = new WorkflowEngine(app.db, outcomes);
    this.queries = new WorkflowQueries(this.db);
    this.details = new WorkflowDetails(this.db);
    this.catalog = new WorkflowCatalog(this.db);
    this.notices = new NoticeService(this.db, app.oplog);
    this.personal = new PersonalService(this.db, app.oplog);
  }

  /** Runs an engine action and its operation-log row in one transaction. */
  private async logged<T>(req: FastifyRequest, type: number, run: (trx: Kysely<Database>) => Promise<T>, describe: (r: T) => string): Promise<T> {
    return this.app.db.kysely.transaction().execute(async (trx) => {
      const r = await run(trx);
      await this.app.oplog.record(req, type, describe(r), trx);
      return r;
    });
  }

  /**
   * 费用报销审批 (FY01) runs for a reimbursement bill only: it is started and resubmitted from the bill
   * (我的报销), never as a bare form from 发起申请 or by sending the returned form from 我的待办.
   */
  private async billOnly(trx: Kysely<Database>, body: { workId?: number; flowNo?: string }, sending: boolean): Promise<void> {
    const k = wf(trx);
    if (!body.workId) {
      const t = await k.selectFrom('wf_templates').select('record_type').where('flow_no', '=', body.flowNo ?? '').where('is_current', '=', 1).executeTakeFirst();
      if (t?.record_type === 'reimbursement') throw refuse('费用报销请在「我的报销」中填写报销单并提交');
      return;
    }
    const i = await k.selectFrom('wf_instances').select(['record_type', 'node_id', 'state']).where('work_id', '=', body.workId).executeTakeFirst();
    if (i?.record_type === 'reimbursement' && (!sending || i.node_id === START_NODE_ID)) throw refuse('请在「我的报销」中修改报销单后重新提交');
  }

  saveDraft(req: FastifyRequest, user: AuthUser, body: SaveDraftBody) {
    return this.logged(req, OperationLogType.add, async (trx) => (await this.billOnly(trx, body, false), this.engine.saveDraft(actorOf(user), body, trx)), (r) => `保存流程草稿：${body.flowNo}（流程号 ${r.workId}）`);
  }

  start(req: FastifyRequest, user: AuthUser, body: StartBody) {
    return this.logged(req, OperationLogType.add, async (trx) => (await this.billOnly(trx, body, false), this.engine.start(actorOf(user), body, trx)), (r) => `发起流程：${body.flowNo}（流程号 ${r.workId}）`);
  }

  send(req: FastifyRequest, user: AuthUser, body: SendBody) {
    return this.logged(req, OperationLogType.edit, async (trx) => (await this.billOnly(trx, body, true), this.engine.send(actorOf(user), body, trx)), () => `审批同意（流程号 ${body.workId}）`);
  }

  returnTo(req: FastifyRequest, user: AuthUser, body: ReturnBody) {
    return this.logged(req, OperationLogType.edit, (trx) => this.engine.returnTo(actorOf(user), body, trx), (r) => `退回流程至「${r.nodeName}」（流程号 ${body.workId}）：${body.reason}`);
  }

  shift(req: FastifyRequest, user: AuthUser, body: ShiftBody) {
    return this.logged(req, OperationLogType.edit, (trx) => this.engine.shift(actorOf(user), body, trx), (r) => `移交待办（流程号 ${body.workId}）给${r.handlers.join('、')}：${body.reason}`);
  }

  undo(req: FastifyRequest, user: AuthUser, workId: number) {
    return this.logged(req, OperationLogType.edit, (trx) => this.engine.undo(actorOf(user), workId, trx), () => `撤销发送（流程号 ${workId}）`);
  }

  withdraw(req: FastifyRequest, user: AuthUser, workId: number) {
    return this.logged(req, OperationLogType.edit, (trx) => this.engine.withdraw(actorOf(user), workId, trx), () => `撤回流程（流程号 ${workId}）`);
  }

  press(req: FastifyRequest, user: AuthUser, workId: number, note?: string) {
    return this.logged(req, OperationLogType.edit, (trx) => this.engine.press(actorOf(user), workId, note, trx), (names) => `催办（流程号 ${workId}）：${names.join('、')}`);
  }

  cc(req: FastifyRequest, user: AuthUser, body: CcBody) {
    return this.logged(req, OperationLogType.edit, (trx) => this.engine.cc(actorOf(user), body, trx), (names) => `抄送（流程号 ${body.workId}）：${names.join('、')}`);
  }

  deleteDraft(req: FastifyRequest, user: AuthUser, workId: number) {
    return this.logged(req, OperationLogType.delete, (trx) => this.engine.deleteDraft(actorOf(user), workId, trx), () => `删除流程草稿（流程号 ${workId}）`);
  }

  adminShift(req: FastifyRequest, user: AuthUser, body: AdminShiftBody) {
    if (!isWorkflowAdmin(user.roles)) throw forbidden();
    return this.logged(req, OperationLogType.edit, (trx) =>
      this.engine.adminShift(actorOf(user), body, trx), (r) => `管理员移交流程「${r.title}」（流程号 ${body.workId}）给${r.handlers.join('、')}，原因：${body.reason}`);
  }

  adminDelete(req: FastifyRequest, user: AuthUser, workId: number, reason: string) {
    if (!isWorkflowAdmin(user.roles)) throw forbidden();
    return this.logged(req, OperationLogType.delete, (trx) =>
      this.engine.adminDelete(actorOf(user), workId, reason, trx), (r) => `管理员删除流程「${r.title}」（流程号 ${workId}），原因：${reason}`);
  }

  /** Where a send leads: from the user's work item, or from a template and the values of a start form. */
  async nextStep(user: AuthUser, q: { workId?: number; flowNo?: string; form?: Record<string, unknown> }): Promise<NextStep> {
    if (q.workId) {
      const inst = await this.details.visible(q.workId, user);
      const def = definitionOf(await this.db.selectFrom('wf_templates').select('definition').where('id', '=', inst.template_id).executeTakeFirstOrThrow());
      const node = def.nodes.find((n) => n.id === inst.node_id) ?? def.nodes[0]!;
      const values = q.form ?? (JSON.parse(inst.form_data) as Record<string, unknown>);
      return this.engine.nextStep(def, node, values, { id: inst.starter_id, deptId: inst.dept_id });
    }
    const tpl = await this.catalog.template(q.flowNo ?? '');
    const def = { form: tpl.form, nodes: tpl.nodes };
    const start = def.nodes.find((n) => n.id === START_NODE_ID)!;
    return this.engine.nextStep(def, start, q.form ?? {}, { id: user.id, deptId: user.deptId });
  }

  /** The web route of a work item's form, or `err@reason` (the workflow host's string answer). */
  async formUrl(user: AuthUser, workId: number): Promise<string> {
    try {
      const inst = await this.details.visible(workId, user);
      if (inst.state === 1) return `/flow/start?workId=${workId}`;
      return `/flow/todolist?workId=${workId}`;
    } catch (e) {
      return `err@${e instanceof Error ? e.message : '无法打开该流程'}`;
    }
  }
}
