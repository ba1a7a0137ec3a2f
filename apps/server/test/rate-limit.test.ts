import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { RateLimiter } from '../src/platform/rate-limit.js';
import { startTestServer, type TestServer } from './helpers.js';

/** Any route may declare a limit; this one counts per caller named in a header. */
async function probe(app: FastifyInstance) {
  app.post(
    '/api/probe/limited',
    { config: { access: { kind: 'public' }, rateLimit: { name: 'probe', max: 2, windowMs: 60_000, key: (req) => String(req.headers['x-caller'] ?? '') } } },
    async () => ({ code: 20000 }),
  );
}

let a: TestServer;
let b: TestServer;
beforeAll(async () => {
  a = await startTestServer({ env: { LOGIN_RATE_LIMIT: '3' }, extraModules: [probe] });
  b = await startTestServer({ env: { LOGIN_RATE_LIMIT: '3' }, extraModules: [probe], sameDatabaseAs: a });
});
afterAll(async () => {
  await b.close();
  await a.close();
});

const attempt = (s: TestServer, remoteAddress = '127.0.0.1') =>
  s.app.inject({ method: 'POST', url: '/api/account/login', remoteAddress, headers: { 'content-type': 'application/json' }, payload: { name: 'nobody', password: 'x' } });

describe('limits shared by every app server on the database', () => {
  it('two app servers together allow LOGIN_RATE_LIMIT sign-in attempts per IP, not twice as many', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await attempt(i % 2 ? b : a, '10.0.0.1')).statusCode);
    expect(statuses).toEqual([400, 400, 400, 429, 429, 429]);
    const refused = await attempt(a, '10.0.0.1');
    expect(refused.json()).toEqual({ code: 30000, message: '请求过于频繁，请稍后再试' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another IP has its own count.
    expect((await attempt(b, '10.0.0.2')).statusCode).toBe(400);
  });

  it('counts in parallel without losing a request', async () => {
    const all = await Promise.all(Array.from({ length: 10 }, (_, i) => attempt(i % 2 ? b : a, '10.0.0.3')));
    expect(all.filter((r) => r.statusCode === 429).length).toBe(7);
  });

  it('a window that has ended starts afresh', async () => {
    for (let i = 0; i < 4; i++) await attempt(a, '10.0.0.4');
    expect((await attempt(b, '10.0.0.4')).statusCode).toBe(429);
    await a.db.kysely.updateTable('rate_limits').set({ window_ends_at: new Date(Date.now() - 1000).toISOString() }).where('key', '=', '10.0.0.4').execute();
    expect((await attempt(b, '10.0.0.4')).statusCode).toBe(400);
  });

  it('any route can declare a limit with its own name and key', async () => {
    const call = (s: TestServer, caller: string) => s.app.inject({ method: 'POST', url: '/api/probe/limited', headers: { 'x-caller': caller } });
    expect([(await call(a, 'u1')).statusCode, (await call(b, 'u1')).statusCode, (await call(a, 'u1')).statusCode]).toEqual([200, 200, 429]);
    expect((await call(b, 'u2')).statusCode).toBe(200);
    const rows = await a.db.kysely.selectFrom('rate_limits').select(['key', 'n']).where('name', '=', 'probe').orderBy('key').execute();
    expect(rows).toEqual([
      { key: 'u1', n: 3 },
      { key: 'u2', n: 1 },
    ]);
  });

  it('forgets windows that have ended', async () => {
    const limiter = new RateLimiter(a.db, 0);
    const t0 = new Date('2030-01-01T00:00:00.000Z');
    expect((await limiter.hit('sweep', 'k', 60_000, t0)).count).toBe(1);
    expect((await limiter.hit('sweep', 'k', 60_000, new Date(t0.getTime() + 1000))).count).toBe(2);
    // A request after the window has ended clears every ended window, then counts from one.
    await limiter.hit('sweep', 'other', 60_000, t0);
    expect((await limiter.hit('sweep', 'k', 60_000, new Date(t0.getTime() + 61_000))).count).toBe(1);
    const left = await a.db.kysely.selectFrom('rate_limits').select('key').where('name', '=', 'sweep').execute();
    expect(left).toEqual([{ key: 'k' }]);
  });
});
