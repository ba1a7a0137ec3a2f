import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE_CODES } from '@zhyy/shared';
import { openDatabase, migrate } from '../src/db/index.js';
import { buildDemoUsers } from '../src/seed/company.js';
import { prepareFirstStart } from '../src/seed/index.js';
import { Rng } from '../src/seed/rng.js';
import { startTestServer, type TestServer } from './helpers.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

describe('the demo company', () => {
  it('has about 12 departments in a tree with managers', async () => {
    const depts = await s.db.kysely.selectFrom('departments').selectAll().execute();
    expect(depts.length).toBeGreaterThanOrEqual(12);
    expect(depts.filter((d) => d.parent_id === null)).toHaveLength(1);
    expect(depts.filter((d) => d.manager_id !== null).length).toBe(depts.length);
  });

  it('has admin, one demo<N> per role holding only that role, and about 40 further staff', async () => {
    const users = await s.db.kysely.selectFrom('users').select(['id', 'login_name', 'name']).execute();
    const roles = await s.db.kysely.selectFrom('user_roles').selectAll().execute();
    const rolesOf = (id: string) => roles.filter((r) => r.user_id === id).map((r) => r.role);
    const byLogin = new Map(users.map((u) => [u.login_name, u]));
    expect(rolesOf(byLogin.get('admin')!.id)).toEqual(['admin']);
    for (const code of ROLE_CODES) expect(rolesOf(byLogin.get(`demo${code}`)!.id)).toEqual([code]);
    const staff = users.filter((u) => u.login_name !== 'admin' && !/^demo\d+$/.test(u.login_name));
    expect(staff.length).toBe(40);
    expect(staff.every((u) => /^[\u4e00-\u9fa5]{2,4}$/.test(u.name))).toBe(true);
    expect(new Set(staff.map((u) => rolesOf(u.id).join(','))).size).toBeGreaterThan(5);
  });

  it('every demo account signs in with demo123 and none must change it', async () => {
    for (const login of ['admin', 'demo1', 'demo23']) {
      const a = await s.call('/api/account/login', { name: login, password: 'demo123' });
      expect([login, a.code, a.r.needChangePassword]).toEqual([login, 20000, false]);
    }
  });

  it('is deterministic', () => {
    const a = buildDemoUsers(new Rng(1));
    const b = buildDemoUsers(new Rng(1));
    expect(a).toEqual(b);
  });
});

describe('a production start without demo data', () => {
  it('creates one administrator with a random initial password that must be changed', async () => {
    const db = openDatabase({ sqlitePath: ':memory:' });
    await migrate(db);
    const first = await prepareFirstStart(db, { demo: false });
    expect(first.kind).toBe('admin');
    const password = first.kind === 'admin' ? first.password : '';
    expect(password).toMatch(/^(?=.*[A-Za-z])(?=.*\d)[A-Za-z\d]{10}$/);
    const users = await db.kysely.selectFrom('users').select(['login_name', 'password_is_initial']).execute();
    expect(users).toEqual([{ login_name: 'admin', password_is_initial: 1 }]);
    // A second start leaves it alone.
    expect((await prepareFirstStart(db, { demo: false })).kind).toBe('none');
    // It starts with the reference data a company needs: the standard templates and the tax codes.
    const { wf } = await import('../src/modules/workflow/tables.js');
    const templates = await wf(db.kysely).selectFrom('wf_templates').select('name').execute();
    expect(templates.map((t) => t.name)).toEqual(expect.arrayContaining(['请假申请', '用印申请', '合同审批', '开票申请', '费用报销审批', '通用审批']));
    const codes = await db.kysely.selectFrom('invoice_tax_codes').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(codes.n)).toBeGreaterThan(0);
    await db.close();
  });
});

describe('every demo account can sign in', () => {
  it('holds at least one role (empty roles are refused with 权限不足)', async () => {
    const users = await s.db.kysely.selectFrom('users').select(['id', 'login_name']).execute();
    const withRoles = new Set((await s.db.kysely.selectFrom('user_roles').select('user_id').execute()).map((r) => r.user_id));
    expect(users.filter((u) => !withRoles.has(u.id)).map((u) => u.login_name)).toEqual([]);
  });
});

describe('demo invoice requests', () => {
  it('name buyers by valid GB 32100 tax numbers', async () => {
    const { taxNumberProblem } = await import('@zhyy/shared');
    const { wf } = await import('../src/modules/workflow/tables.js');
    const rows = await wf(s.db.kysely).selectFrom('wf_instances').select('form_data').execute();
    const taxNos = rows.map((r) => (JSON.parse(r.form_data) as { buyerTaxNo?: string }).buyerTaxNo).filter((t): t is string => !!t);
    expect(taxNos.length).toBeGreaterThan(0);
    expect(taxNos.filter((t) => taxNumberProblem(t) !== null)).toEqual([]);
  });
});
