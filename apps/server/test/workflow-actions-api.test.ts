/**
 * 退回, 移交, 撤销发送, 撤回, 催办 and 抄送 through their /api/miswf/workflow paths: the right person
 * succeeds and the to-do lists and the instance detail show it; the wrong person, or the wrong state,
 * gets the Chinese refusal of transitions.ts and nothing changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FlowState } from '@zhyy/shared';
import { startTestServer, type TestServer } from './helpers.js';
import { actor, leaveForm, managerLogin, snapshot } from './workflow-helpers.js';

const WF = '/api/miswf/workflow';
const NOT_MY_SEND = '只能撤销自己最近一次发送，且下一节点尚未处理';
let s: TestServer;
/** The company's general manager: 分管领导审批 of a leave of more than 3 days from 市场经营部. */
let gm: string;
const token: Record<string, string> = {};
const id: Record<string, string> = {};

beforeAll(async () => {
  s = await startTestServer();
  gm = await managerLogin(s, '华建工程技术服务有限公司');
  for (const login of ['demo3', 'demo4', 'demo5', 'demo7', 'demo12', gm]) {
    token[login] = await s.login(login);
    id[login] = (await actor(s, login)).id;
  }
});
afterAll(() => s.close());

const call = (path: string, body: unknown, who: string) => s.call(`${WF}/${path}`, body, token[who]);

const logCount = async () => Number((await s.db.kysely.selectFrom('operation_logs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

/** The call answers 400/30000 with exactly this message; the instance is as it was and nothing was logged. */
async function refused(path: string, body: { workId: number } & Record<string, unknown>, who: string, message: string): Promise<void> {
  const [before, logs] = [await snapshot(s, body.workId), await logCount()];
  const a = await call(path, body, who);
  expect([a.status, a.code, a.message]).toEqual([400, 30000, message]);
  expect(await snapshot(s, body.workId)).toBe(before);
  expect(await logCount()).toBe(logs);
}

const todo = async (who: string) => (await call('todo', {}, who)).r.items as Array<{ WorkID: number; NodeName: string; Pressed: boolean }>;
const todoIds = async (who: string) => (await todo(who)).map((i) => i.WorkID);
const detail = async (workId: number, who: string) => (await call('workdetail', { workId }, who)).r;
const lastTrack = async (workId: number) => (await detail(workId, 'demo7')).track.at(-1);

/** demo7 (杨帆, 市场经营部) asks for leave; demo4 (张伟) manages 市场经营部. */
async function startLeave(days: number): Promise<number> {
  const a = await call('start', { flowNo: 'QJ01', form: leaveForm(days) }, 'demo7');
  expect(a.code).toBe(20000);
  return a.r.workId as number;
}

describe('退回 (return)', () => {
  it('the handler returns to the starter; at the start node the starter may neither return nor shift', async () => {
    const workId = await startLeave(5);
    await refused('return', { workId, toNodeId: 'start', reason: '请补充' }, 'demo7', '您不是当前节点的处理人，不能退回');
    await refused('return', { workId, toNodeId: 'start', reason: '请补充' }, 'demo12', '您不是当前节点的处理人，不能退回');
    await refused('return', { workId, toNodeId: 'leader', reason: '请补充' }, 'demo4', '只能退回到本流程已经过的节点');
    expect((await detail(workId, 'demo4')).returnTargets).toEqual([{ id: 'start', name: '填写申请' }]);

    const ok = await call('return', { workId, toNodeId: 'start', reason: '请补充证明材料' }, 'demo4');
    expect([ok.code, ok.message]).toEqual([20000, '已退回至「填写申请」']);
    expect(ok.r).toMatchObject({ state: FlowState.returned, nodeName: '填写申请', handlers: ['杨帆'] });
    expect(await todoIds('demo4')).not.toContain(workId);
    expect((await todo('demo7')).find((i) => i.WorkID === workId)).toMatchObject({ NodeName: '填写申请' });
    const d = await detail(workId, 'demo7');
    expect(d).toMatchObject({ State: FlowState.returned, NodeName: '填写申请', Handlers: [{ name: '杨帆' }] });
    expect(d.can).toMatchObject({ send: true, edit: true, return: false, shift: false, withdraw: false });
    expect(await lastTrack(workId)).toMatchObject({ action: 'return', actorName: '张伟', opinion: '请补充证明材料', toNames: '杨帆' });

    // At the start node the starter edits and resubmits; nothing else moves the application on.
    await refused('return', { workId, toNodeId: 'mgr', reason: '跳过修改' }, 'demo7', '申请已退回到发起人，请修改后重新提交，不能再退回');
    await refused('shift', { workId, toUserId: id.demo5, reason: '代为修改' }, 'demo7', '申请已退回到发起人，只能由发起人修改后重新提交，不能移交');
    await refused('send', { workId }, 'demo4', '您不是当前节点的处理人，不能审批');
    await refused('withdraw', { workId }, 'demo7', '流程当前状态为「已退回」，不能撤回');
    const again = await call('send', { workId, form: leaveForm(2) }, 'demo7');
    expect([again.code, again.message]).toEqual([20000, '已发送至「部门负责人审批」：张伟']);
    expect(await todoIds('demo4')).toContain(workId);
    expect(await todoIds('demo7')).not.toContain(workId);
  });

  it('a later node returns to the earlier approver, whose to-do list shows it again', async () => {
    const workId = await startLeave(5);
    await call('send', { workId }, 'demo4');
    expect(await todoIds(gm)).toContain(workId);
    await refused('return', { workId, toNodeId: 'mgr', reason: '核实' }, 'demo4', '您不是当前节点的处理人，不能退回');
    const ok = await call('return', { workId, toNodeId: 'mgr', reason: '请先核实天数' }, gm);
    expect([ok.code, ok.message, ok.r.handlers]).toEqual([20000, '已退回至「部门负责人审批」', ['张伟']]);
    expect((await todo('demo4')).find((i) => i.WorkID === workId)).toMatchObject({ NodeName: '部门负责人审批' });
    expect(await todoIds(gm)).not.toContain(workId);
    expect((await detail(workId, 'demo4')).can).toMatchObject({ send: true, return: true, shift: true });
  });
});

describe('移交 (shift)', () => {
  it('the handler hands the work to someone else, who then holds it; nobody else may', async () => {
    const workId = await startLeave(2);
    await refused('shift', { workId, toUserId: id.demo3, reason: '出差' }, 'demo5', '您不是当前节点的处理人，不能移交');
    await refused('shift', { workId, toUserId: id.demo3, reason: '出差' }, 'demo7', '您不是当前节点的处理人，不能移交');
    await refused('shift', { workId, toUserId: id.demo4, reason: '出差' }, 'demo4', '不能移交给自己');

    const ok = await call('shift', { workId, toUserId: id.demo3, reason: '出差期间由李晓燕代批' }, 'demo4');
    expect([ok.code, ok.message]).toEqual([20000, '已移交']);
    expect(ok.r).toMatchObject({ state: FlowState.shifted, nodeName: '部门负责人审批', handlers: ['李晓燕'] });
    expect(await todoIds('demo4')).not.toContain(workId);
    expect((await todo('demo3')).find((i) => i.WorkID === workId)).toMatchObject({ NodeName: '部门负责人审批' });
    expect(await detail(workId, 'demo7')).toMatchObject({ State: FlowState.shifted, Handlers: [{ name: '李晓燕' }] });
    expect(await lastTrack(workId)).toMatchObject({ action: 'shift', actorName: '张伟', opinion: '出差期间由李晓燕代批', toNames: '李晓燕' });

    await refused('shift', { workId, toUserId: id.demo5, reason: '再移交' }, 'demo4', '您不是当前节点的处理人，不能移交');
    await refused('send', { workId }, 'demo4', '您不是当前节点的处理人，不能审批');
    expect((await call('send', { workId, opinion: '同意' }, 'demo3')).message).toBe('审批完成，流程已结束');
    await refused('shift', { workId, toUserId: id.demo5, reason: '再移交' }, 'demo3', '流程当前状态为「已完成」，不能移交');
  });
});

describe('撤销发送 (undo)', () => {
  it('the sender takes back a send the next node has not acted on, and not otherwise', async () => {
    const workId = await startLeave(5);
    await refused('undo', { workId }, 'demo4', NOT_MY_SEND);
    await call('send', { workId }, 'demo4');
    await refused('undo', { workId }, 'demo7', NOT_MY_SEND);
    await refused('undo', { workId }, gm, NOT_MY_SEND);
    expect((await detail(workId, 'demo4')).can.undo).toBe(true);

    const ok = await call('undo', { workId }, 'demo4');
    expect([ok.code, ok.message]).toEqual([20000, '已撤销发送']);
    expect(ok.r).toMatchObject({ state: FlowState.running, nodeName: '部门负责人审批', handlers: ['张伟'] });
    expect(await todoIds(gm)).not.toContain(workId);
    expect(await todoIds('demo4')).toContain(workId);
    expect(await lastTrack(workId)).toMatchObject({ action: 'undo', actorName: '张伟', toNodeName: '部门负责人审批' });
    await refused('undo', { workId }, 'demo4', NOT_MY_SEND);

    // Once the next node acted (here: returned), the send can no longer be undone.
    await call('send', { workId }, 'demo4');
    await call('return', { workId, toNodeId: 'mgr', reason: '核实' }, gm);
    await refused('undo', { workId }, 'demo4', NOT_MY_SEND);
    await call('send', { workId }, 'demo4');
    expect((await call('send', { workId }, gm)).r.state).toBe(FlowState.complete);
    await refused('undo', { workId }, gm, '流程当前状态为「已完成」，不能撤销发送');
  });
});

describe('撤回 (withdraw)', () => {
  it('the starter takes an untouched application back to draft; not the handler, not after someone acted', async () => {
    const workId = await startLeave(5);
    await refused('withdraw', { workId }, 'demo4', '只有发起人可以撤回');
    await refused('withdraw', { workId }, 'demo12', '只有发起人可以撤回');
    expect((await detail(workId, 'demo7')).can.withdraw).toBe(true);

    const ok = await call('withdraw', { workId }, 'demo7');
    expect([ok.code, ok.message, ok.r.state]).toEqual([20000, '已撤回，流程已回到草稿', FlowState.draft]);
    expect(await todoIds('demo4')).not.toContain(workId);
    expect((await call('list', { scope: 'draft' }, 'demo7')).r.items.map((i: { WorkID: number }) => i.WorkID)).toContain(workId);
    expect((await call('generfrmurl', { workId }, 'demo7')).r).toBe(`/flow/start?workId=${workId}`);
    await refused('withdraw', { workId }, 'demo7', '流程当前状态为「草稿」，不能撤回');

    expect((await call('start', { workId, flowNo: 'QJ01', form: leaveForm(5) }, 'demo7')).code).toBe(20000);
    expect(await todoIds('demo4')).toContain(workId);
    await call('send', { workId }, 'demo4');
    await refused('withdraw', { workId }, 'demo7', '已有人处理，不能撤回');
    expect((await detail(workId, 'demo7')).can.withdraw).toBe(false);
  });
});

describe('催办 (press)', () => {
  it('the starter presses the current handlers, at most once in 10 minutes', async () => {
    const workId = await startLeave(2);
    await refused('press', { workId }, 'demo4', '只有发起人可以催办');
    await refused('press', { workId }, 'demo12', '只有发起人可以催办');
    expect((await todo('demo4')).find((i) => i.WorkID === workId)?.Pressed).toBe(false);

    const ok = await call('press', { workId, note: '请今天处理' }, 'demo7');
    expect([ok.code, ok.message, ok.r.names]).toEqual([20000, '已催办：张伟', ['张伟']]);
    expect((await todo('demo4')).find((i) => i.WorkID === workId)?.Pressed).toBe(true);
    expect(await lastTrack(workId)).toMatchObject({ action: 'press', actorName: '杨帆', opinion: '请今天处理', toNames: '张伟' });
    expect((await detail(workId, 'demo7')).can.press).toBe(false);
    await refused('press', { workId }, 'demo7', '10分钟内已催办过，请稍后再试');

    await call('send', { workId }, 'demo4');
    await refused('press', { workId }, 'demo7', '流程当前状态为「已完成」，不能催办');
  });
});

describe('抄送 (cc)', () => {
  it('a handler or the starter copies people, who then read it under 抄送我的; outsiders may not', async () => {
    const workId = await startLeave(2);
    await refused('cc', { workId, userIds: [id.demo5] }, 'demo12', '只有发起人或处理人可以抄送');
    expect((await call('workdetail', { workId }, 'demo12')).status).toBe(403);

    const ok = await call('cc', { workId, userIds: [id.demo12], note: '请知悉' }, 'demo4');
    expect([ok.code, ok.message, ok.r.names]).toEqual([20000, '已抄送：吴强', ['吴强']]);
    expect((await call('list', { scope: 'cc' }, 'demo12')).r.items.map((i: { WorkID: number }) => i.WorkID)).toContain(workId);
    expect((await call('workdetail', { workId }, 'demo12')).status).toBe(200);
    expect(await todoIds('demo12')).not.toContain(workId);
    expect(await lastTrack(workId)).toMatchObject({ action: 'cc', actorName: '张伟', opinion: '请知悉', toNames: '吴强' });
    await refused('cc', { workId, userIds: [id.demo12] }, 'demo7', '所选人员均已抄送过');

    // A finished instance can still be copied; a draft cannot.
    await call('send', { workId }, 'demo4');
    expect((await call('cc', { workId, userIds: [id.demo5] }, 'demo7')).message).toBe('已抄送：刘芳');
    expect((await call('list', { scope: 'cc' }, 'demo5')).r.items.map((i: { WorkID: number }) => i.WorkID)).toContain(workId);
    const draft = await call('savedraft', { flowNo: 'QJ01', form: { leaveType: '年假' } }, 'demo7');
    await refused('cc', { workId: draft.r.workId, userIds: [id.demo5] }, 'demo7', '流程当前状态为「草稿」，不能抄送');
  });
});
