/**
 * One instance as a reader sees it: the form with its values, the current handlers, the actions the
 * reader may take (asked of the same state machine the engine uses), the track, the opinions per
 * node (workchecklist) and the time each node took (consumetime).
 */
import {
  FlowState,
  TrackAction,
  WorkItemState,
  START_NODE_ID,
  isWorkflowAdmin,
  minutesBetween,
  type CheckItem,
  type ConsumeRow,
  type ConsumeTimeBody,
  type FlowStateValue,
  type PageResult,
  type TrackEntry,
  type WorkDetail,
} from '@zhyy/shared';
import { forbidden, notFound } from '../../platform/envelope.js';
import { definitionOf, EngineRepo } from './repo.js';
import type { WfDb } from './tables.js';
import { gatherFacts } from './facts.js';
import { whyNot, type FlowAction } from './transitions.js';
import { shanghaiDayStartIso } from '../../platform/time.js';

export interface Reader {
  id: string;
  roles: readonly string[];
}

const OPINION_ACTIONS = ['start', 'send', 'return', 'shift', 'adminShift', 'adminDelete', 'withdraw', 'undo'];

export class WorkflowDetails {
  private readonly repo: EngineRepo;

  constructor(private readonly db: WfDb) {
    this.repo = new EngineRepo(db, false);
  }

  /** The instance when the reader may see it (participant, or roles 1 and 3); otherwise a refusal. */
  async visible(workId: number, reader: Reader) {
    const inst = await this.db.selectFrom('wf_instances').selectAll().where('work_id', '=', workId).executeTakeFirst();
    if (!inst || (inst.state === FlowState.deleted && !isWorkflowAdmin(reader.roles))) throw notFound('流程不存在或已删除');
    if (inst.state === FlowState.draft && inst.starter_id !== reader.id) throw forbidden();
    if (!isWorkflowAdmin(reader.roles) && !(await this.repo.isParticipant(workId, reader.id, inst.starter_id))) throw forbidden();
    return inst;
  }

  async track(workId: number): Promise<TrackEntry[]> {
    const rows = await this.db.selectFrom('wf_tracks').selectAll().where('work_id', '=', workId).orderBy('seq').execute();
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
  }

  async detail(workId: number, reader: Reader): Promise<WorkDetail> {
    const inst = await this.visible(workId, reader);
    const def = definitionOf(await this.repo.templateById(inst.template_id));
    const tpl = await this.db.selectFrom('wf_templates').select('version').where('id', '=', inst.template_id).executeTakeFirstOrThrow();
    const open = await this.repo.openItems(workId);
    const facts = await gatherFacts(this.repo, inst, def, reader, open, new Date());
    const may = (a: FlowAction) => whyNot(a, facts) === null;
    const order = new Map(def.nodes.map((n, i) => [n.id, i]));
    const traversed = (await this.repo.traversedNodes(workId)).filter((n) => n.id !== inst.node_id).sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
    const setting = await this.db.selectFrom('wf_user_settings').select('default_opinion').where('user_id', '=', reader.id).executeTakeFirst();
    return {
      WorkID: Number(inst.work_id),
      Title: inst.title,
      FlowNo: inst.flow_no,
      FlowName: inst.flow_name,
      Version: tpl.version,
      State: inst.state as FlowStateValue,
      NodeId: inst.node_id,
      NodeName: inst.node_name,
      Handlers: open.map((i) => ({ id: i.handler_id, name: i.handler_name, state: i.state })),
      StarterId: inst.starter_id,
      StarterName: inst.starter_name,
      DeptName: inst.dept_name,
      CreatedAt: inst.created_at,
      FinishedAt: inst.finished_at,
      RecordType: inst.record_type,
      RecordId: inst.record_id,
      form: def.form,
      nodes: def.nodes,
      values: JSON.parse(inst.form_data) as Record<string, unknown>,
      can: {
        send: may('send'),
        return: may('return') && traversed.length > 0,
        shift: may('shift'),
        cc: may('cc'),
        undo: may('undo'),
        withdraw: may('withdraw'),
        press: may('press'),
        delete: may('delete'),
        edit: inst.state === FlowState.draft ? may('saveDraft') : may('send') && facts.atStart,
        admin: may('adminShift') || may('adminDelete'),
      },
      returnTargets: traversed,
      track: await this.track(workId),
      defaultOpinion: setting?.default_opinion ?? '',
    };
  }

  /** The opinions given at each node, in order (workchecklist). */
  async checklist(workId: number): Promise<CheckItem[]> {
    return (await this.track(workId))
      .filter((t) => OPINION_ACTIONS.includes(t.action))
      .map((t) => ({ nodeId: t.nodeId, nodeName: t.nodeName, actorName: t.actorName, deptName: t.deptName, opinion: t.opinion, action: t.action, actionName: t.actionName, createdAt: t.createdAt }));
  }

  /** Time per node and handler: one instance (readers of it) or every instance (roles 1 and 3). */
  async consumeTime(q: ConsumeTimeBody, reader: Reader): Promise<PageResult<ConsumeRow>> {
    if (q.workId) await this.visible(q.workId, reader);
    else if (!isWorkflowAdmin(reader.roles)) throw forbidden();
    let base = this.db
      .selectFrom('wf_work_items as w')
      .innerJoin('wf_instances as i', 'i.work_id', 'w.work_id')
      .where('w.node_id', '!=', START_NODE_ID)
      .where('w.state', '!=', WorkItemState.cancelled)
      .where('i.state', '!=', FlowState.deleted);
    if (q.workId) base = base.where('w.work_id', '=', q.workId);
    if (q.flowNo) base = base.where('i.flow_no', '=', q.flowNo);
    if (q.from) base = base.where('w.created_at', '>=', shanghaiDayStartIso(q.from));
    if (q.to) base = base.where('w.created_at', '<', shanghaiDayStartIso(q.to, 1));
    const total = Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
    const rows = await base
      .select(['w.work_id', 'i.title', 'i.flow_name', 'w.node_id', 'w.node_name', 'w.handler_name', 'w.dept_name', 'w.created_at', 'w.done_at', 'w.state'])
      .orderBy('w.created_at', q.workId ? 'asc' : 'desc')
      .orderBy('w.id')
      .limit(q.pageSize)
      .offset((q.pageIndex - 1) * q.pageSize)
      .execute();
    return {
      total,
      items: rows.map((r) => ({
          WorkID: Number(r.work_id),
          Title: r.title,
          FlowName: r.flow_name,
          NodeName: r.node_name,
          HandlerName: r.handler_name,
          DeptName: r.dept_name,
          ArrivedAt: r.created_at,
          DoneAt: r.done_at,
          Minutes: r.done_at ? minutesBetween(r.created_at, r.done_at) : minutesBetween(r.created_at, new Date().toISOString()),
          State: r.state,
        })),
    };
  }
}
