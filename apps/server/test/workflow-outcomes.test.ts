/**
 * The interface other areas use: app.workflow.startForRecord / onOutcome / instanceOf. Outcome
 * handlers run inside the action's transaction: what they write commits with it, and a handler that
 * throws refuses the action with nothing half-applied.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FlowState, checkDefinition } from '@zhyy/shared';
import type { FlowOutcomeEvent, OutcomeEvent } from '../src/modules/workflow/outcomes.js';
import { wf } from '../src/modules/workflow/tables.js';
import { templateSeeds } from '../src/seed/workflowTemplates.js';
import { buildDemoUsers } from '../src/seed/company.js';
import { Rng } from '../src/seed/rng.js';
import { startTestServer, type TestServer } from './helpers.js';
import { actor, leaveForm, snapshot } from './workflow-helpers.js';

let s: TestServer;
const events: Array<Omit<OutcomeEvent, 'trx'>> = [];
let failNext = false;

beforeAll(async () => {
  s = await startTestServer();
  s.app.workflow.onOutcome('leave-test', async ({ trx, ...e }) => {
    if (failNext) {
      failNext = false;
      throw new Error('business rule refused');
    }
    events.push(e);
    // Written through the action's transaction: commits or rolls back with it.
    await trx.insertInto('app_meta').values({ key: `outcome:${e.recordId}:${e.kind}`, value: String(e.workId) }).execute();
  });
});
afterAll(() => s.close());

const meta = async (key: string) => (await s.db.kysely.selectFrom('app_meta').select('value').where('key', '=', key).executeTakeFirst())?.value;

describe('app.workflow', () => {
  it('starts a flow for a record and reports completion inside the transaction', async () => {
    const starter = await actor(s, 'demo7');
    const moved = await s.app.workflow.startForRecord({ flowNo: 'QJ01', recordType: 'leave-test', recordId: 'R-1', title: '测试请假单 R-1', starterId: starter.id, form: leaveForm(1) });
    expect(moved.nodeName).toBe('部门负责人审批');
    expect(await s.app.workflow.instanceOf('leave-test', 'R-1')).toMatchObject({ workId: moved.workId, state: FlowState.running, stateName: '运行中', handlerNames: '张伟' });
    await expect(
      s.app.workflow.startForRecord({ flowNo: 'QJ01', recordType: 'leave-test', recordId: 'R-1', title: '重复', starterId: starter.id, form: leaveForm(1) }),
    ).rejects.toMatchObject({ message: expect.stringContaining('该单据已有未结束的审批流程') });

    const manager = await s.login('demo4');
    const a = await s.call('/api/miswf/workflow/send', { workId: moved.workId, opinion: '同意' }, manager);
    expect(a.code).toBe(20000);
    expect(events.at(-1)).toMatchObject({ kind: 'complete', workId: moved.workId, recordType: 'leave-test', recordId: 'R-1', flowNo: 'QJ01' });
    expect(await meta('outcome:R-1:complete')).toBe(String(moved.workId));
  });

  it('reports a return to the starter, and a handler that throws refuses the action with nothing changed', async () => {
    const starter = await actor(s, 'demo7');
    const { workId } = await s.app.workflow.startForRecord({ flowNo: 'QJ01', recordType: 'leave-test', recordId: 'R-2', title: '测试请假单 R-2', starterId: starter.id, form: leaveForm(1) });
    const manager = await s.login('demo4');
    failNext = true;
    const before = await snapshot(s, workId);
    const refused = await s.call('/api/miswf/workflow/return', { workId, toNodeId: 'start', reason: '请补充' }, manager);
    expect(refused.status).toBe(500);
    expect(await snapshot(s, workId)).toBe(before);
    const ok = await s.call('/api/miswf/workflow/return', { workId, toNodeId: 'start', reason: '请补充' }, manager);
    expect(ok.code).toBe(20000);
    expect(events.at(-1)).toMatchObject({ kind: 'returned', recordId: 'R-2', opinion: '请补充', actorName: '张伟' });
    expect(await meta('outcome:R-2:returned')).toBe(String(workId));
  });

  it('starts inside the caller’s transaction: a rolled-back caller leaves no instance', async () => {
    const starter = await actor(s, 'demo7');
    const count = async () => Number((await wf(s.db.kysely).selectFrom('wf_instances').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    await expect(
      s.db.kysely.transaction().execute(async (trx) => {
        await s.app.workflow.startForRecord({ flowNo: 'QJ01', recordType: 'leave-test', recordId: 'R-3', title: '回滚', starterId: starter.id, form: leaveForm(1), trx });
        throw new Error('caller failed');
      }),
    ).rejects.toThrow('caller failed');
    expect(await count()).toBe(before);
    expect(await s.app.workflow.instanceOf('leave-test', 'R-3')).toBeNull();
  });

  it('a refused start (no handler chosen) leaves no instance behind', async () => {
    const starter = await actor(s, 'demo7');
    const before = await wf(s.db.kysely).selectFrom('wf_instances').select('work_id').execute();
    await expect(s.app.workflow.startForRecord({ flowNo: 'TY01', recordType: 'leave-test', recordId: 'R-4', title: '通用', starterId: starter.id, form: { subject: '事项', content: '说明' } })).rejects.toMatchObject({
      message: '请选择下一节点的处理人',
    });
    expect((await wf(s.db.kysely).selectFrom('wf_instances').select('work_id').execute()).length).toBe(before.length);
  });

  it('onFlowOutcome hears every instance of a template, with its starter and final form, record or not', async () => {
    const heard: Array<Omit<FlowOutcomeEvent, 'trx'>> = [];
    const off = s.app.workflow.onFlowOutcome('QJ01', ({ trx: _, ...e }) => void heard.push(e));
    const t7 = await s.login('demo7');
    const started = await s.call('/api/miswf/workflow/start', { flowNo: 'QJ01', form: leaveForm(1) }, t7);
    expect(started.code).toBe(20000);
    const manager = await s.login('demo4');
    expect((await s.call('/api/miswf/workflow/send', { workId: started.r.workId, opinion: '同意' }, manager)).code).toBe(20000);
    const starter = await actor(s, 'demo7');
    expect(heard).toEqual([
      expect.objectContaining({ kind: 'complete', workId: started.r.workId, flowNo: 'QJ01', starterId: starter.id, starterName: starter.name, form: expect.objectContaining({ days: 1 }), actorName: '系统' }),
    ]);
    expect(heard[0]!.at).toMatch(/^\d{4}-\d\d-\d\dT/);
    off();
    const again = await s.call('/api/miswf/workflow/start', { flowNo: 'QJ01', form: leaveForm(1) }, t7);
    await s.call('/api/miswf/workflow/send', { workId: again.r.workId, opinion: '同意' }, manager);
    expect(heard).toHaveLength(1);
  });
});

describe('the shipped templates', () => {
  it('every template is a sound definition', () => {
    for (const t of templateSeeds(buildDemoUsers(new Rng(20261121)))) expect([t.flowNo, checkDefinition(t.definition)]).toEqual([t.flowNo, []]);
  });

  it('checkDefinition finds the usual mistakes', () => {
    const problems = checkDefinition({
      form: [{ key: 'a', label: '甲', type: 'select' }],
      nodes: [
        { id: 'begin', name: '开始', type: 'start', next: [{ to: 'x' }] },
        { id: 'x', name: '审批', type: 'approval', next: [{ to: 'x', when: { field: 'a', op: 'eq', value: '1' } }] },
      ],
    });
    expect(problems).toEqual(
      expect.arrayContaining(['开始节点的编号必须是 start', '流程必须有结束节点', '节点「审批」缺少默认走向', '节点「审批」未设置处理人', '下拉字段「甲」没有选项', '节点「审批」无法到达结束节点']),
    );
  });
});
