/**
 * Issue 10 findings 2 and 3: bad input is a 4xx envelope, never a 500 (impossible dates, prototype
 * sort fields, U+0000 anywhere, bad URL encoding); every answer of every status carries the security
 * headers a successful answer carries.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { hashPassword } from '../src/platform/passwords.js';
import { startTestServer, type TestServer } from './helpers.js';

async function failing(app: FastifyInstance) {
  app.post('/api/probe/boom', { config: { access: { kind: 'public' } } }, async () => {
    throw new Error('boom');
  });
}

let s: TestServer;
let admin: string;
beforeAll(async () => {
  s = await startTestServer({ extraModules: [failing] });
  admin = await s.login('admin');
});
afterAll(() => s.close());

const WF_LIST = '/api/miswf/workflow/list';
const CHANGES = '/api/invoice/apportionment/changes';

describe('impossible dates', () => {
  for (const day of ['9999-99-99', '2026-13-45', '2026-02-29', '2026-04-31', '2026-00-10']) {
    it(`refuses ${day} in from/to with a 400 naming the field`, async () => {
      for (const [url, field] of [[WF_LIST, 'from'], [WF_LIST, 'to'], [CHANGES, 'from'], [CHANGES, 'to'], ['/api/invoice/list', 'issueFrom']] as const) {
        const a = await s.call(url, { scope: 'all', [field]: day }, admin);
        expect([url, a.status, a.code, a.message]).toEqual([url, 400, 30000, `参数错误：${({ from: '开始时间', to: '结束时间', issueFrom: '开票开始日期' } as const)[field]}不是有效的日期`]);
      }
    });
  }

  it('still takes real days, leap days included', async () => {
    const a = await s.call(WF_LIST, { scope: 'all', from: '2024-02-29', to: '2026-12-31' }, admin);
    expect(a.code).toBe(20000);
    expect((await s.call(CHANGES, { from: '2028-02-29' }, admin)).code).toBe(20000);
  });

  it('the last day there is (9999-12-31) as an end still finds what is before it', async () => {
    const all = await s.call(WF_LIST, { scope: 'all' }, admin);
    expect(all.r.total).toBeGreaterThan(0);
    const open = await s.call(WF_LIST, { scope: 'all', from: '2000-01-01', to: '9999-12-31' }, admin);
    expect(open.r.total).toBe(all.r.total);
  });

  it('refuses an impossible day inside a time filter', async () => {
    const a = await s.call('/api/syslog/list', { from: '2026-02-30T00:00:00Z' }, admin);
    expect([a.status, a.message]).toEqual([400, '参数错误：开始时间格式不正确']);
    expect((await s.call('/api/syslog/list', { from: '2024-02-29T00:00:00+08:00' }, admin)).code).toBe(20000);
  });
});

describe('sort fields', () => {
  for (const field of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
    it(`sorts the workflow list by the default when asked for ${field}`, async () => {
      const a = await s.call(WF_LIST, { scope: 'all', sort: { field, order: 'ascend' } }, admin);
      expect([a.status, a.code]).toEqual([200, 20000]);
    });
  }
});

describe('control characters', () => {
  it('refuses U+0000 in a sign-in name with a 400 naming the field', async () => {
    const a = await s.call('/api/account/login', { name: 'adm\u0000in', password: 'x' });
    expect([a.status, a.code, a.message]).toEqual([400, 30000, '参数错误：名称不能包含控制字符']);
  });

  it('refuses other control characters in stored text, keeps tab and newline', async () => {
    const bad = await s.call('/api/syslog/add-operation-log', { description: 'a\u0007b', type: 30 }, admin);
    expect([bad.status, bad.message]).toEqual([400, '参数错误：描述不能包含控制字符']);
    const good = await s.call('/api/syslog/add-operation-log', { description: 'a\tb\r\nc', type: 30 }, admin);
    expect(good.code).toBe(20000);
  });

  it('refuses U+0000 in a path parameter, a query string, a free-form value and a key', async () => {
    const param = await s.app.inject({ method: 'GET', url: '/sim/oa/todo-num/%00', headers: { 'x-token': admin } });
    expect([param.statusCode, param.json().message]).toEqual([400, '参数错误：工号不能包含控制字符']);
    const query = await s.app.inject({ method: 'GET', url: '/sim/oa/?user=a%00', headers: { 'x-token': admin } });
    expect([query.statusCode, query.json().code]).toEqual([400, 30000]);
    const form = await s.call('/api/miswf/workflow/workflow', { flowNo: 'x', form: { note: { deep: ['ok', 'a\u0000'] } } }, admin);
    expect([form.status, form.message]).toEqual([400, '参数错误：备注不能包含控制字符']);
    const key = await s.call('/api/miswf/workflow/workflow', { flowNo: 'x', form: { 'k\u0000': 1 } }, admin);
    expect([key.status, key.code]).toEqual([400, 30000]);
  });
});

describe('numbers beyond an integer column', () => {
  it('refuses a workflow number PostgreSQL cannot compare with', async () => {
    for (const workId of [1e15, Number.MAX_SAFE_INTEGER]) {
      const a = await s.call('/api/miswf/workflow/workchecklist', { workId }, admin);
      expect([a.status, a.message]).toEqual([400, '参数错误：流程编号不正确']);
    }
  });
});

describe('framework errors', () => {
  it('answers a bad URL encoding with the envelope', async () => {
    for (const url of ['/api/account/%ff', '/sim/oa/todo-num/%ff', '/%E0%A4%A']) {
      const res = await s.app.inject({ method: 'POST', url, payload: {} });
      expect([url, res.statusCode, res.json()]).toEqual([url, 400, { code: 30000, message: '请求地址无效：含有不正确的URL编码' }]);
      expect(res.headers['x-request-id']).toBeTruthy();
    }
  });

  it('answers an over-long path parameter with the envelope and the security headers', async () => {
    const res = await s.app.inject({ method: 'GET', url: `/sim/oa/todo-num/${'a'.repeat(200)}` });
    expect([res.statusCode, res.json()]).toEqual([414, { code: 30000, message: '请求地址过长' }]);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});

/** The headers helmet sets: the same on every answer. */
const SECURITY = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'strict-transport-security',
  'x-content-type-options',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];
const securityOf = (res: { headers: Record<string, unknown> }) =>
  Object.fromEntries(Object.entries(res.headers).filter(([k]) => SECURITY.includes(k.toLowerCase())));

describe('security headers on every answer', () => {
  it('a successful answer carries the full set', async () => {
    const okAnswer = await s.call('/api/account/userinfo', {}, admin);
    expect(okAnswer.code).toBe(20000);
    expect(Object.keys(securityOf(okAnswer)).sort()).toEqual([...SECURITY].sort());
  });

  it('every kind of refusal carries the same set as a success', async () => {
    const success = securityOf(await s.call('/api/account/userinfo', {}, admin));
    const demo = await s.login('demo17');
    await s.db.kysely.updateTable('users').set({ password_hash: await hashPassword('Init2026a'), password_is_initial: 1 }).where('login_name', '=', 'demo13').execute();
    const initial = await s.login('demo13', 'Init2026a');
    const inject = (opts: InjectOptions) => s.app.inject(opts) as Promise<LightMyRequestResponse>;
    const cases: Array<[string, number, { headers: Record<string, unknown> }]> = [
      ['no token (50008)', 401, await s.call('/api/user/list', {})],
      ['dead token (50008)', 401, await s.call('/api/user/list', {}, 'f'.repeat(64))],
      ['权限不足', 403, await s.call('/api/user/list', {}, demo)],
      ['initial password (50010)', 403, await s.call('/api/user/list', {}, initial)],
      ['unknown path', 404, await s.call('/api/no/such/call', {})],
      ['validation', 400, await s.call('/api/account/login', { name: 1 })],
      ['bad JSON', 400, await inject({ method: 'POST', url: '/api/account/login', headers: { 'content-type': 'application/json' }, payload: '{' })],
      ['too large', 413, await inject({ method: 'POST', url: '/api/account/login', headers: { 'content-type': 'application/json' }, payload: `"${'x'.repeat(6 * 1024 * 1024)}"` })],
      ['media type', 415, await inject({ method: 'POST', url: '/api/account/login', headers: { 'content-type': 'application/xml' }, payload: '<x/>' })],
      ['unexpected', 500, await s.call('/api/probe/boom', {})],
      ['bad URL', 400, await inject({ method: 'POST', url: '/api/%ff', payload: {} })],
    ];
    for (const [what, status, res] of cases) {
      const got = 'status' in res ? (res as { status: number }).status : (res as LightMyRequestResponse).statusCode;
      expect([what, got, securityOf(res)]).toEqual([what, status, success]);
    }
  });

  it('a rate-limit refusal carries them too', async () => {
    const limited = await startTestServer({ env: { LOGIN_RATE_LIMIT: '1' } });
    try {
      const success = securityOf(await limited.call('/api/account/login', { name: 'admin', password: 'x' }));
      const last = await limited.call('/api/account/login', { name: 'admin', password: 'x' });
      expect([last.status, securityOf(last)]).toEqual([429, success]);
    } finally {
      await limited.close();
    }
  });
});
