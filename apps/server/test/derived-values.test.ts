/**
 * Issue 12, item 6: a derived value is computed from what it derives from. 请假天数 follows 请假时间
 * by the shared work calendar (weekends off): the server fills it in, refuses a contradiction with a
 * message, and the flow's condition (超过3天) reads the derived value.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { up as leaveDaysDerived } from '../src/db/migrations/0015_leave_days_derived.js';
import { wf } from '../src/modules/workflow/tables.js';
import { startTestServer, type TestServer } from './helpers.js';

const WF = '/api/miswf/workflow';
let s: TestServer;
const t: Record<string, string> = {};

beforeAll(async () => {
  s = await startTestServer();
  for (const login of ['demo4', 'demo7']) t[login] = await s.login(login);
});
afterAll(() => s.close());

const call = (path: string, body: unknown, who: string) => s.call(`${WF}/${path}`, body, t[who]);
const leave = (form: Record<string, unknown>) => ({ flowNo: 'QJ01', form: { leaveType: '事假', reason: '家中有事需要处理', ...form } });
const storedDays = async (workId: number) => {
  const row = await wf(s.db.kysely).selectFrom('wf_instances').select('form_data').where('work_id', '=', workId).executeTakeFirstOrThrow();
  return (JSON.parse(row.form_data) as { days: unknown }).days;
};

describe('请假天数 derived from 请假时间', () => {
  it('refuses 10 days for one working day, and any leave over a weekend only', async () => {
    const ten = await call('start', leave({ days: 10, period: ['2026-11-02', '2026-11-02'] }), 'demo7');
    expect([ten.status, ten.message]).toEqual([400, '表单填写有误：请假天数与请假时间不符：2026-11-02至2026-11-02共1个工作日（周末不计），请假天数应为1或0.5天']);
    // 2026-11-01 is a Sunday: the example has no working day at all.
    const sunday = await call('start', leave({ days: 10, period: ['2026-11-01', '2026-11-01'] }), 'demo7');
    expect([sunday.status, sunday.message]).toEqual([400, '表单填写有误：请假时间2026-11-01至2026-11-01内没有工作日（周末不计）']);
    const typedLow = await call('start', leave({ days: 3, period: ['2026-11-23', '2026-11-27'] }), 'demo7');
    expect(typedLow.message).toBe('表单填写有误：请假天数与请假时间不符：2026-11-23至2026-11-27共5个工作日（周末不计），请假天数应为5或4.5或4天');
  });

  it('counts working days only: Friday to Monday is 2 days', async () => {
    const a = await call('start', leave({ days: 4, period: ['2026-11-27', '2026-11-30'] }), 'demo7');
    expect(a.message).toMatch(/^表单填写有误：请假天数与请假时间不符：.*共2个工作日/);
    const ok = await call('start', leave({ days: 2, period: ['2026-11-27', '2026-11-30'] }), 'demo7');
    expect(ok.code).toBe(20000);
  });

  it('fills in the days when missing, takes half a day less, and the route reads the derived value', async () => {
    const five = await call('start', leave({ period: ['2026-11-23', '2026-11-27'] }), 'demo7');
    expect(five.code).toBe(20000);
    expect(await storedDays(five.r.workId)).toBe(5);
    // 超过3天 goes on to 分管领导审批 after the manager.
    const sent = await call('send', { workId: five.r.workId, opinion: '同意' }, 'demo4');
    expect(sent.message).toMatch(/^已发送至「分管领导审批」/);

    const half = await call('start', leave({ days: 0.5, period: ['2026-11-24', '2026-11-24'] }), 'demo7');
    expect(half.code).toBe(20000);
    expect(await storedDays(half.r.workId)).toBe(0.5);
    const short = await call('send', { workId: half.r.workId, opinion: '同意' }, 'demo4');
    expect(short.message).not.toMatch(/分管领导审批/);
  });

  it('nextstep previews by the derived value, not a typed one', async () => {
    const started = await call('start', leave({ days: 1, period: ['2026-11-24', '2026-11-24'] }), 'demo7');
    const typed = await call('nextstep', { workId: started.r.workId, form: leave({ days: 10, period: ['2026-11-24', '2026-11-24'] }).form }, 'demo4');
    expect(typed.r.nodeName).not.toBe('分管领导审批');
    const long = await call('nextstep', { workId: started.r.workId, form: leave({ days: 1, period: ['2026-11-23', '2026-11-27'] }).form }, 'demo4');
    expect(long.r.nodeName).toBe('分管领导审批');
  });

  it('migration 0015 gives stored leave templates the derivation', async () => {
    const rows = await wf(s.db.kysely).selectFrom('wf_templates').select(['id', 'definition']).where('flow_no', '=', 'QJ01').execute();
    for (const r of rows) {
      const def = JSON.parse(r.definition);
      for (const f of def.form) if (f.key === 'days') { delete f.workdaysOf; delete f.halfDays; f.help = '按工作日计算，可填半天（0.5）'; }
      await wf(s.db.kysely).updateTable('wf_templates').set({ definition: JSON.stringify(def) }).where('id', '=', r.id).execute();
    }
    await leaveDaysDerived(s.db.kysely);
    const after = await wf(s.db.kysely).selectFrom('wf_templates').select('definition').where('flow_no', '=', 'QJ01').execute();
    for (const r of after) expect(JSON.parse(r.definition).form.find((f: { key: string }) => f.key === 'days')).toMatchObject({ workdaysOf: 'period', halfDays: true });
  });
});
