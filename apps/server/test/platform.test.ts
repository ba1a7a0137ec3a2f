import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../src/config.js';
import { attachServer, startTestServer, type TestServer } from './helpers.js';

async function failing(app: FastifyInstance) {
  app.post('/api/probe/boom', { config: { access: { kind: 'public' } } }, async () => {
    throw new Error('secret internals at /srv/app.ts:42');
  });
}

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ extraModules: [failing] });
});
afterAll(() => s.close());

describe('errors', () => {
  it('an unexpected error is a 500 envelope with a request id and no stack trace', async () => {
    const a = await s.call('/api/probe/boom', {});
    expect(a.status).toBe(500);
    expect(a.code).toBe(30000);
    expect(a.message).toMatch(/^服务器内部错误，请稍后重试（请求号 [0-9a-f-]{36}）$/);
    expect(a.raw).not.toContain('secret internals');
    expect(a.headers['x-request-id']).toBeTruthy();
  });

  it('an unknown API path is a 404 envelope', async () => {
    const a = await s.call('/api/no/such/call', {});
    expect([a.status, a.code, a.message]).toEqual([404, 30000, '请求的接口不存在']);
  });
});

describe('security', () => {
  it('sends security headers with a content security policy', async () => {
    const res = await s.app.inject({ method: 'GET', url: '/version.json' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('limits sign-in attempts per IP', async () => {
    const limited = await startTestServer({ env: { LOGIN_RATE_LIMIT: '3' } });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 4; i++) codes.push((await limited.call('/api/account/login', { name: 'nobody', password: 'x' })).status);
      expect(codes).toEqual([400, 400, 400, 429]);
      const last = await limited.call('/api/account/login', { name: 'nobody', password: 'x' });
      expect([last.code, last.message]).toEqual([30000, '请求过于频繁，请稍后再试']);
    } finally {
      await limited.close();
    }
  });
});

describe('version, config, docs', () => {
  it('GET /version.json returns the build id, uncached', async () => {
    const res = await s.app.inject({ method: 'GET', url: '/version.json' });
    expect(res.json()).toEqual({ version: expect.stringMatching(/^server-/) });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('GET /api/public/config gives the client its service addresses without a token', async () => {
    const res = await s.app.inject({ method: 'GET', url: '/api/public/config' });
    expect(res.json()).toMatchObject({ code: 20000, r: { workflowBaseUrl: '', oaApiBaseUrl: '/sim/oa', pmsApiBaseUrl: '/sim/pms' } });
  });

  it('serves the OpenAPI description at /api/docs', async () => {
    const res = await s.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toContain('/api/account/login');
    expect(doc.paths['/api/account/login'].post.requestBody.content['application/json'].schema.required).toEqual(['name', 'password']);
    expect((await s.app.inject({ method: 'GET', url: '/api/docs' })).statusCode).toBeLessThan(400);
  });

  it('without a built web client, a page path says how to build it', async () => {
    const res = await s.app.inject({ method: 'GET', url: '/dashboard' });
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('npm start');
  });
});

describe('sister systems simulator', () => {
  it('GET /todo-num/{userNo} answers the signed-in user their own pending count from the demo data', async () => {
    const rows = await s.db.kysely.selectFrom('sister_todos').select(['login_name']).where('system', '=', 'oa').where('done', '=', 0).execute();
    const counts = new Map<string, number>();
    for (const r of rows) counts.set(r.login_name, (counts.get(r.login_name) ?? 0) + 1);
    const [login, n] = [...counts].find(([, c]) => c > 9)!;
    const token = await s.login(login);
    const res = await s.app.inject({ method: 'GET', url: `/sim/oa/todo-num/${login}`, headers: { 'x-token': token } });
    expect(res.json()).toEqual({ code: 20000, r: n });
    const none = await s.app.inject({ method: 'GET', url: '/sim/pms/todo-num/nobody' });
    expect(none.json().code).toBe(50008);
  });

  it("needs a session and answers only the caller's own number", async () => {
    expect((await s.app.inject({ method: 'GET', url: '/sim/oa/todo-num/demo5' })).json().code).toBe(50008);
    const token = await s.login('demo6');
    const other = await s.app.inject({ method: 'GET', url: '/sim/oa/todo-num/demo5', headers: { 'x-token': token } });
    expect(other.statusCode).toBe(403);
    expect(other.json()).toMatchObject({ code: 30000, message: '权限不足' });
    const own = await s.app.inject({ method: 'GET', url: '/sim/pms/todo-num/DEMO6', headers: { 'x-token': token } });
    expect(own.json()).toMatchObject({ code: 20000, r: expect.any(Number) });
  });

  it("its page names nobody's items", async () => {
    await s.db.kysely.insertInto('sister_todos').values({ id: 'x1', system: 'oa', login_name: 'demo5', title: '<script>alert(1)</script>', done: 0, created_at: new Date().toISOString() }).execute();
    const res = await s.app.inject({ method: 'GET', url: '/sim/oa/?user=demo5' });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('alert(1)');
    expect(res.body).not.toContain('demo5');
    // Issue 12 item 22: it says what it is, and no heading reads "的待办" with the name missing.
    expect(res.body).toMatch(/<h2>[^<]+（模拟）<\/h2>/);
    expect(res.body).not.toMatch(/>\s*的待办/);
  });

  it('SISTER_SIMULATOR decides when set; otherwise the data does: on with the demo company, off without', async () => {
    expect(loadConfig({}, []).sisterSimulator).toBeUndefined();
    expect(loadConfig({ DEMO: '0', SISTER_SIMULATOR: '1' }, []).sisterSimulator).toBe(true);
    expect(loadConfig({ SISTER_SIMULATOR: '0' }, []).sisterSimulator).toBe(false);
    // This file's server holds the demo company and was given no SISTER_SIMULATOR: on.
    expect(s.app.appConfig.sisterSimulator).toBe(true);
    // A database set up without the demo company, later started with DEMO left at its default (1): still off.
    const bare = await startTestServer({ demo: false, env: { DEMO: '1' } });
    try {
      expect(bare.app.appConfig.sisterSimulator).toBe(false);
      expect((await bare.app.inject({ method: 'GET', url: '/sim/oa/todo-num/admin' })).statusCode).toBe(404);
      const on = await attachServer(bare, { SISTER_SIMULATOR: '1' });
      try {
        expect(on.app.appConfig.sisterSimulator).toBe(true);
      } finally {
        await on.close();
      }
    } finally {
      await bare.close();
    }
  });

  it('when off, its routes are gone and the client is told the sister systems are not configured', async () => {
    const off = await startTestServer({ demo: false, env: { SISTER_SIMULATOR: '0', PMS_API_BASE_URL: 'https://pms.example.com/api', PMS_URL: 'https://pms.example.com/' } });
    try {
      expect((await off.app.inject({ method: 'GET', url: '/sim/oa/todo-num/admin' })).statusCode).toBe(404);
      expect((await off.app.inject({ method: 'GET', url: '/sim/oa/' })).statusCode).not.toBe(200);
      const cfg = (await off.app.inject({ method: 'GET', url: '/api/public/config' })).json().r;
      expect(cfg).toMatchObject({ oaApiBaseUrl: '', oaUrl: '', pmsApiBaseUrl: 'https://pms.example.com/api', pmsUrl: 'https://pms.example.com/' });
    } finally {
      await off.close();
    }
  });
});

