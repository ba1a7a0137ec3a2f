/**
 * Issue 13, intake: "Collection from the tax digital account through the tax gateway: incremental by
 * date window (at most 366 days a call), on demand and on a schedule in the background job." — the
 * route /api/income/pool/collect (invoicePool list page: roles 1, 13) answers how many arrived new,
 * merged, flagged; "a collected invoice later seen with another state (void, red-reversed, 失控,
 * 异常凭证) updates the pool row's state/risk"; the job (lease 'income') collects from the last
 * collected day through today, once with two servers. 采集 on demand is a background task: the route
 * answers at once with a task id, /collect-progress reads its counts from the database (any server),
 * a second start while one collects (or a job round runs: the same 'income' lease) is refused, and a
 * task whose server died is reported 已中断.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { IncomeSource } from '@zhyy/shared';
import { IncomeMethods, type IncomingInvoice } from '../src/integrations/tax/index.js';
import { arrive } from '../src/modules/income/intake/arrival.js';
import { toArriving } from '../src/modules/income/intake/collect.js';
import { CURSOR, defaultStart, IncomeJob, INCOME_JOB_LEASE, windows } from '../src/modules/income/intake/job.js';
import { InvoiceSettings } from '../src/modules/invoice/settings/service.js';
import { attachServer, type TestServer } from './helpers.js';
import { shanghaiDay, startIncomeServer } from './income-helpers.js';

let s: TestServer;
let t13: string;
beforeAll(async () => {
  ({ s, t13 } = await startIncomeServer());
});
afterAll(() => s?.close());

type Task = { taskId: string; state: string; stateLabel: string; finished: boolean; pages: number; seen: number; total: number; created: number; merged: number; flagged: number; stateChanged: number; failed: number; failures: string[]; message: string };

/** Polls a task's progress until it has finished; answers the last progress and every one seen. */
async function waitTask(taskId: string, token: string, on: TestServer = s): Promise<{ r: Task; seen: Task[] }> {
  const seen: Task[] = [];
  for (let i = 0; i < 2400; i++) {
    const p = await on.call('/api/income/pool/collect-progress', { taskId }, token);
    expect(p.code).toBe(20000);
    seen.push(p.r);
    if (p.r.finished) return { r: p.r, seen };
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error('collection task did not finish');
}

/** Starts a task and waits for its end; answers the start's envelope and the final progress (as `r`, `message`). */
async function collect(body: { from: string; to: string }, token: string) {
  const start = await s.call('/api/income/pool/collect', body, token);
  if (start.code !== 20000) return start;
  const done = await waitTask(start.r.taskId, token);
  return { ...start, r: done.r, message: done.r.message };
}

const collectRows = async () => {
  const r = await s.db.kysely.selectFrom('sync_logs').select((eb) => eb.fn.countAll<number>().as('n')).where('type', '=', IncomeMethods.collect).executeTakeFirstOrThrow();
  return Number(r.n);
};
const collectedCount = async (from: string, to: string) => {
  const r = await s.db.kysely.selectFrom('income_invoices').select((eb) => eb.fn.countAll<number>().as('n')).where('source', '=', IncomeSource.collected).where('issue_date', '>=', from).where('issue_date', '<=', to).executeTakeFirstOrThrow();
  return Number(r.n);
};

describe('collection on demand', () => {
  it('collects a window into the pool and says how many are new, merged and flagged; a second run merges', async () => {
    const from = shanghaiDay(-14);
    const to = shanghaiDay(-13);
    const logsBefore = await collectRows();
    const seeded = await collectedCount(from, to);
    const startedAt = new Date().toISOString();
    const a = await collect({ from, to }, t13);
    expect(a.code).toBe(20000);
    expect(a.r.total).toBeGreaterThan(10);
    expect(a.r.created + a.r.merged + a.r.failed).toBe(a.r.total);
    expect(a.r.created).toBe(a.r.total);
    expect(a.r.failed).toBe(0);
    expect(a.message).toBe(`采集完成：税务端 ${a.r.total} 张，新增 ${a.r.created} 张，合并 0 张${a.r.flagged ? `，标记异常 ${a.r.flagged} 张` : ''}`);
    expect(await collectedCount(from, to)).toBe(seeded + a.r.total);
    expect(await collectRows()).toBeGreaterThan(logsBefore);
    // The flagged ones (购方非本公司, 疑似重复) are on the abnormal list.
    const flagged = await s.db.kysely.selectFrom('income_invoices').select('id').where('source', '=', IncomeSource.collected).where('issue_date', '>=', from).where('issue_date', '<=', to).where('created_at', '>=', startedAt)
      .where((eb) => eb.or([eb('buyer_mismatch', '=', 1), eb('duplicate_of', 'is not', null)])).execute();
    expect(flagged.length).toBe(a.r.flagged);

    const again = await collect({ from, to }, t13);
    expect(again.r).toMatchObject({ total: a.r.total, created: 0, merged: a.r.total, flagged: 0, failed: 0 });
    expect(await collectedCount(from, to)).toBe(seeded + a.r.total);
    const one = await s.db.kysely.selectFrom('income_invoices').select(['id', 'arrivals']).where('source', '=', IncomeSource.collected).where('issue_date', '=', from).where('arrivals', '>', 1).executeTakeFirstOrThrow();
    expect(one.arrivals).toBe(2);
    const ev = await s.db.kysely.selectFrom('income_events').select('message').where('invoice_id', '=', one.id).where('kind', '=', 'merge').execute();
    expect(ev.map((e) => e.message)).toEqual(['该发票已在票池中，本次采集已合并到原记录']);
  });

  it('refuses a window over 366 days, a reversed one and malformed days, in Chinese', async () => {
    const long = await s.call('/api/income/pool/collect', { from: '2025-01-01', to: '2026-01-02' }, t13);
    expect([long.status, long.code, long.message]).toEqual([400, 30000, '采集日期区间不能超过366天，请分段采集']);
    const ok366 = windows('2025-01-01', '2026-01-01');
    expect(ok366).toEqual([{ from: '2025-01-01', to: '2026-01-01' }]);
    const rev = await s.call('/api/income/pool/collect', { from: '2026-02-01', to: '2026-01-01' }, t13);
    expect(rev.message).toBe('采集开始日期不能晚于结束日期');
    const bad = await s.call('/api/income/pool/collect', { from: '2026-02-30', to: '2026-03-01' }, t13);
    expect(bad.status).toBe(400);
    expect(bad.message).toMatch(/^参数错误：/);
  });

  it('a collected invoice seen later with another state or risk level updates the pool row, with a history event, and shows as abnormal', async () => {
    // Find a day whose invoices include one the tax account now reports voided, red-reversed, 失控 or 异常凭证.
    const gw = await new InvoiceSettings(s.app).gateway();
    let changed: IncomingInvoice | undefined;
    let day = '';
    for (let back = 40; back < 120 && !changed; back++) {
      day = shanghaiDay(-back);
      const page = await gw.collectIncoming({ from: day, to: day, pageSize: 500 });
      changed = page.invoices.find((i) => i.state !== 0 || i.riskLevel === '02');
    }
    expect(changed).toBeDefined();
    const inv = changed!;
    // As it was when first collected: 正常.
    const first = await s.db.kysely.transaction().execute((trx) => arrive(toArriving({ ...inv, state: 0, riskLevel: '01' }), IncomeSource.collected, trx, {}));
    const a = await collect({ from: day, to: day }, t13);
    expect(a.r.stateChanged).toBeGreaterThanOrEqual(1);
    expect(a.message).toContain(`状态更新 ${a.r.stateChanged} 张`);
    const row = await s.db.kysely.selectFrom('income_invoices').selectAll().where('id', '=', first.id).executeTakeFirstOrThrow();
    expect([row.invoice_state, row.risk_level]).toEqual([inv.state, inv.riskLevel]);
    const ev = await s.db.kysely.selectFrom('income_events').select('message').where('invoice_id', '=', first.id).where('kind', '=', 'state').execute();
    expect(ev).toHaveLength(1);
    expect(ev[0]!.message).toMatch(/^税务数字账户采集：(发票状态「正常」→「[^」]+」|风险等级「正常」→「异常凭证」)/);
    const ab = await s.call('/api/income/pool/abnormal', { number: inv.allElectronicNo || inv.invoiceNo, pageSize: 10 }, t13);
    expect(ab.r.items.map((i: { id: string }) => i.id)).toContain(first.id);
  });
});

describe('the collection job', () => {
  it('is started and stopped with the app like the invoicing job; without a cursor it starts at the first day of the previous month', async () => {
    const other = await attachServer(s);
    expect(other.app.incomeJob.started).toBe(true);
    expect(other.app.incomeJob.name).toBe(INCOME_JOB_LEASE);
    await other.close();
    expect(other.app.incomeJob.started).toBe(false);
    expect(defaultStart('2026-11-22')).toBe('2026-10-01');
    expect(defaultStart('2026-01-05')).toBe('2025-12-01');
    expect(windows('2024-01-01', '2026-01-05').map((w) => w.to)).toEqual(['2024-12-31', '2026-01-01', '2026-01-05']);
  });

  it('two servers ticking at once collect from the cursor through today once, and move the cursor', async () => {
    const b = await attachServer(s);
    await b.app.incomeJob.stop();
    try {
      // "Today" is 20 days ago for these jobs, so the window is fixed (no invoice of the current minute arrives in between).
      const today = shanghaiDay(-20);
      const from = shanghaiDay(-21);
      await s.db.kysely.insertInto('income_collect_cursor').values({ name: CURSOR, last_day: from, updated_at: new Date().toISOString() }).execute();
      const jobA = new IncomeJob({ db: s.db, log: s.app.log, settings: new InvoiceSettings(s.app) }, 60_000, () => today);
      const jobB = new IncomeJob({ db: b.db, log: b.app.log, settings: new InvoiceSettings(b.app) }, 60_000, () => today);
      const before = await collectRows();
      const seeded = await collectedCount(from, today);
      const ran = await Promise.all([jobA.tick(), jobB.tick()]);
      expect(ran.filter(Boolean)).toHaveLength(1);
      const gw = await new InvoiceSettings(s.app).gateway();
      const total = (await gw.collectIncoming({ from, to: today, pageSize: 500 })).total;
      expect(await collectedCount(from, today)).toBe(seeded + total);
      // One exchange per page of 200 (plus the check above).
      expect((await collectRows()) - before).toBe(Math.ceil(total / 200) + 1);
      expect(await jobA.cursor()).toBe(today);

      // The next round collects the last day again: known and unchanged invoices are left alone (no merge events).
      const merges = async () => Number((await s.db.kysely.selectFrom('income_events').select((eb) => eb.fn.countAll<number>().as('n')).where('kind', '=', 'merge').executeTakeFirstOrThrow()).n);
      const m0 = await merges();
      await jobA.stop();
      expect(await jobB.tick()).toBe(true);
      expect(await merges()).toBe(m0);
      expect(await collectedCount(from, today)).toBe(seeded + total);

      // A live lease held elsewhere: neither runs.
      await jobB.stop();
      await s.db.kysely.insertInto('job_leases').values({ name: INCOME_JOB_LEASE, holder: 'another-server', acquired_at: new Date().toISOString(), expires_at: new Date(Date.now() + 60_000).toISOString() }).execute();
      expect(await jobA.tick()).toBe(false);
      expect(await jobB.tick()).toBe(false);
      await s.db.kysely.deleteFrom('job_leases').where('name', '=', INCOME_JOB_LEASE).execute();
    } finally {
      await b.close();
    }
  });
});

describe('permissions', () => {
  it('roles 14 and 16 get 权限不足 on collection and its progress; role 1 may collect', async () => {
    for (const n of ['demo14', 'demo16']) {
      const a = await s.call('/api/income/pool/collect', { from: shanghaiDay(-30), to: shanghaiDay(-30) }, await s.login(n));
      expect([a.status, a.code, a.message]).toEqual([403, 30000, '权限不足']);
    }
    const t1 = await s.login('demo1');
    const a = await collect({ from: shanghaiDay(-31), to: shanghaiDay(-31) }, t1);
    expect([a.code, a.r.state]).toEqual([20000, 'done']);
    for (const n of ['demo14', 'demo16']) {
      const p = await s.call('/api/income/pool/collect-progress', { taskId: a.r.taskId }, await s.login(n));
      expect([p.status, p.code, p.message]).toEqual([403, 30000, '权限不足']);
    }
  });
});

/**
 * Holds the tax service's collection pages until released (a task's state can be looked at while it
 * runs, whatever the machine's speed): each page waits for one permit.
 */
function gatePages() {
  let allowed = 0;
  const waiters: Array<() => void> = [];
  const next = () => (allowed > 0 ? (allowed--, Promise.resolve()) : new Promise<void>((res) => waiters.push(res)));
  const original = InvoiceSettings.prototype.gateway;
  vi.spyOn(InvoiceSettings.prototype, 'gateway').mockImplementation(async function (this: InvoiceSettings) {
    const gw = await original.call(this);
    return new Proxy(gw, {
      get(target, key) {
        if (key === 'collectIncoming') return async (...a: Parameters<typeof gw.collectIncoming>) => (await next(), target.collectIncoming(...a));
        const v = Reflect.get(target, key, target) as unknown;
        return typeof v === 'function' ? (v as (...x: unknown[]) => unknown).bind(target) : v;
      },
    });
  });
  return {
    release(n = 1) {
      for (let i = 0; i < n; i++) {
        const w = waiters.shift();
        if (w) w();
        else allowed++;
      }
    },
    waiting: () => waiters.length,
  };
}

describe('采集 in the background', () => {
  afterEach(() => vi.restoreAllMocks());

  it('answers at once with a task; the progress counts grow to the end and give the final message; a second start meanwhile is refused', async () => {
    const from = shanghaiDay(-204);
    const to = shanghaiDay(-200);
    const seeded = await collectedCount(from, to);
    const t1 = await s.login('demo1');
    const gate = gatePages();
    const start = await s.call('/api/income/pool/collect', { from, to }, t13);
    expect([start.code, start.message, start.r.state, start.r.finished, start.r.seen]).toEqual([20000, '采集任务已开始', 'running', false, 0]);
    expect(start.r).toMatchObject({ from, to, stateLabel: '采集中', message: '' });
    // While it runs: a second start is refused, and so is the scheduled job's round (the same lease).
    const second = await s.call('/api/income/pool/collect', { from: shanghaiDay(-190), to: shanghaiDay(-190) }, t1);
    expect([second.status, second.code, second.message]).toEqual([409, 30000, '已有采集任务正在进行，请稍后']);
    const job = new IncomeJob({ db: s.db, log: s.app.log, settings: new InvoiceSettings(s.app) }, 60_000, () => '2000-01-01');
    expect(await job.tick()).toBe(false);
    // The first page only: the progress says one page and its 200 invoices, not finished.
    gate.release();
    let mid = (await s.call('/api/income/pool/collect-progress', { taskId: start.r.taskId }, t13)).r;
    for (let i = 0; i < 600 && !(mid.pages === 1 && gate.waiting() === 1); i++) {
      await new Promise((res) => setTimeout(res, 50));
      mid = (await s.call('/api/income/pool/collect-progress', { taskId: start.r.taskId }, t13)).r;
    }
    expect(mid).toMatchObject({ state: 'running', finished: false, pages: 1, seen: 200, message: '' });
    expect(mid.total).toBeGreaterThan(200);
    expect(mid.created + mid.merged + mid.failed).toBe(200);
    gate.release(10);

    const { r, seen } = await waitTask(start.r.taskId, t13);
    expect(r.state).toBe('done');
    expect(r.stateLabel).toBe('已完成');
    expect(r.total).toBeGreaterThan(200);
    expect(r.pages).toBe(Math.ceil(r.total / 200));
    expect(r.seen).toBe(r.total);
    expect(r.created + r.merged + r.failed).toBe(r.total);
    expect(r.message).toBe(`采集完成：税务端 ${r.total} 张，新增 ${r.created} 张，合并 ${r.merged} 张${r.flagged ? `，标记异常 ${r.flagged} 张` : ''}${r.stateChanged ? `，状态更新 ${r.stateChanged} 张` : ''}${r.failed ? `，未入池 ${r.failed} 张` : ''}`);
    expect(await collectedCount(from, to)).toBe(seeded + r.created);
    // Counts only grow.
    const all = [mid, ...seen];
    for (let i = 1; i < all.length; i++) expect(all[i]!.seen).toBeGreaterThanOrEqual(all[i - 1]!.seen);
    // Another server answers the same progress; the lease was given back: the next start is accepted.
    const b = await attachServer(s);
    try {
      await b.app.incomeJob.stop();
      expect((await b.call('/api/income/pool/collect-progress', { taskId: start.r.taskId }, t13)).r).toMatchObject({ state: 'done', message: r.message });
      expect(await s.db.kysely.selectFrom('job_leases').select('holder').where('name', '=', INCOME_JOB_LEASE).executeTakeFirst()).toBeUndefined();
    } finally {
      await b.close();
    }
    const next = await collect({ from: shanghaiDay(-190), to: shanghaiDay(-190) }, t13);
    expect(next.r.state).toBe('done');
  });

  it('is refused while a job round holds the lease, and refuses bad windows before starting anything', async () => {
    await s.db.kysely.insertInto('job_leases').values({ name: INCOME_JOB_LEASE, holder: 'another-server', acquired_at: new Date().toISOString(), expires_at: new Date(Date.now() + 60_000).toISOString() }).execute();
    try {
      const a = await s.call('/api/income/pool/collect', { from: shanghaiDay(-180), to: shanghaiDay(-180) }, t13);
      expect([a.status, a.message]).toEqual([409, '已有采集任务正在进行，请稍后']);
    } finally {
      await s.db.kysely.deleteFrom('job_leases').where('name', '=', INCOME_JOB_LEASE).execute();
    }
    const tasks = async () => Number((await s.db.kysely.selectFrom('income_collect_tasks').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const n0 = await tasks();
    for (const [body, message] of [
      [{ from: '2025-01-01', to: '2026-01-02' }, '采集日期区间不能超过366天，请分段采集'],
      [{ from: '2026-02-01', to: '2026-01-01' }, '采集开始日期不能晚于结束日期'],
    ] as const) {
      const a = await s.call('/api/income/pool/collect', body, t13);
      expect([a.status, a.code, a.message]).toEqual([400, 30000, message]);
    }
    expect(await tasks()).toBe(n0);
    const missing = await s.call('/api/income/pool/collect-progress', { taskId: '0190a8b0-0000-7000-8000-000000000000' }, t13);
    expect([missing.status, missing.message]).toEqual([404, '采集任务不存在']);
  });

  it('a task stopped with its server ends 已中断, and a running task whose server died is reported 已中断 (when read and at start-up)', async () => {
    const b = await attachServer(s);
    await b.app.incomeJob.stop();
    const gate = gatePages();
    const start = await b.call('/api/income/pool/collect', { from: shanghaiDay(-170), to: shanghaiDay(-160) }, t13);
    expect(start.code).toBe(20000);
    // The server stops while the task waits for its first page: the task stops at its next step.
    const closing = b.close();
    await vi.waitFor(() => expect(b.app.incomeCollectTasks.stopping).toBe(true));
    gate.release(10);
    await closing;
    const p = await s.call('/api/income/pool/collect-progress', { taskId: start.r.taskId }, t13);
    expect([p.r.state, p.r.stateLabel, p.r.finished]).toEqual(['interrupted', '已中断', true]);
    expect(p.r.message).toMatch(/^采集已中断：已处理 \d+ 张（新增 \d+ 张，合并 \d+ 张），请重新采集该区间$/);

    // A crash: the row stays running and nobody renews the lease.
    const at = new Date().toISOString();
    const row = (id: string, holder: string) => ({ id, from_day: shanghaiDay(-150), to_day: shanghaiDay(-150), state: 'running', holder, pages: 1, total: 300, seen: 120, created: 100, merged: 20, flagged: 0, state_changed: 0, failed: 0, failures: '[]', message: '', user_id: null, user_name: '测试', created_at: at, updated_at: at, finished_at: null });
    const dead = '0190a8b0-0000-7000-8000-000000000001';
    await s.db.kysely.insertInto('income_collect_tasks').values(row(dead, 'crashed-server:1:aa')).execute();
    const d = await s.call('/api/income/pool/collect-progress', { taskId: dead }, t13);
    expect([d.r.state, d.r.message]).toEqual(['interrupted', '采集已中断：已处理 120 张（新增 100 张，合并 20 张），请重新采集该区间']);

    // One whose holder still holds a live lease is running (another server is working on it).
    const alive = '0190a8b0-0000-7000-8000-000000000002';
    const atStart = '0190a8b0-0000-7000-8000-000000000003';
    await s.db.kysely.insertInto('income_collect_tasks').values([row(alive, 'busy-server:1:bb'), row(atStart, 'crashed-server:2:cc')]).execute();
    await s.db.kysely.insertInto('job_leases').values({ name: INCOME_JOB_LEASE, holder: 'busy-server:1:bb', acquired_at: at, expires_at: new Date(Date.now() + 60_000).toISOString() }).execute();
    try {
      expect((await s.call('/api/income/pool/collect-progress', { taskId: alive }, t13)).r.state).toBe('running');
      // A server starting marks the dead one interrupted without being asked.
      const c = await attachServer(s);
      await c.close();
      const rows = await s.db.kysely.selectFrom('income_collect_tasks').select(['id', 'state']).where('id', 'in', [alive, atStart]).orderBy('id').execute();
      expect(rows).toEqual([{ id: alive, state: 'running' }, { id: atStart, state: 'interrupted' }]);
      // Once its lease has expired, it is interrupted too.
      await s.db.kysely.updateTable('job_leases').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('name', '=', INCOME_JOB_LEASE).execute();
      expect((await s.call('/api/income/pool/collect-progress', { taskId: alive }, t13)).r.state).toBe('interrupted');
    } finally {
      await s.db.kysely.deleteFrom('job_leases').where('name', '=', INCOME_JOB_LEASE).execute();
    }
  });
});
