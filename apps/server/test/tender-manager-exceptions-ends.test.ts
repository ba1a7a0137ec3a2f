/**
 * Issue 29 (registered builders' exceptions, after item 11): an exception ends by itself when a project save makes its
 * ground no longer hold (a project finished; the stopped project resumed), with the reason on the project and in both
 * logs; the last evidence file of an exception in force cannot be deleted; the project's manager is reminded once per
 * end day before a time-bound exception ends (站内消息). Cloned demo company, both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManagerExceptionGround, ProjectState } from '@zhyy/shared';
import { sendExceptionReminders } from '../src/modules/tender/contracts/exceptions.js';
import { shanghaiDay } from '../src/platform/listing.js';
import { certKindId } from '../src/seed/tender-people.js';
import '../src/modules/tender/people/tables.js';
import '../src/modules/messages/tables.js';
import { startTestServer, type TestServer } from './helpers.js';

const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

let s: TestServer;
const tokens: Record<string, string> = {};
const db = () => s.db.kysely;
const today = shanghaiDay();
const tag = `${process.pid}`;
const CLIENT = '南京江北新区建设投资集团有限公司';

beforeAll(async () => {
  s = await startTestServer();
  for (const n of ['demo4', 'demo15']) tokens[n] = await s.login(n);
});
afterAll(() => s?.close());

const call = (path: string, body: unknown, who = 'demo4') => s.call(`/api/tender/${path}`, body, tokens[who]);
const upload = (exceptionId: string, name: string) =>
  s.app.inject({
    method: 'POST',
    url: `/api/tender/attachment/upload?ownerKind=manager-exception&ownerId=${exceptionId}&kind=0&name=${encodeURIComponent(name)}`,
    headers: { 'content-type': 'application/octet-stream', 'x-token': tokens.demo4! },
    payload: Buffer.concat([PDF, Buffer.from(name)]),
  });

async function registeredManager(order: 'asc' | 'desc') {
  const u = await db()
    .selectFrom('users as u')
    .select(['u.id', 'u.name'])
    .where('u.status', '=', 1)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('user_roles as r').select('r.user_id').whereRef('r.user_id', '=', 'u.id').where('r.role', '=', 'admin'))))
    .where((eb) => eb.not(eb.exists(eb.selectFrom('tender_certificates as c').select('c.id').whereRef('c.user_id', '=', 'u.id').where('c.kind_id', 'in', [certKindId('jz1'), certKindId('jz2')]))))
    .where((eb) => eb.not(eb.exists(eb.selectFrom('projects as p').select('p.id').whereRef('p.manager_id', '=', 'u.id'))))
    .orderBy('u.login_name', order)
    .executeTakeFirstOrThrow();
  const c = await call('certificate/save', { userId: u.id, kindId: certKindId('jz1'), speciality: '市政公用工程', certNo: `LX-${order}-${tag}`, validFrom: '2024-01-01', validTo: addDays(today, 700) }, 'demo15');
  expect(c.code, c.message).toBe(20000);
  return u;
}

type Project = { id: string; code: string; name: string; customer: string; state: number; managerId?: string | null };
async function project(code: string, name: string, over: Record<string, unknown> = {}): Promise<Project> {
  const a = await call('project/save', { code: `${code}-${tag}`, name, customer: CLIENT, state: ProjectState.building, ...over });
  expect(a.code, a.message).toBe(20000);
  return { id: a.r.id as string, code: a.r.code as string, name, customer: CLIENT, state: ProjectState.building, ...over };
}
const resave = (p: Project, over: Record<string, unknown>) => call('project/save', { id: p.id, code: p.code, name: p.name, customer: p.customer, state: p.state, managerId: p.managerId ?? null, ...over });

/** A registered manager leading A (stopped 130 days ago) and B (resting on an exception of 停工, ending `validTo`, with one evidence file). */
async function pair(order: 'asc' | 'desc', letter: string, validTo: string | null) {
  const m = await registeredManager(order);
  const a = await project(`LX-${letter}A`, `${letter}段停工项目`, { managerId: m.id });
  expect((await resave(a, { state: ProjectState.suspended })).code).toBe(20000);
  a.state = ProjectState.suspended;
  const b = await project(`LX-${letter}B`, `${letter}段新项目`);
  const e = await call('project/exception/save', { projectId: b.id, managerId: m.id, otherProjectId: a.id, ground: ManagerExceptionGround.suspended, stopDate: addDays(today, -130), validFrom: today, validTo, remark: '' });
  expect(e.code, e.message).toBe(20000);
  expect((await upload(e.r.id, '建设单位同意函.pdf')).statusCode).toBe(200);
  const saved = await resave(b, { managerId: m.id });
  expect(saved.code, saved.message).toBe(20000);
  b.managerId = m.id;
  return { m, a, b, exceptionId: e.r.id as string };
}
const exceptionOf = async (projectId: string) => (await call('project/detail', { id: projectId })).r.managerExceptions[0];
const files = async (exceptionId: string) => (await call('attachment/list', { ownerKind: 'manager-exception', ownerIds: [exceptionId] })).r as Array<{ id: string }>;
const messagesOf = (userId: string, title: string) => db().selectFrom('user_messages').select(['title', 'content', 'link']).where('user_id', '=', userId).where('title', '=', title).execute();

describe('the evidence of an exception in force, the reminder before its end, and its end when a project finishes', () => {
  let p: Awaited<ReturnType<typeof pair>>;
  const end = addDays(today, 20);

  it('the last evidence file of an exception in force is not deleted; with a second one, one of them may go', async () => {
    p = await pair('asc', 'X', end);
    const [only] = await files(p.exceptionId);
    const refused = await call('attachment/delete', { id: only!.id });
    expect([refused.status, refused.message]).toEqual([400, `该例外正在使用（${p.m.name}同时担任「${p.b.code} X段新项目」与「${p.a.code} X段停工项目」的项目经理），这是它唯一的证明材料，不能删除；请先上传新的证明材料再删除这一份`]);
    expect(await files(p.exceptionId)).toHaveLength(1);
    expect((await upload(p.exceptionId, '停工证明.pdf')).statusCode).toBe(200);
    expect((await call('attachment/delete', { id: only!.id })).code).toBe(20000);
    const [last] = await files(p.exceptionId);
    expect((await call('attachment/delete', { id: last!.id })).status).toBe(400);
    expect((await exceptionOf(p.b.id)).problem).toBeNull();
  });

  it('the project\'s manager is reminded once within 30 days of the end day, again when the end day changes', async () => {
    const title = `项目经理例外将于${end}到期`;
    await sendExceptionReminders(db(), addDays(today, -20));
    expect(await messagesOf(p.m.id, title)).toEqual([]);
    await sendExceptionReminders(db(), today);
    const [msg] = await messagesOf(p.m.id, title);
    expect(msg).toEqual({
      title,
      content: `${p.m.name}在「${p.b.code} X段新项目」与「${p.a.code} X段停工项目」之间登记的项目经理例外（注册建造师执业管理办法（试行）第九条：停工120天以上（含）且经建设单位同意）将于 ${end} 到期（还有20天）。到期后两个项目不能再同时由其担任项目经理：如情形仍然成立，请补充证明材料并修改例外的截止日期；否则请调整项目经理或项目状态。`,
      link: `/tender/project/detail/${p.b.id}`,
    });
    await sendExceptionReminders(db(), addDays(today, 1));
    expect(await messagesOf(p.m.id, title)).toHaveLength(1);
    const later = addDays(today, 25);
    const e = await exceptionOf(p.b.id);
    const moved = await call('project/exception/save', { id: e.id, projectId: p.b.id, managerId: p.m.id, otherProjectId: p.a.id, ground: 1, stopDate: e.stopDate, validFrom: e.validFrom, validTo: later, remark: '' });
    expect(moved.code, moved.message).toBe(20000);
    await sendExceptionReminders(db(), today);
    expect(await messagesOf(p.m.id, `项目经理例外将于${later}到期`)).toHaveLength(1);
  });

  it('the stopped project finished: the exception ends by itself (today), says why on both projects and logs; its evidence may then go', async () => {
    expect((await resave(p.a, { state: ProjectState.finished })).code).toBe(20000);
    const reason = `「${p.a.code} X段停工项目」已完工（注册建造师执业管理办法（试行）第九条（二）），例外自动终止`;
    for (const id of [p.a.id, p.b.id]) expect(await exceptionOf(id)).toMatchObject({ endReason: reason, validTo: today, problem: `例外已于${today}终止：${reason}` });
    const logs = await db().selectFrom('operation_logs').select(['record_id', 'description']).where('description', 'like', '项目经理例外自动终止%').where('description', 'like', `%${p.a.code}%`).execute();
    expect(logs.map((l) => l.record_id).sort()).toEqual([p.a.id, p.b.id].sort());
    expect(logs[0]!.description.endsWith(`；${reason}`)).toBe(true);
    expect((await db().selectFrom('projects').select('manager_exception_id').where('id', '=', p.b.id).executeTakeFirstOrThrow()).manager_exception_id).toBeNull();
    const [last] = await files(p.exceptionId);
    expect((await call('attachment/delete', { id: last!.id })).code).toBe(20000);
    // An ended exception is not reminded.
    const before = (await db().selectFrom('tender_manager_exceptions').select('reminded_for').where('id', '=', p.exceptionId).executeTakeFirstOrThrow()).reminded_for;
    await sendExceptionReminders(db(), today);
    expect((await db().selectFrom('tender_manager_exceptions').select('reminded_for').where('id', '=', p.exceptionId).executeTakeFirstOrThrow()).reminded_for).toBe(before);
  });
});

describe('the stopped project resumes (under another manager): the 停工 ground ends', () => {
  it('ends the exception with the reason; the manager then leads only the second project, with no exception mark', async () => {
    const p = await pair('desc', 'Y', null);
    // Resuming while the manager leads both is refused (the ground would no longer hold): change the manager first.
    expect((await resave(p.a, { state: ProjectState.building })).status).toBe(409);
    expect((await exceptionOf(p.b.id)).endReason).toBe('');
    const r = await resave(p.a, { managerId: null, state: ProjectState.building });
    expect(r.code, r.message).toBe(20000);
    const reason = `「${p.a.code} Y段停工项目」已不再停工（现为在建），停工情形不再成立，例外自动终止`;
    expect(await exceptionOf(p.b.id)).toMatchObject({ endReason: reason, validTo: today, problem: `例外已于${today}终止：${reason}` });
    expect((await db().selectFrom('projects').select('manager_exception_id').where('id', '=', p.b.id).executeTakeFirstOrThrow()).manager_exception_id).toBeNull();
    // Stopping it again does not revive the ended exception: a new one would have to be recorded.
    expect((await resave(p.a, { managerId: null, state: ProjectState.suspended })).code).toBe(20000);
    expect((await exceptionOf(p.b.id)).endReason).toBe(reason);
  });
});
