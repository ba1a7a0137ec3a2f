/**
 * The workflow engine: every action on an instance, each in one transaction, each checked against the
 * state machine (transitions.ts) before anything changes. Forward actions live in engine-start.ts.
 */
import type { Kysely } from 'kysely';
import { FlowState, TrackAction, WorkItemState, type AdminShiftBody, type CcBody, type ReturnBody, type ShiftBody } from '@zhyy/shared';
import type { Database } from '../../db/schema.js';
import { refuse } from '../../platform/envelope.js';
import { usersByIds } from './handlers.js';
import type { Actor, Moved } from './engine-core.js';
import { FlowStarter } from './engine-start.js';

export class WorkflowEngine extends FlowStarter {
  /** Sends the instance back to an earlier node it passed through, to the people who handled it there. */
  async returnTo(actor: Actor, body: ReturnBody, outer?: Kysely<Database>): Promise<Moved> {
    return this.tx(outer, async (t) => {
      const l = await this.load(t, body.workId, actor);
      this.check('return', l.facts);
      const earlier = (await t.repo.traversedNodes(l.inst.work_id)).filter((n) => n.id !== l.node.id);
      const target = earlier.find((n) => n.id === body.toNodeId);
      if (!target) throw refuse('只能退回到本流程已经过的节点');
      const node = this.nodeOf(l.def, target.id);
      const people = await t.repo.lastApproversAt(l.inst.work_id, node.id);
      if (people.length === 0) throw refuse(`节点「${node.name}」没有可退回的处理人`);
      await t.repo.closeItem(l.myItem!.id, WorkItemState.returned, body.reason, t.now);
      await t.repo.closeOpenItems(l.inst.work_id, WorkItemState.cancelled, t.now, l.node.id);
      await t.repo.insertItems(l.inst.work_id, node.id, node.name, people, t.now);
      const names = people.map((p) => p.name);
      await t.repo.updateInstance(l.inst.work_id, { state: FlowState.returned, node_id: node.id, node_name: node.name, handler_names: names.join('、'), updated_at: t.now });
      await t.repo.addTrack({ workId: l.inst.work_id, action: TrackAction.return, nodeId: l.node.id, nodeName: l.node.name, actor, opinion: body.reason, toNodeId: node.id, toNodeName: node.name, toNames: names.join('、'), at: t.now });
      if (node.type === 'start') await this.emit(t, l.inst, 'returned', body.reason, actor.name);
      return { workId: l.inst.work_id, state: FlowState.returned, nodeId: node.id, nodeName: node.name, handlers: names };
    });
  }

  /** Hands the actor's work item to another user at the same node. */
  async shift(actor: Actor, body: ShiftBody, outer?: Kysely<Database>): Promise<Moved> {
    return this.tx(outer, async (t) => {
      const l = await this.load(t, body.workId, actor);
      this.check('shift', l.facts);
      if (body.toUserId === actor.id) throw refuse('不能移交给自己');
      if (body.toUserId === l.inst.starter_id) throw refuse('申请人本人不能审批自己的申请，不能移交给申请人');
      const [to] = await usersByIds(t.db, [body.toUserId]);
      if (!to) throw refuse('移交对象不存在或已停用');
      const open = await t.repo.openItems(l.inst.work_id);
      if (open.some((i) => i.handler_id === to.id && i.node_id === l.node.id)) throw refuse(`${to.name}已是当前节点的处理人`);
      await t.repo.closeItem(l.myItem!.id, WorkItemState.shifted, body.reason, t.now);
      await t.repo.insertItems(l.inst.work_id, l.node.id, l.node.name, [to], t.now);
      await t.repo.updateInstance(l.inst.work_id, { state: FlowState.shifted });
      const handlers = await this.refreshHandlers(t, l.inst.work_id);
      await t.repo.addTrack({ workId: l.inst.work_id, action: TrackAction.shift, nodeId: l.node.id, nodeName: l.node.name, actor, opinion: body.reason, toNodeId: l.node.id, toNodeName: l.node.name, toNames: to.name, at: t.now });
      return { workId: l.inst.work_id, state: FlowState.shifted, nodeId: l.node.id, nodeName: l.node.name, handlers };
    });
  }

  /** Takes back the actor's latest send while nobody at the next node has acted. */
  async undo(actor: Actor, workId: number, outer?: Kysely<Database>): Promise<Moved> {
    return this.tx(outer, async (t) => {
      const l = await this.load(t, workId, actor);
      this.check('undo', l.facts);
      const last = await t.repo.lastMove(workId);
      const from = this.nodeOf(l.def, last!.node_id);
      const mine = await t.repo.lastClosedItem(workId, from.id, actor.id);
      if (!mine) throw refuse('找不到可撤销的发送记录');
      // The next node's work is withdrawn (a countersign still waiting at the same node keeps the
      // others' items); the actor's item reopens.
      if (l.inst.node_id !== from.id) await t.repo.closeOpenItems(workId, WorkItemState.cancelled, t.now);
      await t.repo.reopenItem(mine.id);
      const state = from.type === 'start' ? FlowState.returned : FlowState.running;
      await t.repo.updateInstance(workId, { state, node_id: from.id, node_name: from.name, updated_at: t.now });
      const handlers = await this.refreshHandlers(t, workId);
      await t.repo.addTrack({ workId, action: TrackAction.undo, nodeId: l.node.id, nodeName: l.node.name, actor, toNodeId: from.id, toNodeName: from.name, toNames: actor.name, at: t.now });
      return { workId, state, nodeId: from.id, nodeName: from.name, handlers };
    });
  }

  /** The starter takes a started instance back to draft before anyone acted. */
  async withdraw(actor: Actor, workId: number, outer?: Kysely<Database>): Promise<Moved> {
    return this.tx(outer, async (t) => {
      const l = await this.load(t, workId, actor);
      this.check('withdraw', l.facts);
      const start = this.startNode(l.def);
      await t.repo.closeOpenItems(workId, WorkItemState.cancelled, t.now);
      await t.repo.updateInstance(workId, { state: FlowState.draft, node_id: start.id, node_name: start.name, handler_names: '', started_at: null, updated_at: t.now });
      await t.repo.addTrack({ workId, action: TrackAction.withdraw, nodeId: l.node.id, nodeName: l.node.name, actor, toNodeId: start.id, toNodeName: start.name, at: t.now });
      await this.emit(t, l.inst, 'withdrawn', '', actor.name);
      return { workId, state: FlowState.draft, nodeId: start.id, nodeName: start.name, handlers: [] };
    });
  }

  /** The starter reminds the current handlers (催办), at most once every 10 minutes. */
  async press(actor: Actor, workId: number, note: string | undefined, outer?: Kysely<Database>): Promise<string[]> {
    return this.tx(outer, async (t) => {
      const l = await this.load(t, workId, actor);
      this.check('press', l.facts);
      const open = await t.repo.openItems(workId);
      await t.repo.markPressed(workId, t.now);
      const names = [...new Set(open.map((i) => i.handler_name))];
      await t.repo.addTrack({ workId, action: TrackAction.press, nodeId: l.node.id, nodeName: l.node.name, actor, opinion: note ?? '请尽快处理', toNames: names.join('、'), at: t.now });
      return names;
    });
  }

  /** Copies people on an instance (they can read it and find it under 抄送我的). */
  async cc(actor: Actor, body: CcBody, outer?: Kysely<Database>): Promise<string[]> {
    return this.tx(outer, async (t) => {
      const l = await this.load(t, body.workId, actor);
      this.check('cc', l.facts);
      const people = await usersByIds(t.db, body.userIds);
      if (people.length !== new Set(body.userIds).size) throw refuse('抄送人不存在或已停用');
      const already = new Set(
        (await t.db.selectFrom('wf_cc').select('user_id').where('work_id', '=', body.workId).execute()).map((r) => r.user_id),
      );
      const fresh = people.filter((p) => !already.has(p.id));
      if (fresh.length === 0) throw refuse('所选人员均已抄送过');
      await t.repo.addCc(body.workId, fresh, actor.name, t.now);
      const names = fresh.map((p) => p.name);
      await t.repo.addTrack({ workId: body.workId, action: TrackAction.cc, nodeId: l.node.id, nodeName: l.node.name, actor, opinion: body.note ?? '', toNames: names.join('、'), at: t.now });
      return names;
    });
  }

  /** Deletes the actor's own draft. */
  async deleteDraft(actor: Actor, workId: number, outer?: Kysely<Database>): Promise<void> {
    await this.tx(outer, async (t) => {
      const l = await this.load(t, workId, actor);
      this.check('delete', l.facts);
      await t.repo.updateInstance(workId, { state: FlowState.deleted, handler_names: '', updated_at: t.now });
      await t.repo.addTrack({ workId, action: TrackAction.delete, nodeId: l.node.id, nodeName: l.node.name, actor, at: t.now });
      await this.emit(t, l.inst, 'deleted', '', actor.name);
    });
  }

  /** An administrator moves a stuck instance's open work (one handler's, or the whole node's) to someone else. */
  async adminShift(actor: Actor, body: AdminShiftBody, outer?: Kysely<Database>): Promise<Moved & { title: string }> {
    return this.tx(outer, async (t) => {
      const l = await this.load(t, body.workId, actor);
      this.check('adminShift', l.facts);
      const [to] = await usersByIds(t.db, [body.toUserId]);
      if (!to) throw refuse('移交对象不存在或已停用');
      if (to.id === l.inst.starter_id && l.node.type !== 'start') throw refuse('申请人本人不能审批自己的申请，不能移交给申请人');
      const open = (await t.repo.openItems(body.workId)).filter((i) => i.node_id === l.node.id);
      const moving = body.fromUserId ? open.filter((i) => i.handler_id === body.fromUserId) : open;
      if (moving.length === 0) throw refuse('该处理人在当前节点没有待办');
      if (open.some((i) => i.handler_id === to.id) && !moving.some((i) => i.handler_id === to.id)) throw refuse(`${to.name}已是当前节点的处理人`);
      for (const i of moving) await t.repo.closeItem(i.id, WorkItemState.shifted, body.reason, t.now);
      await t.repo.insertItems(body.workId, l.node.id, l.node.name, [to], t.now);
      await t.repo.updateInstance(body.workId, { state: FlowState.shifted });
      const handlers = await this.refreshHandlers(t, body.workId);
      const from = [...new Set(moving.map((i) => i.handler_name))].join('、');
      await t.repo.addTrack({ workId: body.workId, action: TrackAction.adminShift, nodeId: l.node.id, nodeName: l.node.name, actor, opinion: `${body.reason}（原处理人：${from}）`, toNodeId: l.node.id, toNodeName: l.node.name, toNames: to.name, at: t.now });
      return { workId: body.workId, state: FlowState.shifted, nodeId: l.node.id, nodeName: l.node.name, handlers, title: l.inst.title };
    });
  }

  /** An administrator deletes an instance (any state but complete and deleted), with a reason. */
  async adminDelete(actor: Actor, workId: number, reason: string, outer?: Kysely<Database>): Promise<{ title: string }> {
    return this.tx(outer, async (t) => {
      const l = await this.load(t, workId, actor);
      this.check('adminDelete', l.facts);
      await t.repo.closeOpenItems(workId, WorkItemState.cancelled, t.now);
      await t.repo.updateInstance(workId, { state: FlowState.deleted, handler_names: '', updated_at: t.now });
      await t.repo.addTrack({ workId, action: TrackAction.adminDelete, nodeId: l.node.id, nodeName: l.node.name, actor, opinion: reason, at: t.now });
      await this.emit(t, l.inst, 'deleted', reason, actor.name);
      return { title: l.inst.title };
    });
  }
}
