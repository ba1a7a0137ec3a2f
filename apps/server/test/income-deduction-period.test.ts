/**
 * Issue 14, ticking (勾选) on the server: the period from the tax service (deadline, window, statistics,
 * sums, the sync log), the demo's ticks, the deadline and the confirmed period, and the setting 先入账后勾选.
 * (The batches: income-deduction-tick.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SyncSystem, filingDeadline } from '@zhyy/shared';
import { IncomeMethods } from '../src/integrations/tax/index.js';
import { simDb } from '../src/integrations/tax/simulator/store.js';
import type { TestServer } from './helpers.js';
import { D, startTicking, tickHelpers, type TickPeriodFacts } from './income-deduction-helpers.js';

let s: TestServer;
let t13: string;
let period: TickPeriodFacts;
beforeAll(async () => {
  ({ s, t13, period } = await startTicking());
});
afterAll(() => s?.close());
const { fresh, facts, tick } = tickHelpers(() => ({ s, t13, period }));

describe('the period', () => {
  it('comes from the tax service: period, deadline, window, statistics, sums', async () => {
    const a = await s.call(`${D}/period`, { scope: 'deduction' }, t13);
    expect(a.r.period).toMatch(/^\d{6}$/);
    expect(Date.parse(a.r.deadline)).toBeGreaterThan(Date.now());
    // The filing calendar's day (申报日历, issue 29 item 9), not always the 15th.
    expect(a.r.deadlineText).toBe(`${filingDeadline(a.r.period).day} 23:59:59`);
    expect(a.r.windowFrom).toBe('2017-01-01');
    expect(a.r.windowTo.slice(0, 7).replace('-', '')).toBe(a.r.period);
    expect(a.r).toMatchObject({ statState: 0, open: true, closedReason: '', tickBookedOnly: false });
    expect(a.r.candidates.count).toBeGreaterThanOrEqual(0);
    const logs = await s.db.kysely.selectFrom('sync_logs').select(['type', 'system']).where('type', '=', IncomeMethods.period).execute();
    expect(logs.length).toBeGreaterThan(0);
    expect(logs[0]!.system).toBe(SyncSystem.tax);
  });
});

describe('the demo', () => {
  it('has ticked invoices in the period and in past periods, and candidates waiting, consistent with the simulated service', async () => {
    const info = await s.call(`${D}/period`, {}, t13);
    expect(info.r.ticked.count).toBeGreaterThan(0);
    expect(info.r.candidates.count).toBeGreaterThan(info.r.ticked.count);
    const waiting = await s.call(`${D}/list`, { tickState: 0 }, t13);
    expect(waiting.r.total).toBeGreaterThan(0);
    const ticked = await s.call(`${D}/list`, { tickState: 1, tickPeriod: period.period, vatUsage: 1 }, t13);
    expect(ticked.r.total).toBeGreaterThan(0);
    expect((await s.call(`${D}/log`, {}, t13)).r.total).toBeGreaterThan(0);
    // A demo tick of this period can be undone (the service has it) and ticked again.
    const one = ticked.r.items[0];
    expect((await s.call(`${D}/untick`, { ids: [one.id] }, t13)).r.done).toBe(true);
    expect((await tick({ items: [{ id: one.id, effectiveTax: one.effectiveTax }] })).r.done).toBe(true);
  });
});

describe('the deadline and the confirmed period', () => {
  it('past the deadline or once confirmed, ticking is refused with the reason', async () => {
    const a = await fresh();
    const sdb = simDb(s.db);
    const now = new Date();
    const month = new Date(now.getTime() + 8 * 3600_000).toISOString().slice(0, 7).replace('-', '');
    const last = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(4)) - 2, 1)).toISOString().slice(0, 7).replace('-', '');
    const past = new Date(now.getTime() - 60_000).toISOString();
    for (const p of [last, month]) await sdb.insertInto('taxsim_income_periods').values({ period: p, deadline: past, stat_state: 0, updated_at: past }).execute();
    try {
      const info = await s.call(`${D}/period`, {}, t13);
      expect(info.r.open).toBe(false);
      expect(info.r.closedReason).toContain('勾选截止时间');
      const r = await tick({ items: [{ id: a.id }] });
      expect(r.code).not.toBe(20000);
      expect(r.message).toContain('勾选截止时间');
      await sdb.updateTable('taxsim_income_periods').set({ deadline: new Date(now.getTime() + 86_400_000).toISOString(), stat_state: 2 }).where('period', '=', month).execute();
      const c = await tick({ items: [{ id: a.id }] });
      expect(c.message).toBe(`税款所属期${month}的统计已确认，不能再勾选或撤销勾选`);
      expect((await facts(a.id)).tick_state).toBe(0);
    } finally {
      await sdb.deleteFrom('taxsim_income_periods').execute();
    }
    expect((await tick({ items: [{ id: a.id }] })).r.done).toBe(true);
  });
});

describe('先入账后勾选', () => {
  it('when on, only booked invoices may be ticked', async () => {
    const unbooked = await fresh();
    const booked = await fresh({ booked: true });
    expect((await s.call(`${D}/setting-save`, { tickBookedOnly: 'x' }, t13)).message).toContain('先入账后勾选须为是或否');
    expect((await s.call(`${D}/setting-save`, { tickBookedOnly: true }, t13)).code).toBe(20000);
    try {
      expect((await s.call(`${D}/setting`, {}, t13)).r).toEqual({ tickBookedOnly: true });
      expect((await tick({ items: [{ id: unbooked.id }] })).r.outcomes[0].message).toBe('已开启先入账后勾选，该发票未入账，不能勾选');
      expect((await tick({ items: [{ id: booked.id }] })).r.done).toBe(true);
    } finally {
      await s.call(`${D}/setting-save`, { tickBookedOnly: false }, t13);
    }
    expect((await tick({ items: [{ id: unbooked.id }] })).r.done).toBe(true);
  });
});
