/** The engine's forward actions: save a draft, start, send (approve), and the preview of the next step. */
import type { Kysely } from 'kysely';
import {
  FlowState,
  TrackAction,
  WorkItemState,
  checkFormValues,
  pickRoute,
  routingValues,
  type FieldDef,
  type FlowDefinition,
  type NextStep,
  type NodeDef,
  type SaveDraftBody,
  type SendBody,
  type StartBody,
} from '@zhyy/shared';
import type { Database } from '../../db/schema.js';
import { refuse } from '../../platform/envelope.js';
import { previewHandlers } from './handlers.js';
import { EngineCore, type Actor, type Moved, type Tx } from './engine-core.js';
import { definitionOf, type InstanceRow, type TemplateRow } from './repo.js';
import { wf } from './tables.js';

export interface RecordLink {
  recordType: string;
  recordId: string;
}

/** Asia/Shanghai calendar day, for default titles. */
const shanghaiDay = (iso: string) => new Date(Date.parse(iso) + 8 * 3600_000).toISOString().slice(0, 10);

export function attachmentIds(fields: readonly FieldDef[], values: Record<string, unknown>): string[] {
  const ids: string[] = [];
  for (const f of fields) {
    const v = values[f.key];
    if (f.type === 'attachments' && Array.isArray(v)) for (const a of v) ids.push(String((a as { id: unknown }).id));
  }
  return ids;
}

function validForm(def: FlowDefinition, form: unknown, draft: boolean): Record<string, unknown> {
  const res = checkFormValues(def.form, form, { draft });
  if (!res.ok) throw refuse(`表单填写有误：${res.first ?? '请检查表单'}`);
  return res.values;
}

export class FlowStarter extends EngineCore {
  private async template(t: Tx, flowNo: string): Promise<TemplateRow> {
    const tpl = await t.repo.currentTemplate(flowNo);
    if (!tpl || tpl.enabled !== 1) throw refuse('该流程不存在或已停用');
    return tpl;
  }

  private async newInstance(t: Tx, tpl: TemplateRow, actor: Actor, title: string, values: Record<string, unknown>, state: number, link?: RecordLink): Promise<InstanceRow> {
    const def = definitionOf(tpl);
    const start = this.startNode(def);
    const row = {
      template_id: tpl.id,
      flow_no: tpl.flow_no,
      flow_name: tpl.name,
      title,
      starter_id: actor.id,
      starter_name: actor.name,
      dept_id: actor.deptId,
      dept_name: actor.deptName,
      state,
      node_id: start.id,
      node_name: start.name,
      handler_names: '',
      form_data: JSON.stringify(values),
      record_type: link?.recordType ?? null,
      record_id: link?.recordId ?? null,
      created_at: t.now,
      started_at: null,
      updated_at: t.now,
      finished_at: null,
    };
    const workId = await t.repo.insertInstance(row);
    return { ...row, work_id: workId };
  }

  private titleFor(given: string | undefined, tpl: { name: string }, actor: Actor, now: string): string {
    return given?.trim() || `${tpl.name}-${actor.name}-${shanghaiDay(now)}`;
  }

  /** Saves a new draft or updates the actor's own draft. */
  async saveDraft(actor: Actor, body: SaveDraftBody, outer?: Kysely<Database>): Promise<{ workId: number }> {
    return this.tx(outer, async (t) => {
      if (body.workId) {
        const l = await this.load(t, body.workId, actor);
        this.check('saveDraft', l.facts);
        const values = validForm(l.def, body.form, true);
        await t.repo.updateInstance(l.inst.work_id, { title: this.titleFor(body.title, { name: l.inst.flow_name }, actor, t.now), form_data: JSON.stringify(values), updated_at: t.now });
        await t.repo.linkAttachments(l.inst.work_id, attachmentIds(l.def.form, values), actor.id);
        return { workId: l.inst.work_id };
      }
      const tpl = await this.template(t, body.flowNo);
      const def = definitionOf(tpl);
      const values = validForm(def, body.form, true);
      const inst = await this.newInstance(t, tpl, actor, this.titleFor(body.title, tpl, actor, t.now), values, FlowState.draft);
      await t.repo.addTrack({ workId: inst.work_id, action: TrackAction.save, nodeId: inst.node_id, nodeName: inst.node_name, actor, at: t.now });
      await t.repo.linkAttachments(inst.work_id, attachmentIds(def.form, values), actor.id);
      return { workId: inst.work_id };
    });
  }

  /** Starts an instance: a new one, or the actor's draft when workId is given. */
  async start(actor: Actor, body: StartBody, outer?: Kysely<Database>, link?: RecordLink): Promise<Moved> {
    return this.tx(outer, async (t) => {
      let inst: InstanceRow;
      let def: FlowDefinition;
      let values: Record<string, unknown>;
      if (body.workId) {
        const l = await this.load(t, body.workId, actor);
        this.check('start', l.facts);
        def = l.def;
        values = validForm(def, body.form, false);
        inst = { ...l.inst, title: this.titleFor(body.title || l.inst.title, { name: l.inst.flow_name }, actor, t.now) };
        await t.repo.updateInstance(inst.work_id, { title: inst.title, form_data: JSON.stringify(values), state: FlowState.running, started_at: t.now, updated_at: t.now });
      } else {
        const tpl = await this.template(t, body.flowNo);
        def = definitionOf(tpl);
        values = validForm(def, body.form, false);
        if (link) {
          const live = await t.db
            .selectFrom('wf_instances')
            .select('work_id')
            .where('record_type', '=', link.recordType)
            .where('record_id', '=', link.recordId)
            .where('state', 'not in', [FlowState.complete, FlowState.deleted])
            .executeTakeFirst();
          if (live) throw refuse(`该单据已有未结束的审批流程（流程号 ${live.work_id}）`);
        }
        inst = await this.newInstance(t, tpl, actor, this.titleFor(body.title, tpl, actor, t.now), values, FlowState.running, link);
        await t.repo.updateInstance(inst.work_id, { started_at: t.now });
      }
      await t.repo.linkAttachments(inst.work_id, attachmentIds(def.form, values), actor.id);
      const start = this.startNode(def);
      await t.repo.insertItems(inst.work_id, start.id, start.name, [{ id: actor.id, name: actor.name, deptName: actor.deptName }], t.now);
      await t.repo.closeOpenItems(inst.work_id, WorkItemState.done, t.now, start.id);
      const seq = await t.repo.addTrack({ workId: inst.work_id, action: TrackAction.start, nodeId: start.id, nodeName: start.name, actor, at: t.now });
      const moved = await this.advance(t, inst, def, start, values, body.toUserIds);
      await t.repo.setTrackTarget(inst.work_id, seq, moved.nodeId, moved.nodeName, moved.handlers.join('、'));
      return moved;
    });
  }

  /** Approves the actor's work item and moves the instance on (countersign waits for everyone). */
  async send(actor: Actor, body: SendBody, outer?: Kysely<Database>): Promise<Moved> {
    return this.tx(outer, async (t) => {
      const l = await this.load(t, body.workId, actor);
      this.check('send', l.facts);
      let values = JSON.parse(l.inst.form_data) as Record<string, unknown>;
      if (body.form !== undefined) {
        if (l.node.type !== 'start') throw refuse('只有退回到发起人时才能修改表单');
        values = validForm(l.def, body.form, false);
        await t.repo.updateInstance(l.inst.work_id, { form_data: JSON.stringify(values) });
        await t.repo.linkAttachments(l.inst.work_id, attachmentIds(l.def.form, values), actor.id);
      } else if (l.node.type === 'start') {
        values = validForm(l.def, values, false);
      }
      const opinion = body.opinion?.trim() || (l.node.type === 'start' ? '重新提交' : '同意');
      await t.repo.closeItem(l.myItem!.id, WorkItemState.done, opinion, t.now);
      const seq = await t.repo.addTrack({ workId: l.inst.work_id, action: TrackAction.send, nodeId: l.node.id, nodeName: l.node.name, actor, opinion, at: t.now });
      const others = (await t.repo.openItems(l.inst.work_id)).filter((i) => i.node_id === l.node.id);
      if (others.length > 0 && l.node.mode === 'countersign') {
        await t.repo.updateInstance(l.inst.work_id, { state: FlowState.running });
        const waiting = await this.refreshHandlers(t, l.inst.work_id);
        await t.repo.setTrackTarget(l.inst.work_id, seq, l.node.id, l.node.name, waiting.join('、'));
        return { workId: l.inst.work_id, state: FlowState.running, nodeId: l.node.id, nodeName: l.node.name, handlers: waiting, waiting: true };
      }
      await t.repo.closeOpenItems(l.inst.work_id, WorkItemState.cancelled, t.now, l.node.id);
      const moved = await this.advance(t, l.inst, l.def, l.node, values, body.toUserIds);
      await t.repo.setTrackTarget(l.inst.work_id, seq, moved.nodeId, moved.nodeName, moved.handlers.join('、'));
      return moved;
    });
  }

  /**
   * Where a send would lead: the next approval (or end) node after any CC nodes, with its handlers,
   * or `choose` when the sender picks them. From a work item, or from a template and form values.
   */
  async nextStep(def: FlowDefinition, from: NodeDef, values: Record<string, unknown>, starter: { id: string; deptId: string | null }): Promise<NextStep> {
    const db = wf(this.database.kysely);
    let node = from;
    const routed = routingValues(def.form, values);
    for (let hop = 0; hop < 50; hop++) {
      const route = pickRoute(node, routed);
      if (!route) throw refuse(`节点「${node.name}」没有符合条件的走向，请检查表单内容`);
      const next = this.nodeOf(def, route.to);
      if (next.type === 'cc') {
        node = next;
        continue;
      }
      const handlers = next.type === 'end' ? [] : await previewHandlers(db, next.handler, { starterId: starter.id, starterDeptId: starter.deptId });
      return { nodeId: next.id, nodeName: next.name, type: next.type, choose: next.handler?.kind === 'chosen', handlers, mode: next.mode ?? 'single' };
    }
    throw refuse('流程定义存在循环，无法流转');
  }
}
