/** SQL the engine runs inside its transactions: templates, instances, work items, the track. */
import { WorkItemState, type FlowDefinition } from '@zhyy/shared';
import { newId } from '../../platform/ids.js';
import type { Handler } from './handlers.js';
import type { WfDb, WfInstanceTable, WfTemplateTable } from './tables.js';
import type { Selectable, Updateable } from 'kysely';

export type TemplateRow = Selectable<WfTemplateTable>;
export type InstanceRow = Selectable<WfInstanceTable>;

/** Actions that move an instance from one node or state to another (undo and withdraw look at the latest). */
export const MOVING_ACTIONS = ['start', 'send', 'return', 'shift', 'undo', 'withdraw', 'adminShift'] as const;

export function definitionOf(t: Pick<TemplateRow, 'definition'>): FlowDefinition {
  return JSON.parse(t.definition) as FlowDefinition;
}

export class EngineRepo {
  constructor(
    private readonly db: WfDb,
    private readonly postgres: boolean,
  ) {}

  currentTemplate(flowNo: string) {
    return this.db.selectFrom('wf_templates').selectAll().where('flow_no', '=', flowNo).where('is_current', '=', 1).executeTakeFirst();
  }

  templateById(id: string) {
    return this.db.selectFrom('wf_templates').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  /** The instance, locked against concurrent actions until the transaction ends. */
  lockInstance(workId: number) {
    return this.db
      .selectFrom('wf_instances')
      .selectAll()
      .where('work_id', '=', workId)
      .$if(this.postgres, (q) => q.forUpdate())
      .executeTakeFirst();
  }

  async insertInstance(values: Omit<InstanceRow, 'work_id'>): Promise<number> {
    const row = await this.db.insertInto('wf_instances').values(values).returning('work_id').executeTakeFirstOrThrow();
    return Number(row.work_id);
  }

  async updateInstance(workId: number, values: Updateable<WfInstanceTable>): Promise<void> {
    await this.db.updateTable('wf_instances').set(values).where('work_id', '=', workId).execute();
  }

  openItems(workId: number) {
    return this.db
      .selectFrom('wf_work_items')
      .selectAll()
      .where('work_id', '=', workId)
      .where('state', '=', WorkItemState.open)
      .orderBy('created_at')
      .orderBy('handler_name')
      .execute();
  }

  async insertItems(workId: number, nodeId: string, nodeName: string, handlers: readonly Handler[], at: string): Promise<void> {
    if (handlers.length === 0) return;
    await this.db
      .insertInto('wf_work_items')
      .values(
        handlers.map((h) => ({
          id: newId(),
          work_id: workId,
          node_id: nodeId,
          node_name: nodeName,
          handler_id: h.id,
          handler_name: h.name,
          dept_name: h.deptName,
          state: WorkItemState.open,
          opinion: '',
          pressed_at: null,
          created_at: at,
          done_at: null,
        })),
      )
      .execute();
  }

  async closeItem(id: string, state: number, opinion: string, at: string): Promise<void> {
    await this.db.updateTable('wf_work_items').set({ state, opinion, done_at: at }).where('id', '=', id).execute();
  }

  /** Closes every open item of an instance (optionally only at one node) with a state. */
  async closeOpenItems(workId: number, state: number, at: string, nodeId?: string): Promise<void> {
    await this.db
      .updateTable('wf_work_items')
      .set({ state, done_at: at })
      .where('work_id', '=', workId)
      .where('state', '=', WorkItemState.open)
      .$if(!!nodeId, (q) => q.where('node_id', '=', nodeId!))
      .execute();
  }

  async reopenItem(id: string): Promise<void> {
    await this.db.updateTable('wf_work_items').set({ state: WorkItemState.open, opinion: '', done_at: null }).where('id', '=', id).execute();
  }

  /** The item a handler closed last at a node. */
  lastClosedItem(workId: number, nodeId: string, handlerId: string) {
    return this.db
      .selectFrom('wf_work_items')
      .selectAll()
      .where('work_id', '=', workId)
      .where('node_id', '=', nodeId)
      .where('handler_id', '=', handlerId)
      .where('state', '=', WorkItemState.done)
      .orderBy('done_at', 'desc')
      .executeTakeFirst();
  }

  /** The handlers who approved a node the last time it was worked (the people a return goes back to). */
  async lastApproversAt(workId: number, nodeId: string): Promise<Handler[]> {
    const rows = await this.db
      .selectFrom('wf_work_items')
      .select(['handler_id', 'handler_name', 'dept_name', 'created_at'])
      .where('work_id', '=', workId)
      .where('node_id', '=', nodeId)
      .where('state', '=', WorkItemState.done)
      .orderBy('created_at', 'desc')
      .execute();
    if (rows.length === 0) return [];
    const latest = rows[0]!.created_at;
    const seen = new Set<string>();
    return rows
      .filter((r) => r.created_at === latest && !seen.has(r.handler_id) && seen.add(r.handler_id))
      .map((r) => ({ id: r.handler_id, name: r.handler_name, deptName: r.dept_name }));
  }

  /** Nodes this instance was approved at, in the order first reached. */
  async traversedNodes(workId: number): Promise<Array<{ id: string; name: string }>> {
    const rows = await this.db
      .selectFrom('wf_work_items')
      .select(['node_id', 'node_name', 'created_at'])
      .where('work_id', '=', workId)
      .where('state', '=', WorkItemState.done)
      .orderBy('created_at')
      .execute();
    const out: Array<{ id: string; name: string }> = [];
    for (const r of rows) if (!out.some((n) => n.id === r.node_id)) out.push({ id: r.node_id, name: r.node_name });
    return out;
  }

  async addTrack(entry: {
    workId: number;
    action: string;
    nodeId: string;
    nodeName: string;
    actor: { id: string | null; name: string; deptName: string };
    opinion?: string;
    toNodeId?: string | null;
    toNodeName?: string;
    toNames?: string;
    at: string;
  }): Promise<number> {
    const max = await this.db
      .selectFrom('wf_tracks')
      .select((eb) => eb.fn.max<number>('seq').as('seq'))
      .where('work_id', '=', entry.workId)
      .executeTakeFirst();
    const seq = Number(max?.seq ?? 0) + 1;
    await this.db
      .insertInto('wf_tracks')
      .values({
        id: newId(),
        work_id: entry.workId,
        seq,
        action: entry.action,
        node_id: entry.nodeId,
        node_name: entry.nodeName,
        actor_id: entry.actor.id,
        actor_name: entry.actor.name,
        dept_name: entry.actor.deptName,
        opinion: entry.opinion ?? '',
        to_node_id: entry.toNodeId ?? null,
        to_node_name: entry.toNodeName ?? '',
        to_names: entry.toNames ?? '',
        created_at: entry.at,
      })
      .execute();
    return seq;
  }

  /** Fills in where a track entry led (known only after the instance moved). */
  async setTrackTarget(workId: number, seq: number, toNodeId: string | null, toNodeName: string, toNames: string): Promise<void> {
    await this.db
      .updateTable('wf_tracks')
      .set({ to_node_id: toNodeId, to_node_name: toNodeName, to_names: toNames })
      .where('work_id', '=', workId)
      .where('seq', '=', seq)
      .execute();
  }

  lastMove(workId: number) {
    return this.db
      .selectFrom('wf_tracks')
      .select(['action', 'actor_id', 'node_id'])
      .where('work_id', '=', workId)
      .where('action', 'in', [...MOVING_ACTIONS])
      .orderBy('seq', 'desc')
      .executeTakeFirst();
  }

  async lastPressAt(workId: number): Promise<string | null> {
    const row = await this.db
      .selectFrom('wf_tracks')
      .select('created_at')
      .where('work_id', '=', workId)
      .where('action', '=', 'press')
      .orderBy('seq', 'desc')
      .executeTakeFirst();
    return row?.created_at ?? null;
  }

  /** Whether the user started, handled or was copied on the instance. */
  async isParticipant(workId: number, userId: string, starterId: string): Promise<boolean> {
    if (userId === starterId) return true;
    const item = await this.db.selectFrom('wf_work_items').select('id').where('work_id', '=', workId).where('handler_id', '=', userId).executeTakeFirst();
    if (item) return true;
    const cc = await this.db.selectFrom('wf_cc').select('id').where('work_id', '=', workId).where('user_id', '=', userId).executeTakeFirst();
    return !!cc;
  }

  async addCc(workId: number, users: readonly Handler[], fromName: string, at: string): Promise<void> {
    if (users.length === 0) return;
    await this.db
      .insertInto('wf_cc')
      .values(users.map((u) => ({ id: newId(), work_id: workId, user_id: u.id, user_name: u.name, from_name: fromName, is_read: 0, created_at: at })))
      .execute();
  }

  async markPressed(workId: number, at: string): Promise<void> {
    await this.db.updateTable('wf_work_items').set({ pressed_at: at }).where('work_id', '=', workId).where('state', '=', WorkItemState.open).execute();
  }

  async linkAttachments(workId: number, ids: readonly string[], uploaderId: string): Promise<void> {
    if (ids.length === 0) return;
    await this.db.updateTable('wf_attachments').set({ work_id: workId }).where('id', 'in', [...ids]).where('uploader_id', '=', uploaderId).where('work_id', 'is', null).execute();
  }
}
