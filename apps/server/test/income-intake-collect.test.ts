/**
 * Issue 13, intake: "Collection from the tax digital account through the tax gateway: incremental by
 * date window (at most 366 days a call), on demand and on a schedule in the background job." — the
 * route /api/income/pool/collect (invoicePool list page: roles 1, 13) answers how many arrived new,
 * merged, flagged; "a collected invoice later seen with another state (void, red-reversed, 失控,
 * 异常凭证) updates the pool row's state/risk"; the job (lease 'income') collects from the last
 * collected day through today, once with two servers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IncomeSource } from '@zhyy/shared';
import { IncomeMethods, type IncomingInvoice } from '../src/integrations/tax/index.js';
import { arrive } from '../src/modules/income/arrival.js';
import { toArriving } from '../src/modules/income/collect.js';
import { CURSOR, defaultStart, IncomeJob, INCOME_JOB_LEASE, windows } from '../src/modules/income/job.js';
import { InvoiceSettings } from '../src/modules/invoice/settings.js';
import { attachServer, startTestServer, type TestServer } from './helpers.js';
import { shanghaiDay } from './income-helpers.js';

let s: TestServer;
let t13: string;
beforeAll(async () => {
  s = await startTestServer();
  await s.app.incomeJob.stop();
  t13 = await s.login('demo13');
});
afterAll(() => s?.close());

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
    const a = await s.call('/api/income/pool/collect', { from, to }, t13);
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

    const again = await s.call('/api/income/pool/collect', { from, to }, t13);
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
    const a = await s.call('/api/income/pool/collect', { from: day, to: day }, t13);
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
  it('roles 14 and 16 get 权限不足 on collection; role 1 may collect', async () => {
    for (const n of ['demo14', 'demo16']) {
      const a = await s.call('/api/income/pool/collect', { from: shanghaiDay(-30), to: shanghaiDay(-30) }, await s.login(n));
      expect([a.status, a.code, a.message]).toEqual([403, 30000, '权限不足']);
    }
    expect((await s.call('/api/income/pool/collect', { from: shanghaiDay(-31), to: shanghaiDay(-31) }, await s.login('demo1'))).code).toBe(20000);
  });
});
