/**
 * The role × route matrix: every route of the server's catalogue × every demo account, checked
 * against what the shared route table's page roles say (docs/permissions.md, "The matrix test").
 *
 * Not circular: the guard decides with `access.requirements` and `canAccessAny` (shared/routes.ts).
 * This file uses neither. It walks the raw route tree (ROUTE_TABLE) itself to learn which roles may
 * open each page, takes each account's roles from its own userinfo answer, and takes from a route
 * only the names of the pages it serves (`access.pages`, and `access.alsoPages` for a write action on
 * a read-only ledger), which is the declaration under test.
 * A few page verdicts are also written out by hand from the spec, so the walk itself is checked.
 *
 * No side effects: every POST carries a body that is not JSON. The guard runs on onRequest, before
 * the body is parsed, so an admitted call ends in the parser's refusal and no handler ever runs
 * (no logout, no password change, no record written).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_TABLE, type RouteDef } from '@zhyy/shared';
import type { Access } from '../src/platform/access.js';
import { startTestServer, type TestServer } from './helpers.js';

/** The demo accounts of the README's table: admin and one account per role. */
const ACCOUNTS = ['admin', 'demo1', 'demo3', 'demo4', 'demo5', 'demo6', 'demo7', 'demo8', 'demo9', 'demo11', 'demo12', 'demo13', 'demo14', 'demo15', 'demo16', 'demo17', 'demo18', 'demo19', 'demo20', 'demo21', 'demo22', 'demo23'];

/** SPEC section 6: role `admin` sees every route and role `1` appears everywhere. */
const SUPER_ROLES = ['admin', '1'];

/** Each page's full path → the role lists of itself and its ancestors (each any-of; all must hold). */
function pageRoleChains(defs: readonly RouteDef[], parent = '', chain: string[][] = [], out = new Map<string, string[][]>()): Map<string, string[][]> {
  for (const d of defs) {
    const path = d.path.startsWith('/') ? d.path : `${parent.replace(/\/$/, '')}/${d.path}`;
    const c = d.roles ? [...chain, [...d.roles]] : chain;
    if (d.children?.length) pageRoleChains(d.children, path, c, out);
    else out.set(path, c);
  }
  return out;
}

const PAGES = pageRoleChains(ROUTE_TABLE);

function mayOpen(roles: readonly string[], page: string): boolean {
  const chain = PAGES.get(page);
  if (!chain) throw new Error(`unknown page ${page}`);
  if (roles.some((r) => SUPER_ROLES.includes(r))) return true;
  return chain.every((anyOf) => anyOf.some((r) => roles.includes(r)));
}

/** A route's rule read in page terms: one of its pages, and every page it also needs. */
function mayCall(access: Access, roles: readonly string[]): boolean {
  if (access.kind !== 'pages') return true;
  return access.pages.some((p) => mayOpen(roles, p)) && access.alsoPages.every((p) => mayOpen(roles, p));
}

type Verdict = 'admitted' | 'forbidden' | 'token' | 'mustChangePassword';

let s: TestServer;
const accounts: { login: string; token: string; roles: string[] }[] = [];

beforeAll(async () => {
  s = await startTestServer();
  // One sign-in per account (a sign-in rate limit and lockout apply; helpers raise the limit for tests).
  for (const login of ACCOUNTS) {
    const token = await s.login(login);
    const info = await s.call('/api/account/userinfo', {}, token);
    accounts.push({ login, token, roles: info.r.roles as string[] });
  }
}, 120_000);
afterAll(() => s.close());

/** A URL for the pattern; a user-number parameter names the caller (an owner check in the handler is not the guard's verdict). */
function concreteUrl(url: string, login?: string): string {
  return url.replace(/:userNo\b/g, login ?? '1').replace(/:[^/]+/g, '1').replace(/\*/g, 'x');
}

async function probe(method: string, url: string, token?: string, login?: string) {
  const res = await s.app.inject({
    method: method as 'GET' | 'POST',
    url: concreteUrl(url, login),
    headers: { 'content-type': 'application/json', ...(token ? { 'x-token': token } : {}) },
    ...(method === 'GET' ? {} : { payload: '{' }),
  });
  let json: { code?: number; message?: string } = {};
  try {
    json = res.json();
  } catch {
    /* not JSON: a static file or the docs */
  }
  let verdict: Verdict = 'admitted';
  if (res.statusCode === 401 && json.code === 50008) verdict = 'token';
  else if (res.statusCode === 403 && json.code === 30000 && json.message === '权限不足') verdict = 'forbidden';
  else if (json.code === 50010) verdict = 'mustChangePassword';
  return { status: res.statusCode, code: json.code, message: json.message, verdict };
}

/** What the parser answers for a body that is not JSON: proof that the guard let the call through and no handler ran. */
const NOT_JSON = { status: 400, code: 30000, message: '参数错误：请求体不是有效的JSON' };

describe('role × route matrix', () => {
  it('the hand-written spec verdicts agree with the walk of the route table', () => {
    const who = (page: string) => ACCOUNTS.filter((l) => mayOpen(l === 'admin' ? ['admin'] : [l.slice(4)], page));
    expect(who('/system/userlist')).toEqual(['admin', 'demo1', 'demo3']);
    expect(who('/system/log/list')).toEqual(['admin', 'demo1']);
    expect(who('/invoice/invoiceaccount/invoice-list')).toEqual(['admin', 'demo1', 'demo5', 'demo11']);
    expect(who('/invoice/invoiceaccount/invoice-upload/:id')).toEqual(['admin', 'demo1', 'demo5']);
    expect(who('/cost-management/examine')).toEqual(['admin', 'demo1', 'demo17', 'demo20', 'demo21', 'demo22']);
    expect(who('/dashboard')).toEqual(ACCOUNTS);
  });

  it('every page a route names is a page of the shared route table', () => {
    const unknown = s.app.routeCatalog.flatMap((r) => (r.access.kind === 'pages' ? [...r.access.pages, ...r.access.alsoPages].filter((p) => !PAGES.has(p)).map((p) => `${r.method} ${r.url} → ${p}`) : []));
    expect(unknown).toEqual([]);
  });

  it('every route × every demo account: admitted or 权限不足 exactly as the page roles say', async () => {
    expect(accounts.map((a) => a.login)).toEqual(ACCOUNTS);
    const mismatches: string[] = [];
    let checks = 0;
    let admitted = 0;
    const routes = s.app.routeCatalog;
    for (const r of routes) {
      const answers = await Promise.all(accounts.map((a) => probe(r.method, r.url, a.token, a.login)));
      accounts.forEach((a, i) => {
        const got = answers[i]!;
        const expected: Verdict = mayCall(r.access, a.roles) ? 'admitted' : 'forbidden';
        checks++;
        if (expected === 'admitted') admitted++;
        const handlerSkipped = r.method === 'GET' || (got.status === NOT_JSON.status && got.code === NOT_JSON.code && got.message === NOT_JSON.message);
        if (got.verdict !== expected || (expected === 'admitted' && !handlerSkipped)) {
          mismatches.push(`${r.method} ${r.url} as ${a.login} [${a.roles.join(',')}]: expected ${expected}, got ${got.status} ${got.code} ${got.message ?? ''}`);
        }
      });
    }
    console.log(`route matrix: ${routes.length} routes × ${accounts.length} accounts = ${checks} checks (${admitted} admitted, ${checks - admitted} 权限不足) on ${s.dialect}`);
    expect(mismatches).toEqual([]);
    expect(routes.length).toBeGreaterThan(100);
    // The matrix is only meaningful when it refuses something.
    expect(checks - admitted).toBeGreaterThan(0);
  }, 180_000);

  it('every non-public route refuses a call without a token with 50008', async () => {
    const routes = s.app.routeCatalog.filter((r) => r.access.kind !== 'public');
    const answers = await Promise.all(routes.map((r) => probe(r.method, r.url)));
    const wrong = routes.flatMap((r, i) => (answers[i]!.verdict === 'token' ? [] : [`${r.method} ${r.url}: ${answers[i]!.status} ${answers[i]!.code}`]));
    console.log(`route matrix: ${routes.length} non-public routes refuse a call without a token on ${s.dialect}`);
    expect(wrong).toEqual([]);
    expect(routes.length).toBeGreaterThan(100);
  }, 60_000);
});
