/**
 * Issue 29 item 11: the lawful exceptions of 注册建造师执业管理办法（试行）第九条 on a cloned demo company. A
 * registered manager leading an active project is refused a second one; an exception recorded on the second
 * project relative to the first (停工 for 120 days or more, counted from the stop day; adjacent sections or
 * phases of the same client) with evidence lets the save through and says which rule allowed it; 119 days,
 * another client, no evidence, a resumed project are refused in Chinese; the exception shows on both projects
 * and in 业绩核查; roles 1 and 4 record it, 6 is refused; another user's id is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContractType, ManagerExceptionGround, ProjectState } from '@zhyy/shared';
import { shanghaiDay } from '../src/platform/listing.js';
import { certKindId } from '../src/seed/tender-people.js';
import '../src/modules/tender/people/tables.js';
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
  for (const n of ['demo1', 'demo4', 'demo6', 'demo15']) tokens[n] = await s.login(n);
});
afterAll(() => s?.close());

const call = (path: string, body: unknown, who: string) => s.call(`/api/tender/${path}`, body, tokens[who]);
async function answer(path: string, body: unknown, who: string): Promise<[number, string]> {
  const a = await call(path, body, who);
  return [a.status, a.code === 20000 ? 'ok' : (a.message ?? '')];
}
const upload = (exceptionId: string, who: string) =>
  s.app.inject({
    method: 'POST',
    url: `/api/tender/attachment/upload?ownerKind=manager-exception&ownerId=${exceptionId}&kind=0&name=${encodeURIComponent('建设单位同意函.pdf')}`,
    headers: { 'content-type': 'application/octet-stream', 'x-token': tokens[who]! },
    payload: PDF,
  });

/** An active staff member (not admin) with no 建造师 certificate and no project, made a 一级建造师. */
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
  const c = await call('certificate/save', { userId: u.id, kindId: certKindId('jz1'), speciality: '市政公用工程', certNo: `LE-${order}-${tag}`, validFrom: '2024-01-01', validTo: addDays(today, 700) }, 'demo15');
  expect(c.code, c.message).toBe(20000);
  return u;
}

async function project(code: string, name: string, over: Record<string, unknown> = {}) {
  const a = await call('project/save', { code: `${code}-${tag}`, name, customer: CLIENT, state: ProjectState.building, ...over }, 'demo4');
  expect(a.code, a.message).toBe(20000);
  return { id: a.r.id as string, code: a.r.code as string, name, customer: CLIENT, state: ProjectState.building, ...over };
}
const resave = (p: { id: string; code: string; name: string; customer: string; state: number }, over: Record<string, unknown>, who = 'demo4') =>
  call('project/save', { id: p.id, code: p.code, name: p.name, customer: p.customer, state: p.state, ...over }, who);

describe('停工 120 days (含), with the client\'s consent as evidence', () => {
  it('refuses the second project, records the exception (119 days refused, 120 allowed), lets the save through once evidence is in, and refuses again when the first resumes', async () => {
    const m = await registeredManager('asc');
    const a = await project('LE-A', '江北管廊一期', { managerId: m.id });
    const b = await project('LE-B', '江北管廊二期');
    const taken = `${m.name}是注册建造师，已担任在建项目「${a.code} 江北管廊一期」的项目经理，不能同时负责两个在建项目`;
    expect(await answer('project/save', { ...b, id: b.id, managerId: m.id }, 'demo4')).toEqual([409, `${taken}（如属注册建造师执业管理办法（试行）第九条的例外情形，请在项目详情中登记例外并上传证明材料）`]);
    expect(await answer('project/save', { code: `LE-NEW-${tag}`, name: '新项目', customer: CLIENT, state: ProjectState.building, managerId: m.id }, 'demo4')).toEqual([
      409,
      `${taken}（如属注册建造师执业管理办法（试行）第九条的例外情形，请先不填项目经理保存项目，再在项目详情中登记例外并上传证明材料）`,
    ]);

    const body = { projectId: b.id, managerId: m.id, otherProjectId: a.id, ground: ManagerExceptionGround.suspended, stopDate: addDays(today, -120), validFrom: today, remark: '建设单位征地未完成' };
    expect(await answer('project/exception/save', body, 'demo4')).toEqual([400, `「${a.code} 江北管廊一期」不是停工状态，不能按停工情形登记例外`]);
    expect((await resave(a, { managerId: m.id, state: ProjectState.suspended })).code).toBe(20000);
    expect(await answer('project/exception/save', { ...body, stopDate: addDays(today, -119) }, 'demo4')).toEqual([
      400,
      `「${a.code} 江北管廊一期」自${addDays(today, -119)}停工至今119天，不足120天，不能按停工情形登记例外（注册建造师执业管理办法（试行）第九条（三）：停工超过120天（含））`,
    ]);
    expect(await answer('project/exception/save', { ...body, validFrom: addDays(today, -1) }, 'demo4')).toEqual([400, `例外起始日期不能早于停工满120天之日（${today}）`]);
    const saved = await call('project/exception/save', body, 'demo4');
    expect([saved.status, saved.message]).toEqual([200, '已登记']);
    expect(saved.r).toMatchObject({ projectId: b.id, otherProjectId: a.id, managerName: m.name, stopDays: 120, evidenceCount: 0, createdBy: expect.any(String), problem: '例外尚未上传证明材料（建设单位同意的书面文件、停工证明）' });
    expect(await answer('project/exception/save', body, 'demo1')).toEqual([409, '该项目经理在这两个项目之间已登记例外，请修改已有的例外']);

    // No evidence yet: refused, naming why the exception cannot be used.
    expect(await answer('project/save', { ...b, id: b.id, managerId: m.id }, 'demo4')).toEqual([409, `${taken}；已登记的例外不能使用：例外尚未上传证明材料（建设单位同意的书面文件、停工证明）`]);
    expect((await upload(saved.r.id, 'demo6')).statusCode).toBe(403);
    expect((await upload(saved.r.id, 'demo4')).statusCode).toBe(200);
    const ok = await resave(b, { managerId: m.id });
    expect([ok.status, ok.message]).toEqual([200, `保存成功（${m.name}同时担任「${a.code} 江北管廊一期」的项目经理，依据注册建造师执业管理办法（试行）第九条（三）：停工120天以上（含）且经建设单位同意）`]);
    expect(ok.r.managerRegistered).toBe(true);

    // Shown on both projects, in force; logged on both with who recorded it.
    for (const id of [a.id, b.id]) {
      const d = (await call('project/detail', { id }, 'demo4')).r;
      expect(d.managerExceptions).toHaveLength(1);
      expect(d.managerExceptions[0]).toMatchObject({ id: saved.r.id, ground: 1, stopDate: addDays(today, -120), validFrom: today, validTo: null, evidenceCount: 1, problem: null, remark: '建设单位征地未完成' });
    }
    const log = await db().selectFrom('operation_logs').select(['description', 'record_id', 'user_name']).where('description', 'like', '登记项目经理例外%').where('description', 'like', `%${a.code}%`).execute();
    expect(log.map((l) => l.record_id).sort()).toEqual([a.id, b.id].sort());
    expect(log[0]!.description).toBe(`登记项目经理例外：${m.name} 在「${b.code} 江北管廊二期」与「${a.code} 江北管廊一期」：停工120天以上（含）且经建设单位同意，停工日期 ${addDays(today, -120)}，有效期 ${today} 至 长期，说明 建设单位征地未完成`);
    const edit = await db().selectFrom('operation_logs').select('description').where('record_id', '=', b.id).where('description', 'like', '修改项目%').execute();
    expect(edit.map((l) => l.description).join()).toContain('依据注册建造师执业管理办法（试行）第九条（三）');

    // In use: not deleted. The first project resuming: the ground no longer holds.
    expect(await answer('project/exception/delete', { id: saved.r.id }, 'demo4')).toEqual([409, `${m.name}仍同时担任「${b.code} 江北管廊二期」与「${a.code} 江北管廊一期」的项目经理，该例外正在使用，不能删除；请先更换项目经理或调整项目状态`]);
    expect(await answer('project/save', { ...a, id: a.id, managerId: m.id, state: ProjectState.building }, 'demo4')).toEqual([
      409,
      `${m.name}是注册建造师，已担任在建项目「${b.code} 江北管廊二期」的项目经理，不能同时负责两个在建项目；已登记的例外不能使用：「${a.code} 江北管廊一期」不是停工状态，不能按停工情形登记例外`,
    ]);

    // 业绩核查 shows the exception on a contract of the project (role 6 reads it there).
    const c = await call('contract/add', { contractType: ContractType.single, code: `LE-HT-${tag}`, name: '江北管廊二期施工合同', customer: CLIENT, amount: 100_000_00, signedOn: '2025-03-01', projectId: b.id }, 'demo1');
    expect(c.code, c.message).toBe(20000);
    const check = await call('export/performance/check', { contractIds: [c.r.id], deadline: today, years: 3, thresholdFen: 0 }, 'demo6');
    expect(check.code, check.message).toBe(20000);
    expect(check.r[0]).toMatchObject({ projectCode: b.code, managerName: m.name });
    expect(check.r[0].managerExceptions.map((e: { id: string; problem: string | null }) => [e.id, e.problem])).toEqual([[saved.r.id, null]]);

    // Once the second project has another manager, the exception may go, with its evidence.
    expect((await resave(b, { managerId: null })).code).toBe(20000);
    expect(await answer('project/exception/delete', { id: saved.r.id }, 'demo1')).toEqual([200, 'ok']);
    expect((await call('project/detail', { id: b.id }, 'demo4')).r.managerExceptions).toEqual([]);
    expect(await db().selectFrom('tender_attachments').select('id').where('owner_kind', '=', 'manager-exception').where('owner_id', '=', saved.r.id).execute()).toEqual([]);
    expect(await answer('project/exception/delete', { id: saved.r.id }, 'demo1')).toEqual([404, '例外不存在或已删除']);
  });
});

describe('adjacent sections and phases', () => {
  it('the same client only; with evidence both projects are led and both stay marked 注册建造师', async () => {
    const m = await registeredManager('desc');
    const a = await project('LE-C', '滨江大道一标段', { managerId: m.id });
    const other = await project('LE-D', '滨江大道二标段', { customer: '南京地铁集团有限公司' });
    const same = await project('LE-E', '滨江大道三标段');
    const body = { managerId: m.id, otherProjectId: a.id, ground: ManagerExceptionGround.adjacent, validFrom: today, validTo: addDays(today, 365) };
    expect(await answer('project/exception/save', { ...body, projectId: other.id }, 'demo1')).toEqual([
      400,
      `相邻分段须为同一发包人的工程：「${other.code} 滨江大道二标段」的客户为“南京地铁集团有限公司”，「${a.code} 滨江大道一标段」为“${CLIENT}”`,
    ]);
    expect(await answer('project/exception/save', { ...body, projectId: same.id, ground: ManagerExceptionGround.phased, validTo: addDays(today, -1) }, 'demo1')).toEqual([400, '参数错误：例外截止日期不能早于起始日期']);
    const e = await call('project/exception/save', { ...body, projectId: same.id }, 'demo1');
    expect(e.code, e.message).toBe(20000);
    expect(e.r.stopDate).toBeNull();
    expect((await upload(e.r.id, 'demo1')).statusCode).toBe(200);
    const saved = await resave(same, { managerId: m.id });
    expect([saved.status, saved.message]).toEqual([200, `保存成功（${m.name}同时担任「${a.code} 滨江大道一标段」的项目经理，依据注册建造师执业管理办法（试行）第九条（一）：同一工程相邻分段发包）`]);
    // A certificate change refreshes the flags: the project resting on the exception stays marked beside the other.
    const cert = await db().selectFrom('tender_certificates').select('id').where('user_id', '=', m.id).where('cert_no', '=', `LE-desc-${tag}`).executeTakeFirstOrThrow();
    const c = await call('certificate/save', { id: cert.id, userId: m.id, kindId: certKindId('jz1'), speciality: '市政公用工程', certNo: `LE-desc-${tag}`, validFrom: '2024-01-01', validTo: addDays(today, 800) }, 'demo15');
    expect(c.code, c.message).toBe(20000);
    const flags = await Promise.all([a.id, same.id].map(async (id) => (await call('project/detail', { id }, 'demo4')).r.managerRegistered));
    expect(flags).toEqual([true, true]);
    // The client of the third section changed: the exception no longer holds, and the save is refused.
    expect(await answer('project/save', { ...same, id: same.id, managerId: m.id, customer: '南京地铁集团有限公司' }, 'demo4')).toEqual([
      409,
      `${m.name}是注册建造师，已担任在建项目「${a.code} 滨江大道一标段」的项目经理，不能同时负责两个在建项目；已登记的例外不能使用：相邻分段须为同一发包人的工程：「${same.code} 滨江大道三标段」的客户为“南京地铁集团有限公司”，「${a.code} 滨江大道一标段」为“${CLIENT}”`,
    ]);
  });
});

describe('permissions and ids', () => {
  it('roles 1 and 4 record and read; 6 is refused; another user as manager, an unknown project or exception are refused', async () => {
    const [a, b] = await db().selectFrom('projects').select(['id', 'manager_id']).where('manager_id', 'is not', null).where('is_temp', '=', 0).orderBy('code').limit(2).execute();
    const body = { projectId: b!.id, managerId: a!.manager_id!, otherProjectId: a!.id, ground: ManagerExceptionGround.phased, validFrom: today };
    expect(await answer('project/exception/save', body, 'demo6')).toEqual([403, '权限不足']);
    expect(await answer('project/exception/list', { id: a!.id }, 'demo6')).toEqual([403, '权限不足']);
    expect(await answer('project/exception/delete', { id: 'nope' }, 'demo6')).toEqual([403, '权限不足']);
    expect(await answer('project/exception/list', { id: a!.id }, 'demo1')).toEqual([200, 'ok']);
    // A manager who does not lead the other project.
    const someoneElse = await db().selectFrom('users').select(['id', 'name']).where('id', '!=', a!.manager_id!).where('status', '=', 1).orderBy('login_name').executeTakeFirstOrThrow();
    const other = await db().selectFrom('projects').select(['code', 'name']).where('id', '=', a!.id).executeTakeFirstOrThrow();
    expect(await answer('project/exception/save', { ...body, managerId: someoneElse.id }, 'demo4')).toEqual([400, `「${other.code} ${other.name}」的项目经理不是${someoneElse.name}，无需登记例外`]);
    expect(await answer('project/exception/save', { ...body, managerId: 'no-such-user' }, 'demo4')).toEqual([400, '所选项目经理不存在，请重新选择']);
    expect(await answer('project/exception/save', { ...body, projectId: 'no-such-project' }, 'demo4')).toEqual([404, '项目不存在或已删除']);
    expect(await answer('project/exception/save', { ...body, otherProjectId: b!.id }, 'demo4')).toEqual([400, '例外所涉的另一个项目不能是本项目']);
    expect(await answer('project/exception/save', { ...body, id: 'no-such-exception' }, 'demo4')).toEqual([404, '例外不存在或已删除']);
    expect(await answer('project/exception/save', { ...body, ground: 9 }, 'demo4')).toEqual([400, '参数错误：例外情形不正确']);
  });
});
