import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startTestServer, type TestServer } from './helpers.js';

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
  it('GET /todo-num/{userNo} answers the pending count from the demo data', async () => {
    const rows = await s.db.kysely.selectFrom('sister_todos').select(['login_name']).where('system', '=', 'oa').where('done', '=', 0).execute();
    const counts = new Map<string, number>();
    for (const r of rows) counts.set(r.login_name, (counts.get(r.login_name) ?? 0) + 1);
    const [login, n] = [...counts].find(([, c]) => c > 9)!;
    const res = await s.app.inject({ method: 'GET', url: `/sim/oa/todo-num/${login}` });
    expect(res.json()).toEqual({ code: 20000, r: n });
    const none = await s.app.inject({ method: 'GET', url: '/sim/pms/todo-num/nobody' });
    expect(none.json()).toEqual({ code: 20000, r: 0 });
  });

  it('its page escapes what it lists', async () => {
    await s.db.kysely.insertInto('sister_todos').values({ id: 'x1', system: 'oa', login_name: 'demo5', title: '<script>alert(1)</script>', done: 0, created_at: new Date().toISOString() }).execute();
    const res = await s.app.inject({ method: 'GET', url: '/sim/oa/?user=demo5' });
    expect(res.body).not.toContain('<script>alert(1)');
    expect(res.body).toContain('&#60;script&#62;');
  });
});
