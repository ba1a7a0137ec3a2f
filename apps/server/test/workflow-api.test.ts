/** The workflow service through its paths (SPEC section 7), with who may do what. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FlowState, OperationLogType } from '@zhyy/shared';
import { startTestServer, type TestServer } from './helpers.js';
import { leaveForm } from './workflow-helpers.js';

const WF = '/api/miswf/workflow';
let s: TestServer;
const t: Record<string, string> = {};

beforeAll(async () => {
  s = await startTestServer();
  for (const login of ['demo1', 'demo3', 'demo4', 'demo5', 'demo7', 'demo12']) t[login] = await s.login(login);
});
afterAll(() => s.close());

const call = (path: string, body: unknown, who: string) => s.call(`${WF}/${path}`, body, t[who]);

describe('todo', () => {
  it('counts and lists the to-dos; a new application raises the manager’s count', async () => {
    const before = await call('todo', {}, 'demo4');
    expect(before.code).toBe(20000);
    for (const k of ['Todolist_Draft', 'Todolist_Runing', 'Todolist_MyFlow', 'Todolist_EmpWorks', 'Todolist_MyStartFlow']) expect(typeof before.r[k]).toBe('number');
    expect(before.r.items.length).toBe(Math.min(before.r.Todolist_EmpWorks, 50));
    const started = await call('start', { flowNo: 'QJ01', form: leaveForm(2), title: '杨帆请假两天' }, 'demo7');
    expect([started.code, started.message]).toEqual([20000, '已发送至「部门负责人审批」：张伟']);
    const after = await call('todo', {}, 'demo4');
    expect(after.r.Todolist_EmpWorks).toBe(before.r.Todolist_EmpWorks + 1);
    expect(after.r.items[0]).toMatchObject({ WorkID: started.r.workId, Title: '杨帆请假两天', NodeName: '部门负责人审批', StarterName: '杨帆' });
    const mine = await call('todo', {}, 'demo7');
    expect(mine.r.Todolist_MyStartFlow).toBeGreaterThanOrEqual(1);
    expect(mine.r.Todolist_Runing).toBeGreaterThanOrEqual(1);
  });

  it('with {newPublic:true} returns the public notices', async () => {
    const a = await call('todo', { newPublic: true }, 'demo7');
    expect(a.r.items.length).toBeGreaterThan(0);
    expect(Object.keys(a.r.items[0]).sort()).toEqual(['id', 'infoColumnName', 'publishedAt', 'publisherName', 'title']);
  });
});

describe('actions through the API', () => {
  it('only the current handler can send; others get a Chinese refusal', async () => {
    const { r } = await call('start', { flowNo: 'QJ01', form: leaveForm(1) }, 'demo7');
    for (const who of ['demo5', 'demo7', 'demo1']) {
      const a = await call('send', { workId: r.workId }, who);
      expect([a.status, a.code, a.message]).toEqual([400, 30000, '您不是当前节点的处理人，不能审批']);
    }
    const ok = await call('send', { workId: r.workId, opinion: '同意' }, 'demo4');
    expect([ok.code, ok.message, ok.r.state]).toEqual([20000, '审批完成，流程已结束', FlowState.complete]);
    const detail = await call('workdetail', { workId: r.workId }, 'demo7');
    expect(detail.r).toMatchObject({ State: FlowState.complete, can: { send: false, withdraw: false, press: false } });
    expect(detail.r.track.map((e: { action: string }) => e.action)).toEqual(['start', 'send', 'cc', 'complete']);
  });

  it('validates bodies with Chinese messages', async () => {
    const a = await call('send', { workId: 'abc' }, 'demo4');
    expect([a.status, a.code]).toEqual([400, 30000]);
    expect(a.message).toMatch(/^参数错误：流程编号/);
    const b = await call('return', { workId: 1, toNodeId: 'start', reason: '' }, 'demo4');
    expect(b.message).toContain('请填写退回原因');
    const c = await call('start', { flowNo: 'QJ01', form: { leaveType: '事假' } }, 'demo7');
    expect(c.message).toBe('表单填写有误：请填写请假天数');
  });

  it('detail, generfrmurl, workchecklist, workflow-record and consumetime answer participants only', async () => {
    const { r } = await call('start', { flowNo: 'QJ01', form: leaveForm(5) }, 'demo7');
    await call('send', { workId: r.workId, opinion: '同意，注意交接' }, 'demo4');
    expect((await call('generfrmurl', { workId: r.workId }, 'demo4')).r).toBe(`/flow/todolist?workId=${r.workId}`);
    expect((await call('generfrmurl', { workId: r.workId }, 'demo12')).r).toBe('err@权限不足');
    expect((await call('generfrmurl', { workId: 999999 }, 'demo12')).r).toBe('err@流程不存在或已删除');
    expect((await call('workdetail', { workId: r.workId }, 'demo12')).status).toBe(403);
    expect((await call('workdetail', { workId: r.workId }, 'demo3')).code).toBe(20000);
    const checks = await call('workchecklist', { workId: r.workId }, 'demo7');
    expect(checks.r.map((c: { nodeName: string; opinion: string }) => [c.nodeName, c.opinion])).toEqual([
      ['填写申请', ''],
      ['部门负责人审批', '同意，注意交接'],
    ]);
    const track = await call('workflow-record', { workId: r.workId }, 'demo4');
    expect(track.r[0]).toMatchObject({ action: 'start', actorName: '杨帆', deptName: '市场经营部', toNodeName: '部门负责人审批', toNames: '张伟' });
    expect((await call('workflow-record', { workId: r.workId }, 'demo12')).status).toBe(403);
    const time = await call('consumetime/list', { workId: r.workId }, 'demo7');
    expect(time.r.items.map((i: { NodeName: string }) => i.NodeName)).toEqual(['部门负责人审批', '分管领导审批']);
    expect((await call('consumetime/list', {}, 'demo7')).status).toBe(403);
    expect((await call('consumetime/list', {}, 'demo3')).r.total).toBeGreaterThan(0);
  });

  it('nextstep previews the route from the start form and from a work item', async () => {
    const long = await call('nextstep', { flowNo: 'QJ01', form: leaveForm(5) }, 'demo7');
    expect(long.r).toMatchObject({ nodeName: '部门负责人审批', choose: false, handlers: [{ name: '张伟' }] });
    const chosen = await call('nextstep', { flowNo: 'TY01', form: {} }, 'demo7');
    expect(chosen.r).toMatchObject({ choose: true, handlers: [] });
  });

  it('drafts: saved, listed, edited and deleted by the starter only', async () => {
    const d = await call('savedraft', { flowNo: 'YY01', form: { sealType: '公章' } }, 'demo7');
    expect([d.code, d.message]).toEqual([20000, '草稿已保存']);
    const drafts = await call('list', { scope: 'draft' }, 'demo7');
    expect(drafts.r.items.some((i: { WorkID: number }) => i.WorkID === d.r.workId)).toBe(true);
    expect((await call('generfrmurl', { workId: d.r.workId }, 'demo7')).r).toBe(`/flow/start?workId=${d.r.workId}`);
    expect((await call('delete', { workId: d.r.workId }, 'demo4')).message).toBe('只有发起人可以删除草稿');
    expect((await call('delete', { workId: d.r.workId }, 'demo7')).message).toBe('草稿已删除');
  });
});

describe('流程管理', () => {
  it('roles 1 and 3 see every instance; others only those they took part in', async () => {
    const all = await call('list', { scope: 'all', pageSize: 500 }, 'demo1');
    const mine = await call('list', { scope: 'all', pageSize: 500 }, 'demo12');
    expect(all.r.total).toBeGreaterThan(mine.r.total);
    const involved = await call('list', { scope: 'involved', pageSize: 500 }, 'demo12');
    expect(mine.r.total).toBe(involved.r.total);
    const filtered = await call('list', { scope: 'all', flowNo: 'QJ01', state: FlowState.complete, title: '请假' }, 'demo3');
    expect(filtered.r.items.every((i: { FlowNo: string; State: number }) => i.FlowNo === 'QJ01' && i.State === FlowState.complete)).toBe(true);
  });

  it('administrators shift and delete a stuck instance with a logged reason; others are refused', async () => {
    const { r } = await call('start', { flowNo: 'QJ01', form: leaveForm(2) }, 'demo7');
    const denied = await call('admin/shift', { workId: r.workId, toUserId: 'x', reason: '负责人休假' }, 'demo4');
    expect([denied.status, denied.message]).toEqual([403, '权限不足']);
    expect((await call('admin/delete', { workId: r.workId, reason: '重复' }, 'demo7')).status).toBe(403);
    const users = await call('emp/list', { keyword: 'demo5' }, 'demo1');
    const shifted = await call('admin/shift', { workId: r.workId, toUserId: users.r[0].id, reason: '负责人休假' }, 'demo1');
    expect([shifted.code, shifted.r.handlers]).toEqual([20000, ['刘芳']]);
    const del = await call('admin/delete', { workId: r.workId, reason: '重复提交' }, 'demo3');
    expect(del.code).toBe(20000);
    const logs = await s.db.kysely.selectFrom('operation_logs').select(['description', 'login_name']).where('description', 'like', `%流程号 ${r.workId}%`).execute();
    expect(logs.map((l) => [l.login_name, l.description])).toEqual(
      expect.arrayContaining([
        ['demo1', expect.stringContaining('管理员移交流程') && expect.stringContaining('负责人休假')],
        ['demo3', expect.stringContaining('原因：重复提交')],
      ]),
    );
  });
});

describe('notices, settings, catalogue, attachments', () => {
  it('roles 1 and 3 publish, edit and withdraw notices; everyone reads them', async () => {
    const body = { title: '年终总结会通知', infoColumnName: '行政通知', content: '12月28日下午两点在三楼会议室召开。' };
    const denied = await call('notice/save', body, 'demo7');
    expect([denied.status, denied.message]).toEqual([403, '权限不足']);
    const saved = await call('notice/save', body, 'demo3');
    expect(saved.message).toBe('公告已发布');
    const id = saved.r.id;
    expect((await call('todo', { newPublic: true }, 'demo7')).r.items[0]).toMatchObject({ id, title: '年终总结会通知', infoColumnName: '行政通知' });
    expect((await call('notice/detail', { id }, 'demo7')).r.content).toBe(body.content);
    expect((await call('notice/save', { ...body, id, title: '年终总结会通知（改期）' }, 'demo1')).r.title).toBe('年终总结会通知（改期）');
    expect((await call('notice/withdraw', { id }, 'demo7')).status).toBe(403);
    await call('notice/withdraw', { id }, 'demo3');
    expect((await call('todo', { newPublic: true }, 'demo7')).r.items.some((n: { id: string }) => n.id === id)).toBe(false);
    expect((await call('notice/detail', { id }, 'demo7')).status).toBe(404);
    expect((await call('notice/list', {}, 'demo3')).r.items.find((n: { id: string }) => n.id === id).state).toBe(0);
    expect((await call('notice/list', {}, 'demo7')).status).toBe(403);
  });

  it('personal settings: phone, email and default opinion, validated', async () => {
    const bad = await call('personal/save', { phone: '123', email: 'x', defaultOpinion: '' }, 'demo7');
    expect(bad.message).toBe('参数错误：手机号须为11位手机号码');
    const ok = await call('personal/save', { phone: '13912345678', email: 'yangfan@huajian.example.cn', defaultOpinion: '同意，请按规定执行' }, 'demo7');
    expect(ok.r).toMatchObject({ phone: '13912345678', defaultOpinion: '同意，请按规定执行', loginName: 'demo7' });
    expect((await call('personal/get', {}, 'demo7')).r.email).toBe('yangfan@huajian.example.cn');
  });

  it('startflows groups the templates; flowtemplate, flowdata, dept/list and emp/list answer', async () => {
    const flows = await call('startflows', {}, 'demo7');
    expect(flows.r.groups.map((g: { category: string }) => g.category)).toEqual(['行政办公', '财务报销', '合同业务', '通用']);
    expect(flows.r.groups.flatMap((g: { flows: Array<{ name: string }> }) => g.flows.map((f) => f.name)).sort()).toEqual(['合同审批', '开票申请', '用印申请', '请假申请', '费用报销审批', '通用审批'].sort());
    expect((await call('flowtemplate', { flowNo: 'KP01' }, 'demo7')).r.form.find((f: { key: string }) => f.key === 'lines').columns.length).toBe(6);
    expect((await call('flowtemplate', { flowNo: 'NOPE' }, 'demo7')).message).toBe('该流程不存在或已停用');
    expect((await call('flowdata', { domain: 'OA' }, 'demo7')).r.flows.length).toBe(6);
    expect((await call('dept/list', {}, 'demo7')).r.find((d: { name: string }) => d.name === '市场经营部').managerName).toBe('张伟');
    expect((await call('emp/list', { keyword: '张伟' }, 'demo7')).r[0]).toMatchObject({ name: '张伟', deptName: '市场经营部' });
  });

  it('attachments: uploaded, then readable by the uploader and the instance’s readers only', async () => {
    const up = await call('attachment/upload', { name: '合同.pdf', type: 'application/pdf', content: Buffer.from('%PDF-1.4 test').toString('base64') }, 'demo7');
    expect(up.r).toMatchObject({ name: '合同.pdf', size: 13 });
    expect((await call('attachment/download', { id: up.r.id }, 'demo4')).status).toBe(403);
    const form = { sealType: '公章', copies: 2, document: '投标文件', useDate: '2026-11-25', purpose: '投标', files: [up.r] };
    const { r } = await call('start', { flowNo: 'YY01', form }, 'demo7');
    const file = await s.app.inject({ method: 'POST', url: `${WF}/attachment/download`, headers: { 'x-token': t.demo4!, 'content-type': 'application/json' }, payload: { id: up.r.id } });
    expect([file.statusCode, file.headers['content-type'], file.body]).toEqual([200, 'application/pdf', '%PDF-1.4 test']);
    expect((await call('attachment/download', { id: up.r.id }, 'demo12')).status).toBe(403);
    expect(r.workId).toBeGreaterThan(0);
    // The download is in the operation log (74); the refused ones are not.
    const logged = await s.db.kysely.selectFrom('operation_logs').select(['login_name', 'description']).where('type', '=', OperationLogType.download).where('description', 'like', '下载流程附件：合同.pdf%').execute();
    expect(logged).toEqual([{ login_name: 'demo4', description: `下载流程附件：合同.pdf（流程 ${r.workId}）` }]);
  });

  it('the approvals chart covers 30 days and counts my approvals today', async () => {
    const stats = await call('stats/approvals', { days: 30 }, 'demo4');
    expect(stats.r.days.length).toBe(30);
    expect(stats.r.days.at(-1).send).toBeGreaterThanOrEqual(1);
  });
});
