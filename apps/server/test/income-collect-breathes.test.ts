/**
 * Issue 30: 采集 of thousands of invoices does not hold the server. On SQLite every query is synchronous and
 * each `await` resolves as a microtask, so the collection loop never reached the event loop: a 12-month
 * collection answered nobody (not even its own start) for 30 s. The loop now gives the event loop its turn
 * every few milliseconds (platform/breather.ts). Shown by order, over a real socket (a stalled event loop
 * reads none): while ten days' collection (about 600 invoices) runs, as a task on demand and as a
 * round of the scheduled job, another user's userinfo is answered and the task is still running; the
 * task's progress shows counts in between; it ends with every invoice in the pool.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IncomeJob, CURSOR } from '../src/modules/income/intake/job.js';
import { InvoiceSettings } from '../src/modules/invoice/settings/service.js';
import type { TestServer } from './helpers.js';
import { startIncomeServer } from './income-helpers.js';

let s: TestServer;
let t13: string;
let t1: string;
let base: string;
beforeAll(async () => {
  ({ s, t13 } = await startIncomeServer());
  t1 = await s.login('demo1');
  await s.app.listen({ port: 0, host: '127.0.0.1' });
  const addr = s.app.server.address();
  base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
});
afterAll(() => s?.close());

/** A call over the socket (not app.inject): answered only when the event loop reads it. */
async function http(url: string, body: unknown, token: string): Promise<{ code: number; message?: string; r?: any }> {
  const res = await fetch(base + url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-token': token }, body: JSON.stringify(body) });
  return (await res.json()) as { code: number; message?: string; r?: any };
}

const progress = async (taskId: string) => (await http('/api/income/pool/collect-progress', { taskId }, t13)).r as { state: string; finished: boolean; seen: number; total: number; created: number; pages: number };

describe('采集 gives other users their turn', () => {
  it('answers another user while ten days are collected on demand, and shows the counts in between', async () => {
    // Ten days of a past year: no seeded invoice, every one arrives new.
    const start = await http('/api/income/pool/collect', { from: '2023-03-01', to: '2023-03-10' }, t13);
    expect(start.code, start.message).toBe(20000);
    const taskId = start.r.taskId as string;
    const order: string[] = [];
    const u = await http('/api/account/userinfo', {}, t1);
    expect(u.code, u.message).toBe(20000);
    order.push('userinfo');
    // Still running when userinfo was answered.
    const during = await progress(taskId);
    order.push(during.finished ? 'collection ended' : 'collection running');
    expect(order).toEqual(['userinfo', 'collection running']);
    // The counts move while it runs, then it ends with every invoice of the window in the pool.
    const seen: number[] = [during.seen];
    let p = during;
    while (!p.finished) {
      await new Promise((res) => setTimeout(res, 20));
      p = await progress(taskId);
      if (!p.finished) seen.push(p.seen);
    }
    expect(p.state).toBe('done');
    expect(p.total).toBeGreaterThan(400);
    expect(p.created).toBe(p.total);
    expect(seen.some((n) => n > 0 && n < p.total)).toBe(true);
  }, 300_000);

  it('answers another user while a round of the scheduled job collects ten days', async () => {
    // "Today" is a day of a past year for this job, so its window is the ten days from its cursor.
    const today = '2023-05-10';
    await s.db.kysely.insertInto('income_collect_cursor').values({ name: CURSOR, last_day: '2023-05-01', updated_at: new Date().toISOString() }).execute();
    const job = new IncomeJob({ db: s.db, log: s.app.log, settings: new InvoiceSettings(s.app) }, 60_000, () => today);
    const order: string[] = [];
    const round = job.tick().then((ran) => order.push(ran ? 'round' : 'no round'));
    // Let the round start (its first page asked for) before the other user comes.
    await new Promise((res) => setImmediate(res));
    const u = await http('/api/account/userinfo', {}, t1);
    expect(u.code, u.message).toBe(20000);
    order.push('userinfo');
    await round;
    expect(order).toEqual(['userinfo', 'round']);
    expect(await job.cursor()).toBe(today);
    const n = await s.db.kysely.selectFrom('income_invoices').select((eb) => eb.fn.countAll<number>().as('n')).where('issue_date', '>=', '2023-05-01').where('issue_date', '<=', today).where('created_by', 'is', null).executeTakeFirstOrThrow();
    expect(Number(n.n)).toBeGreaterThan(400);
  }, 300_000);
});
