/**
 * The engine's shared machinery: transactions, loading an instance with the facts the state machine
 * needs, and moving an instance forward through condition routes, CC nodes and approval nodes.
 */
import type { Kysely } from 'kysely';
import { FlowState, TrackAction, pickRoute, routingValues, type FlowDefinition, type FlowStateValue, type NodeDef } from '@zhyy/shared';
import type { Db } from '../../db/index.js';
import type { Database } from '../../db/schema.js';
import { notFound, refuse } from '../../platform/envelope.js';
import { resolveApprovers, resolveHandlers } from './handlers.js';
import type { OutcomeKind, OutcomeRegistry } from './outcomes.js';
import { definitionOf, EngineRepo, type InstanceRow } from './repo.js';
import { platformDb, wf, type WfDb } from './tables.js';
import { gatherFacts } from './facts.js';
import { whyNot, type Facts, type FlowAction } from './transitions.js';

/** The person acting (a signed-in user, or the starter named by another area). */
export interface Actor {
  id: string;
  name: string;
  roles: readonly string[];
  deptId: string | null;
  deptName: string;
}

/** What a transaction of the engine works with. */
export interface Tx {
  db: WfDb;
  repo: EngineRepo;
  now: string;
}

export interface Loaded {
  inst: InstanceRow;
  def: FlowDefinition;
  node: NodeDef;
  facts: Facts;
  myItem: { id: string } | undefined;
}

export interface Moved {
  workId: number;
  state: FlowStateValue;
  nodeId: string;
  nodeName: string;
  handlers: string[];
  /** Countersign: this approval is in, others at the node are still to approve. */
  waiting?: boolean;
}

export const SYSTEM_ACTOR = { id: null, name: '系统', deptName: '' } as const;

const MAX_HOPS = 50;

export class EngineCore {
  constructor(
    protected readonly database: Db,
    protected readonly outcomes: OutcomeRegistry,
    /** The engine's clock (the demo seed replays history with its own). */
    protected readonly clock: () => Date = () => new Date(),
  ) {}

  /** Runs fn in a transaction, or inside the caller's transaction when one is given. */
  protected async tx<T>(outer: Kysely<Database> | undefined, fn: (t: Tx) => Promise<T>): Promise<T> {
    const run = (k: Kysely<Database>) => {
      const db = wf(k);
      return fn({ db, repo: new EngineRepo(db, this.database.dialect === 'postgres'), now: this.clock().toISOString() });
    };
    return outer ? run(outer) : this.database.kysely.transaction().execute(run);
  }

  protected nodeOf(def: FlowDefinition, id: string): NodeDef {
    const node = def.nodes.find((n) => n.id === id);
    if (!node) throw refuse(`流程定义中找不到节点 ${id}`);
    return node;
  }

  protected startNode(def: FlowDefinition): NodeDef {
    const node = def.nodes.find((n) => n.type === 'start');
    if (!node) throw refuse('流程定义缺少开始节点');
    return node;
  }

  /** Loads and locks an instance with the facts of the state machine for an actor. */
  protected async load(t: Tx, workId: number, actor: Actor): Promise<Loaded> {
    const inst = await t.repo.lockInstance(workId);
    if (!inst || inst.state === FlowState.deleted) throw notFound('流程不存在或已删除');
    const def = definitionOf(await t.repo.templateById(inst.template_id));
    const node = this.nodeOf(def, inst.node_id);
    const open = await t.repo.openItems(workId);
    const myItem = open.find((i) => i.handler_id === actor.id && i.node_id === inst.node_id);
    const facts = await gatherFacts(t.repo, inst, def, actor, open, new Date(t.now));
    return { inst, def, node, facts, myItem };
  }

  protected check(action: FlowAction, facts: Facts): void {
    const reason = whyNot(action, facts);
    if (reason) throw refuse(reason);
  }

  /** Recomputes the list columns (current handlers) of an instance. */
  protected async refreshHandlers(t: Tx, workId: number): Promise<string[]> {
    const names = (await t.repo.openItems(workId)).map((i) => i.handler_name);
    await t.repo.updateInstance(workId, { handler_names: [...new Set(names)].join('、'), updated_at: t.now });
    return names;
  }

  /**
   * Moves an instance on from a node whose work is done: follows the first route whose condition
   * holds, copies the people of CC nodes on the way, and stops at the next approval node (creating
   * its work items) or at the end (completing the instance).
   */
  protected async advance(t: Tx, inst: InstanceRow, def: FlowDefinition, from: NodeDef, values: Record<string, unknown>, chosen?: readonly string[]): Promise<Moved> {
    const ctx = { starterId: inst.starter_id, starterDeptId: inst.dept_id, chosen };
    let node = from;
    // Conditions read derived values (请假天数 from 请假时间), also for instances stored before they were derived.
    const routed = routingValues(def.form, values);
    for (let hop = 0; hop < MAX_HOPS; hop++) {
      const route = pickRoute(node, routed);
      if (!route) throw refuse(`节点「${node.name}」没有符合条件的走向，请检查表单内容`);
      const next = this.nodeOf(def, route.to);
      if (next.type === 'cc') {
        const people = next.handler ? await resolveHandlers(t.db, next.handler, ctx) : [];
        await t.repo.addCc(inst.work_id, people, '系统', t.now);
        await t.repo.addTrack({ workId: inst.work_id, action: TrackAction.cc, nodeId: next.id, nodeName: next.name, actor: SYSTEM_ACTOR, toNames: people.map((p) => p.name).join('、'), at: t.now });
        node = next;
        continue;
      }
      if (next.type === 'end') {
        await t.repo.updateInstance(inst.work_id, { state: FlowState.complete, node_id: next.id, node_name: next.name, handler_names: '', finished_at: t.now, updated_at: t.now });
        await t.repo.addTrack({ workId: inst.work_id, action: TrackAction.complete, nodeId: next.id, nodeName: next.name, actor: SYSTEM_ACTOR, at: t.now });
        await this.emit(t, inst, 'complete', '', SYSTEM_ACTOR.name, values);
        return { workId: inst.work_id, state: FlowState.complete, nodeId: next.id, nodeName: next.name, handlers: [] };
      }
      // Never the applicant (resolveApprovers says who instead, and the track says so).
      const { handlers, passOver } = next.handler ? await resolveApprovers(t.db, next.handler, ctx) : { handlers: [], passOver: null };
      if (handlers.length === 0) throw refuse(`节点「${next.name}」找不到处理人，请联系管理员检查流程设置`);
      if (passOver) {
        const names = handlers.map((h) => h.name).join('、');
        await t.repo.addTrack({ workId: inst.work_id, action: TrackAction.passOver, nodeId: next.id, nodeName: next.name, actor: SYSTEM_ACTOR, opinion: passOver.note, toNodeId: next.id, toNodeName: next.name, toNames: names, at: t.now });
      }
      await t.repo.insertItems(inst.work_id, next.id, next.name, handlers, t.now);
      await t.repo.updateInstance(inst.work_id, {
        state: FlowState.running,
        node_id: next.id,
        node_name: next.name,
        handler_names: handlers.map((h) => h.name).join('、'),
        updated_at: t.now,
      });
      return { workId: inst.work_id, state: FlowState.running, nodeId: next.id, nodeName: next.name, handlers: handlers.map((h) => h.name) };
    }
    throw refuse('流程定义存在循环，无法流转');
  }

  /** Tells the areas listening to the template, and the one owning the record (if any), what happened, inside the transaction. */
  protected async emit(t: Tx, inst: InstanceRow, kind: OutcomeKind, opinion: string, actorName: string, form?: Record<string, unknown>): Promise<void> {
    await this.outcomes.emit({
      kind,
      workId: inst.work_id,
      flowNo: inst.flow_no,
      starterId: inst.starter_id,
      starterName: inst.starter_name,
      form: form ?? (JSON.parse(inst.form_data) as Record<string, unknown>),
      at: t.now,
      recordType: inst.record_type,
      recordId: inst.record_id,
      actorName,
      opinion,
      trx: platformDb(t.db),
    });
  }
}
