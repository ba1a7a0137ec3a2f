/**
 * Issue 14, 入账标识 (booking flag): /api/income/booking/… — booking 02 / 03 and revoking (06) pool invoices,
 * each change sent to the tax service at once (one sync log row per attempt); a failure left pending and
 * retried by the job with back-off until sent, given up after BOOKING_MAX_ATTEMPTS (visible, 立即重试 starts
 * again); refusals in Chinese; a contract signing books its invoice 02; two servers retrying at once send
 * once. Roles 1 and 13 (the pool pages); 14 and 16 get 权限不足.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOKING_MAX_ATTEMPTS, IncomeSignState, SyncLogStatus } from '@zhyy/shared';
import { BookingMessages, IncomeMethods, failNextBookingCalls, registerKnownIncoming } from '../src/integrations/tax/index.js';
import { simDb } from '../src/integrations/tax/simulator/store.js';
import { BookingJob } from '../src/modules/income/booking/job.js';
import { InvoiceSettings } from '../src/modules/invoice/settings/service.js';
import { attachServer, startTestServer, type TestServer } from './helpers.js';
import { entry, nextDigital, shanghaiDay, signDocs } from './income-helpers.js';

let s: TestServer;
let t1: string;
let t13: string;
let t14: string;
let t16: string;
const B = '/api/income/booking';
const ZERO = '00000000-0000-4000-8000-000000000000';
const MIN = 60_000;

beforeAll(async () => {
  s = await startTestServer();
  // The tests run the retry job's rounds themselves.
  await s.app.incomeBookingJob.stop();
  [t1, t13, t14, t16] = (await Promise.all(['demo1', 'demo13', 'demo14', 'demo16'].map((n) => s.login(n)))) as [string, string, string, string];
});
afterAll(() => s?.close());

const deps = () => ({ db: s.db, synclog: s.app.synclog });
let amount = 0;
/** A pool invoice (数电专票) entered by hand and known to the simulated tax service unless `known: false`. */
async function fresh(o: { known?: boolean } = {}): Promise<{ id: string; no: string }> {
  const no = nextDigital();
  const excl = 20000 + ++amount;
  const day = shanghaiDay(-12);
  const a = await s.call('/api/income/pool/save', entry({ digitalNo: no, issueDate: day, amountExcl: excl, tax: 900, amountIncl: excl + 900, lines: [{ name: '*建筑服务*劳务分包', spec: '', unit: '项', quantity: '1', unitPrice: (excl / 100).toFixed(2), amount: excl, taxRate: '0.09', tax: 900 }] }), t13);
  expect(a.code, a.message).toBe(20000);
  if (o.known !== false) await registerKnownIncoming(deps(), [{ key: no, kind: '81', issueDate: day, tax: 900 }]);
  return { id: a.r.id, no };
}
const inv = (id: string) => s.db.kysely.selectFrom('income_invoices').select(['booking_state', 'booked_at']).where('id', '=', id).executeTakeFirstOrThrow();
const simFlag = (key: string) => simDb(s.db).selectFrom('taxsim_income_bookings').select(['state', 'booked_at']).where('invoice_key', '=', key).executeTakeFirst();
const info = async (id: string) => (await s.call(`${B}/deliveries`, { invoiceId: id }, t13)).r;
/** The sync log as the 集成同步日志 screen reads it (role 1): the booking-flag calls, and how many failed. */
async function syncLog(): Promise<{ total: number; failures: number }> {
  const a = await s.call('/api/syslog/integratedsync-log', { type: IncomeMethods.booking, pageSize: 10 }, t1);
  expect(a.code, a.message).toBe(20000);
  return { total: a.r.total, failures: a.r.failures };
}
const newJob = (server: TestServer, at: number) => new BookingJob({ db: server.db, log: server.app.log, gateway: () => new InvoiceSettings(server.app).gateway() }, { now: () => new Date(at) });
/** One round of a retry job on `server` whose clock reads `at`; the lease given back afterwards. */
async function job(server: TestServer, at: number): Promise<BookingJob & { ran: boolean }> {
  const j = newJob(server, at);
  const ran = await j.tick();
  await j.stop();
  return Object.assign(j, { ran });
}

describe('permissions: roles 1 and 13; 14 and 16 get 权限不足', () => {
  const CALLS: Array<[string, Record<string, unknown>]> = [
    ['book', { invoiceIds: [ZERO], state: '02' }],
    ['revoke', { invoiceIds: [ZERO] }],
    ['deliveries', { invoiceId: ZERO }],
    ['retry', { invoiceId: ZERO }],
  ];
  it.each(CALLS)('%s', async (path, body) => {
    for (const t of [t14, t16]) {
      const a = await s.call(`${B}/${path}`, body, t);
      expect([a.status, a.message]).toEqual([403, '权限不足']);
    }
    for (const t of [t1, t13]) {
      const a = await s.call(`${B}/${path}`, body, t);
      expect(a.status).not.toBe(403);
      expect(a.status).toBeLessThan(500);
    }
    expect((await s.call(`${B}/${path}`, body)).code).toBe(50008);
  });
});

describe('validation and refusals', () => {
  it('checks the body in Chinese', async () => {
    expect((await s.call(`${B}/book`, { invoiceIds: [] , state: '02' }, t13)).message).toContain('请选择发票');
    expect((await s.call(`${B}/book`, { invoiceIds: [ZERO], state: '06' }, t13)).message).toContain('请选择入账类型');
    expect((await s.call(`${B}/book`, { invoiceIds: Array.from({ length: 101 }, () => ZERO), state: '02' }, t13)).message).toContain('一次最多选择100张发票');
  });

  it('refuses per invoice: unknown, already booked, not booked, voided, buyer not ours', async () => {
    const a = await fresh();
    const voided = await fresh();
    await s.db.kysely.updateTable('income_invoices').set({ invoice_state: 2 }).where('id', '=', voided.id).execute();
    const theirs = await fresh();
    await s.db.kysely.updateTable('income_invoices').set({ buyer_mismatch: 1 }).where('id', '=', theirs.id).execute();
    const r = await s.call(`${B}/book`, { invoiceIds: [ZERO, a.id, voided.id, theirs.id], state: '02' }, t13);
    expect(r.code, r.message).toBe(20000);
    expect(r.message).toBe('入账成功1张，未入账3张');
    expect(r.r.results.map((x: { ok: boolean; message: string }) => [x.ok, x.message])).toEqual([
      [false, '发票不存在'],
      [true, '已入账（企业所得税税前扣除），已同步税务端'],
      [false, '该发票作废，不能入账'],
      [false, '购方非本公司的发票不能入账'],
    ]);
    expect((await s.call(`${B}/book`, { invoiceIds: [a.id], state: '03' }, t13)).r.results[0].message).toBe('该发票已入账，不能重复入账');
    expect((await s.call(`${B}/revoke`, { invoiceIds: [voided.id] }, t13)).r.results[0].message).toBe('该发票未入账，无需撤销入账');
    expect((await inv(voided.id)).booking_state).toBe('01');
    expect((await s.call(`${B}/deliveries`, { invoiceId: ZERO }, t13)).message).toBe('发票不存在');
    expect((await s.call(`${B}/retry`, { invoiceId: voided.id }, t13)).message).toBe('该发票没有需要重试的入账标识');
  });
});

describe('book and revoke', () => {
  it('book → 02 set and sent (one sync log row), revoke → 06 sent, book again → 03', async () => {
    const a = await fresh();
    const log0 = await syncLog();
    const r = await s.call(`${B}/book`, { invoiceIds: [a.id], state: '02' }, t13);
    expect(r.r).toMatchObject({ done: 1, refused: 0 });
    expect(r.r.results[0]).toMatchObject({ invoiceId: a.id, number: a.no, ok: true, delivery: 'sent' });
    const row = await inv(a.id);
    expect(row.booking_state).toBe('02');
    expect(row.booked_at).toBeTruthy();
    expect(await simFlag(a.no)).toEqual({ state: '02', booked_at: shanghaiDay() });
    expect(await syncLog()).toEqual({ total: log0.total + 1, failures: log0.failures });
    let i = await info(a.id);
    expect(i).toMatchObject({ invoiceId: a.id, bookingState: '02', bookedAt: row.booked_at });
    expect(i.deliveries).toHaveLength(1);
    expect(i.deliveries[0]).toMatchObject({ state: '02', sourceType: 'manual', requestedBy: (await s.db.kysely.selectFrom('users').select('name').where('login_name', '=', 'demo13').executeTakeFirstOrThrow()).name, attempts: 1, status: 'sent', lastError: '', nextAttemptAt: null });
    // The pool list's 入账状态 filter finds it.
    const listed = await s.call('/api/income/pool/list', { number: a.no, bookingState: '02' }, t13);
    expect(listed.r.total).toBe(1);

    const v = await s.call(`${B}/revoke`, { invoiceIds: [a.id] }, t13);
    expect(v.message).toBe('撤销入账成功1张');
    expect(v.r.results[0]).toMatchObject({ ok: true, delivery: 'sent', message: '入账撤销，已同步税务端' });
    expect(await inv(a.id)).toEqual({ booking_state: '06', booked_at: null });
    expect((await simFlag(a.no))!.state).toBe('06');
    expect((await s.call('/api/income/pool/list', { number: a.no, bookingState: '06' }, t13)).r.total).toBe(1);

    expect((await s.call(`${B}/book`, { invoiceIds: [a.id], state: '03' }, t13)).r.results[0].delivery).toBe('sent');
    expect((await simFlag(a.no))!.state).toBe('03');
    i = await info(a.id);
    expect(i.deliveries.map((d: { state: string; status: string }) => `${d.state}:${d.status}`)).toEqual(['03:sent', '06:sent', '02:sent']);
    // The pool's history.
    const events = await s.db.kysely.selectFrom('income_events').select(['kind', 'message']).where('invoice_id', '=', a.id).where('kind', 'in', ['book', 'unbook']).orderBy('created_at').execute();
    expect(events.map((e) => e.kind)).toEqual(['book', 'unbook', 'book']);
    expect(events[0]!.message).toBe('入账：已入账（企业所得税税前扣除）（手工标记）');
  });

  it('an invoice the tax service does not know: booked here, its delivery 失败 with the service’s reason; 立即重试 once it is known → sent', async () => {
    const a = await fresh({ known: false });
    const r = await s.call(`${B}/book`, { invoiceIds: [a.id], state: '02' }, t13);
    expect(r.r.results[0]).toMatchObject({ ok: true, delivery: 'failed', message: `已入账（企业所得税税前扣除），税务端拒绝：${BookingMessages.unknown}` });
    expect((await inv(a.id)).booking_state).toBe('02');
    expect((await info(a.id)).deliveries[0]).toMatchObject({ status: 'failed', lastError: '税务端无此发票信息', attempts: 1 });
    await registerKnownIncoming(deps(), [{ key: a.no, kind: '81', issueDate: shanghaiDay(-12), tax: 900 }]);
    const again = await s.call(`${B}/retry`, { invoiceId: a.id }, t13);
    expect(again.message).toBe('入账标识已同步税务端');
    expect(again.r.deliveries[0]).toMatchObject({ status: 'sent', attempts: 1 });
  });
});

describe('failures are retried by the job', () => {
  it('a lost call stays pending (1 min, then 5 min) and the job sends it; every attempt is a sync log row', async () => {
    const a = await fresh();
    const log0 = await syncLog();
    await failNextBookingCalls(deps(), 2);
    const t0 = Date.now();
    const r = await s.call(`${B}/book`, { invoiceIds: [a.id], state: '02' }, t13);
    expect(r.r.results[0]).toMatchObject({ ok: true, delivery: 'pending', message: `已入账（企业所得税税前扣除），税务端同步失败，系统将自动重试（${BookingMessages.simulatedFailure}）` });
    let d = (await info(a.id)).deliveries[0];
    expect(d).toMatchObject({ status: 'pending', attempts: 1, lastError: BookingMessages.simulatedFailure });
    const next = Date.parse(d.nextAttemptAt);
    expect(next - t0).toBeGreaterThanOrEqual(MIN - 1000);
    expect(next - t0).toBeLessThan(MIN + 5000);
    expect(await syncLog()).toEqual({ total: log0.total + 1, failures: log0.failures + 1 });

    // Not due yet: the round sends nothing.
    expect((await job(s, t0 + 30_000)).ran).toBe(true);
    expect((await info(a.id)).deliveries[0].attempts).toBe(1);
    // Due: the second attempt fails too → 5 minutes.
    await job(s, next + 1000);
    d = (await info(a.id)).deliveries[0];
    expect(d).toMatchObject({ status: 'pending', attempts: 2 });
    expect(Date.parse(d.nextAttemptAt) - (next + 1000)).toBe(5 * MIN);
    // The third is sent.
    const j = await job(s, Date.parse(d.nextAttemptAt) + 1000);
    expect([...j.last.values()]).toEqual([{ status: 'sent', error: '' }]);
    expect((await info(a.id)).deliveries[0]).toMatchObject({ status: 'sent', attempts: 3, lastError: '' });
    expect((await simFlag(a.no))!.state).toBe('02');
    expect(await syncLog()).toEqual({ total: log0.total + 3, failures: log0.failures + 2 });
    const failed = await s.call('/api/syslog/integratedsync-log', { type: IncomeMethods.booking, status: SyncLogStatus.failure, pageSize: 2 }, t1);
    expect(failed.r.items[0]).toMatchObject({ type: IncomeMethods.booking, status: 1 });
  });

  it(`gives up after ${BOOKING_MAX_ATTEMPTS} attempts (失败 with the reason), 立即重试 starts again`, async () => {
    const a = await fresh();
    await failNextBookingCalls(deps(), 1000);
    try {
      await s.call(`${B}/book`, { invoiceIds: [a.id], state: '03' }, t13);
      for (let n = 2; n <= BOOKING_MAX_ATTEMPTS; n++) {
        const d = (await info(a.id)).deliveries[0];
        expect(d).toMatchObject({ status: 'pending', attempts: n - 1 });
        await job(s, Date.parse(d.nextAttemptAt) + 1000);
      }
      const d = (await info(a.id)).deliveries[0];
      expect(d).toMatchObject({ status: 'failed', attempts: BOOKING_MAX_ATTEMPTS, lastError: `已尝试${BOOKING_MAX_ATTEMPTS}次仍未送达：${BookingMessages.simulatedFailure}`, nextAttemptAt: null });
      // A failed delivery is not due any more.
      const late = await job(s, Date.now() + 24 * 60 * MIN);
      expect(late.last.size).toBe(0);
    } finally {
      await failNextBookingCalls(deps(), 0);
    }
    const again = await s.call(`${B}/retry`, { invoiceId: a.id }, t13);
    expect(again.r.deliveries[0]).toMatchObject({ status: 'sent', attempts: 1 });
    expect((await simFlag(a.no))!.state).toBe('03');
  });

  it('an invoice’s flags go out in order: a revoke waits behind its unsent booking', async () => {
    const a = await fresh();
    await failNextBookingCalls(deps(), 1);
    await s.call(`${B}/book`, { invoiceIds: [a.id], state: '02' }, t13);
    const v = await s.call(`${B}/revoke`, { invoiceIds: [a.id] }, t13);
    // The 06 is not sent before the 02 it revokes.
    expect(v.r.results[0].delivery).toBe('pending');
    expect(await simFlag(a.no)).toBeUndefined();
    await job(s, Date.now() + 2 * MIN);
    expect((await info(a.id)).deliveries.map((d: { state: string; status: string }) => `${d.state}:${d.status}`)).toEqual(['06:pending', '02:sent']);
    await job(s, Date.now() + 3 * MIN);
    expect((await info(a.id)).deliveries.map((d: { state: string; status: string }) => `${d.state}:${d.status}`)).toEqual(['06:sent', '02:sent']);
    expect((await simFlag(a.no))!.state).toBe('06');
  });
});

describe('the demo', () => {
  it('booked invoices carry their booking day (the 1st after the signing month, 10:00 Shanghai) and no deliveries', async () => {
    const row = await s.db.kysely.selectFrom('income_invoices').select(['id', 'archive_no', 'booked_at']).where('booking_state', 'in', ['02', '03']).where('archive_no', 'like', 'GD%').orderBy('archive_no').executeTakeFirstOrThrow();
    const i = await info(row.id);
    const month = row.archive_no.slice(2, 8);
    const next = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(4, 6)), 1, 2)).toISOString();
    expect(i).toMatchObject({ bookedAt: next, deliveries: [] });
    const unbooked = await s.db.kysely.selectFrom('income_invoices').select((eb) => eb.fn.countAll<number>().as('n')).where('booking_state', '=', '01').where('booked_at', 'is not', null).executeTakeFirstOrThrow();
    expect(Number(unbooked.n)).toBe(0);
  });
});

describe('a contract signing books its invoice 02', () => {
  it('signed against a contract → 02, the flag sent with the contract as its source', async () => {
    const docs = await signDocs(s);
    const a = await fresh();
    const signed = await s.call('/api/income/entry/sign', { invoiceIds: [a.id], docType: 'contract', docNo: docs.contract }, t13);
    expect(signed.r.outcomes[0].signState).toBe(IncomeSignState.signed);
    expect((await inv(a.id)).booking_state).toBe('02');
    expect((await info(a.id)).deliveries).toEqual([expect.objectContaining({ state: '02', sourceType: 'contract', sourceNo: docs.contract, status: 'sent', attempts: 1 })]);
    expect((await simFlag(a.no))!.state).toBe('02');
    // A project signing does not book.
    const b = await fresh();
    await s.call('/api/income/entry/sign', { invoiceIds: [b.id], docType: 'project', docNo: docs.project }, t13);
    expect((await inv(b.id)).booking_state).toBe('01');
    expect((await info(b.id)).deliveries).toEqual([]);
  });
});

describe('two servers', () => {
  it('two jobs retrying at once send a due flag once', async () => {
    const b = await attachServer(s);
    await b.app.incomeBookingJob.stop();
    try {
      const a = await fresh();
      await failNextBookingCalls(deps(), 1);
      await s.call(`${B}/book`, { invoiceIds: [a.id], state: '02' }, t13);
      const log0 = await syncLog();
      const at = Date.now() + 2 * MIN;
      const jobs = [newJob(s, at), newJob(b, at)];
      const ran = await Promise.all(jobs.map((j) => j.tick()));
      await Promise.all(jobs.map((j) => j.stop()));
      // One holds the lease; the other finds it taken.
      expect(ran.filter(Boolean)).toHaveLength(1);
      expect((await info(a.id)).deliveries[0]).toMatchObject({ status: 'sent', attempts: 2 });
      expect((await syncLog()).total).toBe(log0.total + 1);

      // 立即重试 on both servers at once: one sends.
      const c = await fresh();
      await failNextBookingCalls(deps(), 1);
      await s.call(`${B}/book`, { invoiceIds: [c.id], state: '02' }, t13);
      const log1 = await syncLog();
      const tb = await b.login('demo13');
      const answers = await Promise.all([s.call(`${B}/retry`, { invoiceId: c.id }, t13), b.call(`${B}/retry`, { invoiceId: c.id }, tb)]);
      for (const x of answers) expect(x.status).toBeLessThan(500);
      expect((await info(c.id)).deliveries[0]).toMatchObject({ status: 'sent', attempts: 2 });
      expect((await syncLog()).total).toBe(log1.total + 1);
    } finally {
      await b.close();
    }
  });

  it('an attempt cut short by a crash: its claim is left to run out, then the job sends the flag again, once (issue 27 item 6)', async () => {
    // The flag reached the tax service, then the server died before recording the answer: pending, claimed by the dead attempt.
    const a = await fresh();
    await s.call(`${B}/book`, { invoiceIds: [a.id], state: '02' }, t13);
    const t0 = Date.now();
    await s.db.kysely
      .updateTable('income_booking_deliveries')
      .set({ status: 'pending', sent_at: null, claimed_by: 'dead-server:1:x', claimed_until: new Date(t0 + 2 * MIN).toISOString(), next_attempt_at: new Date(t0).toISOString() })
      .where('invoice_id', '=', a.id)
      .execute();
    const log0 = await syncLog();
    // Within the dead attempt's claim nothing is sent (a live attempt may still be waiting for its answer).
    expect((await job(s, t0 + MIN)).last.size).toBe(0);
    expect((await syncLog()).total).toBe(log0.total);
    // Past it the flag goes again: the tax service keeps one flag per invoice, so sending it again is the settlement.
    const j = await job(s, t0 + 3 * MIN);
    expect([...j.last.values()]).toEqual([{ status: 'sent', error: '' }]);
    expect((await info(a.id)).deliveries[0]).toMatchObject({ status: 'sent', attempts: 2 });
    expect((await syncLog()).total).toBe(log0.total + 1);
    expect((await simDb(s.db).selectFrom('taxsim_income_bookings').select('state').where('invoice_key', '=', a.no).execute()).map((r) => r.state)).toEqual(['02']);
    expect((await job(s, t0 + 10 * MIN)).last.size).toBe(0);
  });

  it('the job is started with the app and stopped when it closes', async () => {
    const b = await attachServer(s);
    expect(b.app.incomeBookingJob.started).toBe(true);
    expect(b.app.incomeBookingJob.name).toBe('income-booking');
    await b.close();
    expect(b.app.incomeBookingJob.started).toBe(false);
  });
});
