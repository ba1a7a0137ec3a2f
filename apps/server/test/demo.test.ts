import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE_CODES, STAFF_ROLE } from '@zhyy/shared';
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
    // Role 2 (普通员工) has no demo<N> account: the field staff of the demo volume hold it (tender-people-demo.test.ts).
    for (const code of ROLE_CODES.filter((c) => c !== STAFF_ROLE)) expect(rolesOf(byLogin.get(`demo${code}`)!.id)).toEqual([code]);
    expect(users.every((u) => rolesOf(u.id).length > 0)).toBe(true);
    const staff = users.filter((u) => u.login_name !== 'admin' && !/^demo\d+$/.test(u.login_name));
    expect(staff.length).toBe(40);
    expect(staff.every((u) => /^[\u4e00-\u9fa5]{2,4}$/.test(u.name))).toBe(true);
    expect(new Set(staff.map((u) => rolesOf(u.id).join(','))).size).toBeGreaterThan(5);
  });

  it("the README's example logins exist and sign in (issue 31: it named `wangwei`, who does not)", async () => {
    const readme = readFileSync(fileURLToPath(new URL('../../../README.md', import.meta.url)), 'utf8');
    const section = readme.slice(readme.indexOf('| login | role |'), readme.indexOf('## Configuration'));
    const logins = [...new Set([...section.matchAll(/`([a-z]+\d*)`/g)].map((m) => m[1]!))];
    expect(logins).toContain('hanming');
    for (const login of logins) {
      const a = await s.call('/api/account/login', { name: login, password: 'demo123' });
      expect([login, a.code]).toEqual([login, 20000]);
    }
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

describe('the demo company looks like a real company (issue 12 #19)', () => {
  // Area codes of the cities the demo addresses are in.
  const AREA_CODES: Record<string, string> = { 南京市: '025', 苏州市: '0512', 无锡市: '0510', 常州市: '0519', 上海市: '021' };
  const cityOf = (address: string) => Object.keys(AREA_CODES).find((c) => address.startsWith(c));
  const LANDLINE = /^(0\d{2,3})-[2-9]\d{6,7}$/;

  async function buyers() {
    return s.db.kysely.selectFrom('invoice_buyers').select(['name', 'tax_no', 'address', 'phone', 'bank', 'account', 'email', 'mobile']).execute();
  }

  it('names no buyer after the simulator failure trigger (测试 / 失败)', async () => {
    const rows = await buyers();
    expect(rows.length).toBeGreaterThanOrEqual(8);
    expect(rows.filter((b) => /测试|失败/.test(b.name)).map((b) => b.name)).toEqual([]);
    const invoices = await s.db.kysely.selectFrom('invoices').select('buyer_name').execute();
    expect(invoices.filter((i) => /测试|失败/.test(i.buyer_name)).map((i) => i.buyer_name)).toEqual([]);
  });

  it('gives every buyer its own address, phone, account, tax number and email', async () => {
    const rows = await buyers();
    for (const key of ['name', 'tax_no', 'address', 'phone', 'account', 'email'] as const) {
      const values = rows.map((b) => b[key]);
      expect([key, new Set(values).size]).toEqual([key, values.length]);
    }
  });

  it('writes phones with the area code of the address city, 18-character tax numbers and 12–25-digit accounts', async () => {
    const { taxNumberProblem } = await import('@zhyy/shared');
    const seller = await s.db.kysely.selectFrom('invoice_settings').select(['seller_tax_no as tax_no', 'seller_address as address', 'seller_phone as phone', 'seller_account as account']).executeTakeFirstOrThrow();
    for (const b of [...(await buyers()), seller]) {
      const city = cityOf(b.address);
      expect([b.address, city]).toEqual([b.address, expect.any(String)]);
      expect([b.address, b.phone, LANDLINE.exec(b.phone ?? '')?.[1]]).toEqual([b.address, b.phone, AREA_CODES[city!]]);
      expect([b.tax_no, b.tax_no?.length, taxNumberProblem(b.tax_no ?? '')]).toEqual([b.tax_no, 18, null]);
      expect(b.account).toMatch(/^\d{12,25}$/);
      // No filler: a run like 12345 / 23456 or one digit six times.
      for (const v of [b.tax_no, b.account, b.phone]) expect([v, /01234|12345|23456|34567|45678|56789|(\d)\1{5}/.test(v ?? '')]).toEqual([v, false]);
    }
  });

  it('gives users distinct mobile numbers of the form 1[3-9]xxxxxxxxx', async () => {
    const users = await s.db.kysely.selectFrom('users').select(['login_name', 'phone']).execute();
    const phones = users.map((u) => u.phone).filter((p) => p);
    expect(phones.length).toBeGreaterThan(40);
    expect(phones.filter((p) => !/^1[3-9]\d{9}$/.test(p))).toEqual([]);
    expect(phones.filter((p) => /^1\d0{8,}$|(\d)\1{6}/.test(p))).toEqual([]);
    expect(new Set(phones).size).toBe(phones.length);
  });

  it('still has failed invoices (22 and 24) to retry, through ordinary buyers', async () => {
    const failed = await s.db.kysely.selectFrom('invoices').select(['status', 'buyer_name']).where('status', 'in', [22, 24]).execute();
    expect(failed.map((f) => f.status).sort()).toEqual([22, 24]);
    expect(failed.map((f) => f.buyer_name).sort()).toEqual(['南京鼎盛市政工程有限公司', '常州武进交通建设有限公司'].sort());
  });
});
