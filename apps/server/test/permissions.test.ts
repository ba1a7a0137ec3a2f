import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { ROLE_CODES, STAFF_ROLE, canAccessAny, canAccess, pageRoute } from '@zhyy/shared';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { migrate, openDatabase } from '../src/db/index.js';
import { pages } from '../src/platform/access.js';
import { ok } from '../src/platform/envelope.js';
import { startTestServer, type TestServer } from './helpers.js';

/** A page-bound route used only here, so the guard is proven even before the areas' own routes exist. */
async function probeRoutes(app: FastifyInstance) {
  app.post('/api/probe/upload', { config: { access: pages('/invoice/invoiceaccount/invoice-upload/:id') } }, async () => ok('upload'));
  app.post('/api/probe/users', { config: { access: pages('/system/userlist', '/system/useronline/list') } }, async () => ok('users'));
  app.post('/api/probe/my-reimbursements', { config: { access: pages('/reimbursement/my-reimbursement-list') } }, async () => ok('mine'));
}

let s: TestServer;
const tokens = new Map<string, string>();
beforeAll(async () => {
  s = await startTestServer({ extraModules: [probeRoutes] });
  for (const login of ['admin', ...ROLE_CODES.filter((c) => c !== STAFF_ROLE).map((c) => `demo${c}`)]) tokens.set(login, await s.login(login));
});
afterAll(() => s.close());

describe('every route declares an access rule', () => {
  it('the catalogue holds every registered route with its rule', () => {
    const urls = s.app.routeCatalog.map((r) => `${r.method} ${r.url}`);
    for (const u of ['POST /api/account/login', 'POST /api/account/userinfo', 'POST /api/useronline/heartBeat', 'POST /api/syslog/add-operation-log', 'GET /version.json']) {
      expect(urls).toContain(u);
    }
    for (const r of s.app.routeCatalog) {
      expect(r.access, `${r.method} ${r.url}`).toBeDefined();
      if (r.access.kind === 'pages') expect(r.access.requirements.length).toBe(r.access.pages.length);
    }
    // Only sign-in, the start-up config, the version, the docs and the sister-system simulator are public.
    const publicApi = s.app.routeCatalog.filter((r) => r.access.kind === 'public' && r.url.startsWith('/api/') && !r.url.startsWith('/api/docs'));
    expect(publicApi.map((r) => r.url).sort()).toEqual(['/api/account/login', '/api/public/config']);
    // Outside /api: the version, the web client, the sister-system simulator, and short-lived signed file links.
    const publicOther = s.app.routeCatalog.filter((r) => r.access.kind === 'public' && !r.url.startsWith('/api/'));
    for (const r of publicOther) {
      expect(r.url, r.url).toMatch(/^(\/version\.json|\/\*?|\/sim\/(oa|pms)\/.*|\/signed\/(invoice|income|tender)-file\/:id)$/);
    }
  });

  it('a route without a rule cannot be registered', async () => {
    const db = openDatabase({ sqlitePath: ':memory:' });
    await migrate(db);
    const bad = async (app: FastifyInstance) => {
      app.post('/api/no-rule', async () => ok());
    };
    await expect(buildApp(loadConfig({ LOG_LEVEL: 'silent', WEB_DIST: '/nonexistent' }, []), db, { extraModules: [bad] })).rejects.toThrow(
      /POST \/api\/no-rule declares no access rule/,
    );
    await db.close();
  });

  it('every non-public route refuses a call without a token with 50008', async () => {
    for (const r of s.app.routeCatalog.filter((x) => x.access.kind !== 'public' && x.method === 'POST')) {
      const a = await s.call(r.url, {});
      expect([r.url, a.status, a.code]).toEqual([r.url, 401, 50008]);
    }
  });

  // The whole catalogue × every demo account, checked against the route table rather than the rule
  // itself, is route-matrix.test.ts; here the guard is proven on the probe routes alone.
  it('the probe routes admit exactly the roles of their pages for each demo role', async () => {
    const routes = s.app.routeCatalog.filter((x) => x.access.kind === 'pages' && x.url.startsWith('/api/probe/'));
    expect(routes.length).toBe(3);
    for (const r of routes) {
      if (r.access.kind !== 'pages') continue;
      for (const [login, token] of tokens) {
        const roles = login === 'admin' ? ['admin'] : [login.slice(4)];
        const a = await s.call(r.url, {}, token);
        const allowed = canAccessAny(roles, r.access.requirements);
        if (allowed) expect([r.url, login, a.status]).not.toEqual([r.url, login, 403]);
        else expect([r.url, login, a.status, a.code, a.message]).toEqual([r.url, login, 403, 30000, '权限不足']);
      }
    }
  });
});

describe('rules derived from the route table', () => {
  it('role 11 reads ledgers but may not upload; every ancestor counts', async () => {
    expect(canAccess(['11'], pageRoute('/invoice/invoiceaccount/invoice-upload/:id').requirement)).toBe(false);
    expect((await s.call('/api/probe/upload', {}, tokens.get('demo11'))).status).toBe(403);
    expect((await s.call('/api/probe/upload', {}, tokens.get('demo5'))).r).toBe('upload');
  });

  it('admin and role 1 pass everywhere', async () => {
    for (const login of ['admin', 'demo1']) {
      expect((await s.call('/api/probe/upload', {}, tokens.get(login))).code).toBe(20000);
      expect((await s.call('/api/probe/users', {}, tokens.get(login))).code).toBe(20000);
    }
  });

  it('a call shared by several pages admits anyone who may open one of them', async () => {
    expect((await s.call('/api/probe/users', {}, tokens.get('demo3'))).code).toBe(20000);
    expect((await s.call('/api/probe/users', {}, tokens.get('demo4'))).status).toBe(403);
  });

  it('pages without roles are open to every signed-in user', async () => {
    expect((await s.call('/api/probe/my-reimbursements', {}, tokens.get('demo23'))).code).toBe(20000);
  });
});
