/**
 * The workflow engine: every action in every state (allowed and refused, a refusal changing nothing),
 * condition routing, countersign and any-one approval, undo, return, withdraw.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FlowState, WorkItemState } from '@zhyy/shared';
import type { Actor } from '../src/modules/workflow/engine-core.js';
import type { WorkflowEngine } from '../src/modules/workflow/engine.js';
import { TRANSITIONS, stateRefusal, type FlowAction } from '../src/modules/workflow/transitions.js';
import { wf } from '../src/modules/workflow/tables.js';
import { startTestServer, type TestServer } from './helpers.js';
import { actor, engineFor, instance, leaveForm, managerLogin, openHandlers, snapshot } from './workflow-helpers.js';

let s: TestServer;
let engine: WorkflowEngine;
const a: Record<string, Actor> = {};
let gm: string;

beforeAll(async () => {
  s = await startTestServer();
  engine = engineFor(s);
  gm = await managerLogin(s, '华建工程技术服务有限公司');
  for (const login of ['demo1', 'demo3', 'demo4', 'demo5', 'demo7', 'demo15', 'demo17', 'demo12', gm]) a[login] = await actor(s, login);
});
afterAll(() => s.close());

/** demo7 (市场经营部) asks for leave; demo4 manages 市场经营部. */
const startLeave = async (days: number) => (await engine.start(a.demo7!, { flowNo: 'QJ01', form: leaveForm(days) })).workId;

async function refused(run: () => Promise<unknown>, message: RegExp | string, workId?: number): Promise<void> {
  const before = workId ? await snapshot(s, workId) : '';
  await expect(run()).rejects.toMatchObject({ code: 30000, message: expect.stringMatching(message) });
  if (workId) expect(await snapshot(s, workId)).toBe(before);
}

describe('the transition table', () => {
  const states = FlowState.values;
  it('names a Chinese refusal for every action outside its states', () => {
    for (const action of Object.keys(TRANSITIONS) as FlowAction[]) {
      for (const state of states) {
        const r = stateRefusal(action, state);
        if (TRANSITIONS[action].from.includes(state)) expect(r, `${action}@${state}`).toBeNull();
        else expect(r, `${action}@${state}`).toBe(`流程当前状态为「${FlowState.label(state)}」，不能${TRANSITIONS[action].label}`);
      }
    }
  });
});

describe('draft', () => {
  it('the starter saves, edits and starts a draft; others may not touch it', async () => {
    const { workId } = await engine.saveDraft(a.demo7!, { flowNo: 'QJ01', form: { leaveType: '年假' } });
    expect((await instance(s, workId)).state).toBe(FlowState.draft);
    await engine.saveDraft(a.demo7!, { workId, flowNo: 'QJ01', form: { leaveType: '年假', days: 2 } });
    await refused(() => engine.saveDraft(a.demo4!, { workId, flowNo: 'QJ01', form: {} }), '只有发起人可以修改草稿', workId);
    await refused(() => engine.start(a.demo4!, { workId, flowNo: 'QJ01', form: leaveForm(2) }), '只有发起人可以提交该草稿', workId);
    await refused(() => engine.send(a.demo7!, { workId }), '不能发送', workId);
    await refused(() => engine.press(a.demo7!, workId, undefined), '不能催办', workId);
    await refused(() => engine.cc(a.demo7!, { workId, userIds: [a.demo5!.id] }), '不能抄送', workId);
    await refused(() => engine.withdraw(a.demo7!, workId), '不能撤回', workId);
    await refused(() => engine.start(a.demo7!, { workId, flowNo: 'QJ01', form: { leaveType: '年假' } }), /表单填写有误：请填写请假天数/, workId);
    const moved = await engine.start(a.demo7!, { workId, flowNo: 'QJ01', form: leaveForm(2) });
    expect(moved).toMatchObject({ workId, state: FlowState.running, nodeName: '部门负责人审批', handlers: [a.demo4!.name] });
    await refused(() => engine.saveDraft(a.demo7!, { workId, flowNo: 'QJ01', form: {} }), '不能保存草稿', workId);
    await refused(() => engine.deleteDraft(a.demo7!, workId), '不能删除', workId);
  });

  it('a draft is deleted by its starter only, and then is gone for every action', async () => {
    const { workId } = await engine.saveDraft(a.demo7!, { flowNo: 'QJ01', form: {} });
    await refused(() => engine.deleteDraft(a.demo4!, workId), '只有发起人可以删除草稿', workId);
    await engine.deleteDraft(a.demo7!, workId);
    expect((await instance(s, workId)).state).toBe(FlowState.deleted);
    await refused(() => engine.start(a.demo7!, { workId, flowNo: 'QJ01', form: leaveForm(1) }), '流程不存在或已删除');
    await refused(() => engine.adminDelete(a.demo1!, workId, '清理'), '流程不存在或已删除');
  });
});

describe('running: send, conditions, CC nodes', () => {
  it('only the current handler sends; a short leave ends after the manager and copies HR', async () => {
    const workId = await startLeave(2);
    expect(await openHandlers(s, workId)).toEqual(['demo4']);
    await refused(() => engine.send(a.demo7!, { workId }), '您不是当前节点的处理人，不能审批', workId);
    await refused(() => engine.send(a.demo5!, { workId }), '您不是当前节点的处理人，不能审批', workId);
    const moved = await engine.send(a.demo4!, { workId, opinion: '同意，注意工作交接' });
    expect(moved.state).toBe(FlowState.complete);
    const inst = await instance(s, workId);
    expect([inst.state, inst.node_name, inst.finished_at !== null]).toEqual([FlowState.complete, '结束', true]);
    const cc = await wf(s.db.kysely).selectFrom('wf_cc').select('user_id').where('work_id', '=', workId).execute();
    expect(cc.map((c) => c.user_id)).toEqual([a.demo15!.id]);
    await refused(() => engine.send(a.demo4!, { workId }), '流程当前状态为「已完成」，不能发送', workId);
    await refused(() => engine.returnTo(a.demo4!, { workId, toNodeId: 'start', reason: '补充' }), '不能退回', workId);
    await refused(() => engine.shift(a.demo4!, { workId, toUserId: a.demo5!.id, reason: '出差' }), '不能移交', workId);
    await refused(() => engine.undo(a.demo4!, workId), '不能撤销发送', workId);
    await refused(() => engine.press(a.demo7!, workId, undefined), '不能催办', workId);
    await refused(() => engine.adminShift(a.demo1!, { workId, toUserId: a.demo5!.id, reason: '卡住' }), '不能移交', workId);
    await refused(() => engine.adminDelete(a.demo1!, workId, '清理'), '不能删除', workId);
    // CC stays possible on a finished instance.
    expect(await engine.cc(a.demo7!, { workId, userIds: [a.demo5!.id] })).toEqual([a.demo5!.name]);
    await refused(() => engine.cc(a.demo7!, { workId, userIds: [a.demo5!.id] }), '所选人员均已抄送过', workId);
  });

  it('a leave of more than 3 days goes on to the leader one level up', async () => {
    const workId = await startLeave(5);
    const moved = await engine.send(a.demo4!, { workId });
    expect(moved).toMatchObject({ state: FlowState.running, nodeName: '分管领导审批' });
    expect(await openHandlers(s, workId)).toEqual([gm]);
    expect((await engine.send(a[gm]!, { workId })).state).toBe(FlowState.complete);
  });

  it('the amount of a contract decides whether the general manager approves', async () => {
    const form = (yuan: number) => ({ contractName: '设备租赁合同', contractType: '单项合同', partyB: '南京恒信机械租赁有限公司', amount: yuan * 100, period: ['2026-12-01', '2027-11-30'], summary: '按月结算', files: [{ id: 'x', name: 'a.pdf', size: 1 }] });
    const { workId } = await engine.start(a.demo7!, { flowNo: 'HT01', form: form(600000) });
    await engine.send(a.demo4!, { workId });
    // Any-one approval: every role-4 holder has the item, the first to approve decides.
    const clerks = await openHandlers(s, workId);
    expect(clerks.length).toBeGreaterThan(1);
    await engine.send(await actor(s, clerks[0]!), { workId });
    const cancelled = await wf(s.db.kysely).selectFrom('wf_work_items').select('state').where('work_id', '=', workId).where('node_id', '=', 'clerk').execute();
    expect(cancelled.filter((i) => i.state === WorkItemState.cancelled).length).toBe(clerks.length - 1);
    // Countersign: both must approve; the first approval waits.
    expect(await openHandlers(s, workId)).toEqual(['demo17', 'demo4'].sort());
    const first = await engine.send(a.demo17!, { workId });
    expect(first).toMatchObject({ waiting: true, nodeName: '市场与成本会签', handlers: [a.demo4!.name] });
    expect((await instance(s, workId)).node_id).toBe('sign');
    await refused(() => engine.send(a.demo17!, { workId }), '您不是当前节点的处理人', workId);
    expect((await engine.send(a.demo4!, { workId })).nodeName).toBe('财务审核');
    expect((await engine.send(a.demo5!, { workId })).nodeName).toBe('总经理审批');

    const small = (await engine.start(a.demo7!, { flowNo: 'HT01', form: form(200000) })).workId;
    await engine.send(a.demo4!, { workId: small });
    await engine.send(await actor(s, (await openHandlers(s, small))[0]!), { workId: small });
    await engine.send(a.demo17!, { workId: small });
    await engine.send(a.demo4!, { workId: small });
    expect((await engine.send(a.demo5!, { workId: small })).state).toBe(FlowState.complete);
  });

  it('a handler chosen by the sender is required and all chosen approve (countersign)', async () => {
    const form = { subject: '购买专业书籍', content: '购买造价规范书籍' };
    await refused(() => engine.start(a.demo7!, { flowNo: 'TY01', form }), '请选择下一节点的处理人');
    const { workId } = await engine.start(a.demo7!, { flowNo: 'TY01', form, toUserIds: [a.demo5!.id, a.demo17!.id] });
    expect(await openHandlers(s, workId)).toEqual(['demo17', 'demo5']);
    await engine.send(a.demo5!, { workId });
    expect((await engine.send(a.demo17!, { workId })).state).toBe(FlowState.complete);
  });

  it('a form that breaks its definition is refused with the field named', async () => {
    await refused(() => engine.start(a.demo7!, { flowNo: 'QJ01', form: { ...leaveForm(2), period: ['2026-11-25', '2026-11-20'] } }), '请假时间的结束日期不能早于开始日期');
    await refused(() => engine.start(a.demo7!, { flowNo: 'QJ01', form: { ...leaveForm(2), leaveType: '旷工' } }), '请假类型的选项无效');
    const lines = [{ goods: '*建筑服务*工程施工', quantity: 1, taxRate: '9%', amount: 10000 }];
    await refused(
      () => engine.start(a.demo7!, { flowNo: 'KP01', form: { buyer: '某公司', buyerTaxNo: '91320100MA1XK3PQ2R', invoiceKind: '数电专票', basis: '项目', reference: '管廊', lines, amount: 20000 } }),
      '开票明细合计与总金额不一致',
    );
  });
});

describe('return, shift, undo, withdraw, press', () => {
  it('returns to the starter, who edits and resubmits; returns only to nodes passed through', async () => {
    const workId = await startLeave(5);
    await refused(() => engine.returnTo(a.demo4!, { workId, toNodeId: 'leader', reason: '请补充' }), '只能退回到本流程已经过的节点', workId);
    await refused(() => engine.returnTo(a.demo7!, { workId, toNodeId: 'start', reason: '请补充' }), '您不是当前节点的处理人，不能退回', workId);
    const r = await engine.returnTo(a.demo4!, { workId, toNodeId: 'start', reason: '请补充证明材料' });
    expect(r).toMatchObject({ state: FlowState.returned, nodeName: '填写申请', handlers: [a.demo7!.name] });
    await refused(() => engine.send(a.demo4!, { workId }), '您不是当前节点的处理人', workId);
    // At the start node the starter resubmits; returning or handing the application on is refused.
    await refused(() => engine.returnTo(a.demo7!, { workId, toNodeId: 'mgr', reason: '跳过修改' }), '申请已退回到发起人，请修改后重新提交，不能再退回', workId);
    await refused(() => engine.shift(a.demo7!, { workId, toUserId: a.demo5!.id, reason: '代为修改' }), '申请已退回到发起人，只能由发起人修改后重新提交，不能移交', workId);
    const again = await engine.send(a.demo7!, { workId, form: leaveForm(2) });
    expect(again).toMatchObject({ state: FlowState.running, nodeName: '部门负责人审批' });
    // The edited values decide the route now: 2 days end after the manager.
    expect((await engine.send(a.demo4!, { workId })).state).toBe(FlowState.complete);
  });

  it('a later node returns to an earlier approver', async () => {
    const workId = await startLeave(5);
    await engine.send(a.demo4!, { workId });
    const r = await engine.returnTo(a[gm]!, { workId, toNodeId: 'mgr', reason: '请先核实天数' });
    expect(r.nodeName).toBe('部门负责人审批');
    expect(await openHandlers(s, workId)).toEqual(['demo4']);
    await refused(() => engine.send(a.demo4!, { workId, form: leaveForm(1) }), '只有退回到发起人时才能修改表单', workId);
  });

  it('shifts to another user, who then holds the work', async () => {
    const workId = await startLeave(2);
    await refused(() => engine.shift(a.demo4!, { workId, toUserId: a.demo4!.id, reason: '出差' }), '不能移交给自己', workId);
    await refused(() => engine.shift(a.demo5!, { workId, toUserId: a.demo3!.id, reason: '出差' }), '您不是当前节点的处理人，不能移交', workId);
    const m = await engine.shift(a.demo4!, { workId, toUserId: a.demo3!.id, reason: '出差期间由李晓燕代批' });
    expect(m.state).toBe(FlowState.shifted);
    expect(await openHandlers(s, workId)).toEqual(['demo3']);
    await refused(() => engine.send(a.demo4!, { workId }), '您不是当前节点的处理人', workId);
    expect((await engine.send(a.demo3!, { workId })).state).toBe(FlowState.complete);
  });

  it('undoes a send while the next node has not acted, not after', async () => {
    const workId = await startLeave(5);
    await refused(() => engine.undo(a.demo4!, workId), '只能撤销自己最近一次发送', workId);
    await engine.send(a.demo4!, { workId });
    await refused(() => engine.undo(a.demo7!, workId), '只能撤销自己最近一次发送', workId);
    const u = await engine.undo(a.demo4!, workId);
    expect(u).toMatchObject({ state: FlowState.running, nodeName: '部门负责人审批' });
    expect(await openHandlers(s, workId)).toEqual(['demo4']);
    await engine.send(a.demo4!, { workId });
    await engine.returnTo(a[gm]!, { workId, toNodeId: 'mgr', reason: '核实' });
    await refused(() => engine.undo(a.demo4!, workId), '只能撤销自己最近一次发送', workId);
  });

  it('the starter withdraws to draft before anyone acted, and not after', async () => {
    const workId = await startLeave(5);
    await refused(() => engine.withdraw(a.demo4!, workId), '只有发起人可以撤回', workId);
    const w = await engine.withdraw(a.demo7!, workId);
    expect(w.state).toBe(FlowState.draft);
    expect(await openHandlers(s, workId)).toEqual([]);
    await engine.start(a.demo7!, { workId, flowNo: 'QJ01', form: leaveForm(5) });
    await engine.send(a.demo4!, { workId });
    await refused(() => engine.withdraw(a.demo7!, workId), '已有人处理，不能撤回', workId);
  });

  it('presses the current handlers at most once in 10 minutes, starter only', async () => {
    const workId = await startLeave(2);
    await refused(() => engine.press(a.demo4!, workId, undefined), '只有发起人可以催办', workId);
    expect(await engine.press(a.demo7!, workId, '请今天处理')).toEqual([a.demo4!.name]);
    const pressed = await wf(s.db.kysely).selectFrom('wf_work_items').select('pressed_at').where('work_id', '=', workId).where('state', '=', 0).executeTakeFirstOrThrow();
    expect(pressed.pressed_at).not.toBeNull();
    await refused(() => engine.press(a.demo7!, workId, undefined), '10分钟内已催办过', workId);
  });

  it('CC needs someone who took part', async () => {
    const workId = await startLeave(2);
    await refused(() => engine.cc(a.demo12!, { workId, userIds: [a.demo5!.id] }), '只有发起人或处理人可以抄送', workId);
    expect(await engine.cc(a.demo4!, { workId, userIds: [a.demo5!.id] })).toEqual([a.demo5!.name]);
  });
});

describe('an applicant never approves their own application (issue 27)', () => {
  const passOvers = async (workId: number) =>
    (await wf(s.db.kysely).selectFrom('wf_tracks').select(['node_name', 'opinion', 'to_names']).where('work_id', '=', workId).where('action', '=', 'passOver').orderBy('seq').execute()).map((t) => [t.node_name, t.opinion, t.to_names]);

  it("a role step the applicant holds goes to the role's other holders only", async () => {
    const form = { contractName: '设备租赁合同', contractType: '单项合同', partyB: '南京恒信机械租赁有限公司', amount: 20000000, period: ['2026-12-01', '2027-11-30'], summary: '按月结算', files: [{ id: 'x', name: 'a.pdf', size: 1 }] };
    // demo4 (合同主管, role 4) manages 市场经营部: 部门负责人审批 walks up to the general manager.
    const { workId } = await engine.start(a.demo4!, { flowNo: 'HT01', form });
    expect(await openHandlers(s, workId)).toEqual([gm]);
    await engine.send(a[gm]!, { workId });
    // 合同专员审核 (role 4, any-one): demo4 holds the role too, and is left out.
    const clerks = await openHandlers(s, workId);
    expect(clerks.length).toBeGreaterThan(0);
    expect(clerks).not.toContain('demo4');
    const names = (await instance(s, workId)).handler_names;
    expect(await passOvers(workId)).toEqual([['合同专员审核', `申请人本人为审批人，已自动转交该节点的其他处理人：${names}`, names]]);
    // 市场与成本会签 names demo4 as the market manager: only the cost manager signs.
    await engine.send(await actor(s, clerks[0]!), { workId });
    expect(await openHandlers(s, workId)).toEqual(['demo17']);
    expect((await passOvers(workId)).map((p) => p[0])).toEqual(['合同专员审核', '市场与成本会签']);
  });

  it('with nobody else at the step and no manager above, the workflow administrators approve; never the applicant', async () => {
    // The general manager manages the company itself: 部门负责人审批 of their own leave has nobody above.
    const moved = await engine.start(a[gm]!, { flowNo: 'QJ01', form: leaveForm(2) });
    const admins = await openHandlers(s, moved.workId);
    expect(admins).toEqual(expect.arrayContaining(['admin', 'demo1', 'demo3']));
    expect(admins).not.toContain(gm);
    const roles = await wf(s.db.kysely).selectFrom('user_roles as r').innerJoin('users as u', 'u.id', 'r.user_id').select(['u.login_name', 'r.role']).where('u.login_name', 'in', admins).execute();
    for (const login of admins) expect(roles.some((r) => r.login_name === login && ['admin', '1', '3'].includes(r.role)), login).toBe(true);
    const [pass] = await passOvers(moved.workId);
    expect(pass![0]).toBe('部门负责人审批');
    expect(pass![1]).toMatch(/^申请人本人为审批人且无上级可审批，已自动转交流程管理员：/);
    expect((await engine.send(a.demo1!, { workId: moved.workId })).state).toBe(FlowState.complete);
  });

  it('the applicant cannot be chosen as an approver, nor handed the work', async () => {
    const form = { subject: '购买专业书籍', content: '购买造价规范书籍' };
    await refused(() => engine.start(a.demo7!, { flowNo: 'TY01', form, toUserIds: [a.demo5!.id, a.demo7!.id] }), '申请人本人不能作为审批人，请选择其他处理人');
    const workId = await startLeave(2);
    await refused(() => engine.shift(a.demo4!, { workId, toUserId: a.demo7!.id, reason: '出差' }), '申请人本人不能审批自己的申请，不能移交给申请人', workId);
    await refused(() => engine.adminShift(a.demo1!, { workId, toUserId: a.demo7!.id, reason: '卡住' }), '申请人本人不能审批自己的申请，不能移交给申请人', workId);
  });
});

describe('administrators', () => {
  it('roles 1 and 3 shift or delete a stuck instance; others may not', async () => {
    const workId = await startLeave(2);
    await refused(() => engine.adminShift(a.demo4!, { workId, toUserId: a.demo5!.id, reason: '负责人休假' }), '权限不足', workId);
    await refused(() => engine.adminDelete(a.demo7!, workId, '重复提交'), '权限不足', workId);
    await refused(() => engine.adminShift(a.demo1!, { workId, fromUserId: a.demo5!.id, toUserId: a.demo3!.id, reason: '负责人休假' }), '该处理人在当前节点没有待办', workId);
    const m = await engine.adminShift(a.demo1!, { workId, toUserId: a.demo5!.id, reason: '负责人休假' });
    expect([m.state, await openHandlers(s, workId)]).toEqual([FlowState.shifted, ['demo5']]);
    await engine.adminDelete(a.demo3!, workId, '重复提交');
    expect((await instance(s, workId)).state).toBe(FlowState.deleted);
    expect(await openHandlers(s, workId)).toEqual([]);
  });
});
