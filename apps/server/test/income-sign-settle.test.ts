/**
 * Issue 13, "nothing lost when something fails": a signing left unfinished between its step 1 and step 3
 * (the process died while the archive side was asked) is settled by the job (signing/settle.ts, lease
 * 'income-sign'). The crash is played by a sign route whose archive gateway stops after step 2 — it files
 * (or does not), then waits until the test lets it go, so the request's own step 3 comes late (as the
 * step 3 of a process that froze rather than died). The job's clock is moved past the grace period.
 *
 * Filed → signed with the next gap-free archive number and the archive side's voucher id; not filed →
 * failed (签收中断：归档系统未收到，请重新签收), waiting again, the lock released; unknown → left for the
 * next round; two servers → settled once; the late step 3 changes nothing and answers what was decided.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IncomeSignState, IncomeUsage, SyncSystem, type SignBody } from '@zhyy/shared';
import { ArchiveError, type ArchiveGateway } from '../src/integrations/archive/index.js';
import { ok } from '../src/platform/envelope.js';
import { access } from '../src/modules/income/signing/access.js';
import { formatArchiveNo, shanghaiMonth } from '../src/modules/income/signing/archive-no.js';
import { archiveGatewayOf, RESTORED, REVOKING, revokeSigning, signInvoices, signSummary } from '../src/modules/income/signing/service.js';
import { SIGN_INTERRUPTED, SIGN_SETTLE_GRACE_MS, SIGN_SETTLE_LEASE, SignSettleJob } from '../src/modules/income/signing/settle.js';
import { attachServer, startTestServer, type TestServer } from './helpers.js';
import { entry, registerSignDocs } from './income-helpers.js';

interface Deferred<T = void> {
  promise: Promise<T>;
  resolve(v: T): void;
}
const deferred = <T = void>(): Deferred<T> => {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
};

/**
 * How the interrupted signing's archive call behaves: file before stopping, not at all, or only once let go;
 * or file and then, once let go, time out as if the answer had been lost on the way back.
 */
type Filing = 'before' | 'never' | 'after' | 'lost';
interface Interrupted {
  /** Resolves once step 2 has run (the archive side was asked, or not) and the request stopped. */
  stopped: Deferred;
  /** Lets the request go on to its own (late) step 3. */
  go: Deferred;
}
const interrupted = new Map<string, Interrupted>();

/** POST /api/test/sign-interrupted: the sign route, whose archive call stops after step 2 until the test lets it go. */
async function interruptedSigning(app: FastifyInstance) {
  app.post('/api/test/sign-interrupted', { config: access.sign }, async (req) => {
    const body = req.body as SignBody & { filing: Filing };
    const real = archiveGatewayOf(app);
    const gateway: ArchiveGateway = {
      ...real,
      archive: async (r, ctx) => {
        const pause = interrupted.get(body.docNo)!;
        const filed = body.filing === 'before' || body.filing === 'lost' ? await real.archive(r, ctx) : undefined;
        pause.stopped.resolve();
        await pause.go.promise;
        if (filed && body.filing !== 'lost') return filed;
        if (body.filing === 'after') return real.archive(r, ctx);
        throw new ArchiveError(body.filing === 'lost' ? '档案系统15秒内未应答，请稍后重试' : '无法连接档案系统，请稍后重试', 'TRANSPORT', undefined, 502);
      },
    };
    return ok(await signInvoices(app, req, { invoiceIds: body.invoiceIds, docType: body.docType, docNo: body.docNo, note: body.note ?? '' }, gateway));
  });
}

/** How an interrupted withdrawal's archive call behaves: withdraw before stopping, or not at all (then no answer). */
type Withdraw = 'before' | 'never';

/** POST /api/test/revoke-interrupted: revoke/add, whose archive call stops after step 2 until the test lets it go. */
async function interruptedRevoke(app: FastifyInstance) {
  app.post('/api/test/revoke-interrupted', { config: access.revokeAdd }, async (req) => {
    const body = req.body as { invoiceId: string; reason: string; withdraw: Withdraw };
    const real = archiveGatewayOf(app);
    const gateway: ArchiveGateway = {
      ...real,
      revoke: async (r, ctx) => {
        const pause = interrupted.get(body.invoiceId)!;
        if (body.withdraw === 'before') await real.revoke(r, ctx);
        pause.stopped.resolve();
        await pause.go.promise;
        if (body.withdraw === 'never') throw new ArchiveError('档案系统15秒内未应答，请稍后重试', 'TRANSPORT', undefined, 502);
      },
    };
    const a = await revokeSigning(app, req, { invoiceId: body.invoiceId, reason: body.reason }, gateway);
    return ok(a);
  });
}

let s: TestServer;
let s2: TestServer;
let t13: string;
let t14: string;
const month = shanghaiMonth();
const later = () => new Date(Date.now() + SIGN_SETTLE_GRACE_MS + 60_000);
const jobOn = (srv: TestServer, now = later, gateway = () => archiveGatewayOf(srv.app)) => new SignSettleJob({ db: srv.db, log: srv.app.log, oplog: srv.app.oplog, gateway }, { now });

beforeAll(async () => {
  s = await startTestServer({ extraModules: [interruptedSigning, interruptedRevoke] });
  s2 = await attachServer(s);
  // The servers' own settlement jobs stay out of the way: the tests tick their own (with a clock moved on).
  await Promise.all([s.app.incomeSignJob.stop(), s2.app.incomeSignJob.stop()]);
  [t13, t14] = [await s.login('demo13'), await s.login('demo14')];
  // Each interrupted signing is told apart by its document number; a signing names a registered document (issue 27).
  await registerSignDocs(s, { reimbursement: ['BX-S1', 'BX-S4', 'BX-S5', 'BX-S6'], contract: ['HT-S2'], project: ['XM-S0', 'XM-S1', 'XM-S3', 'XM-S5', 'XM-S6', 'XM-S9', 'XM-S9B', 'XM-W1', 'XM-W2', 'XM-W3', 'XM-W4', 'XM-W5'] });
  // A first signing this month, so the counter row exists and the next numbers are known.
  const first = await s.call('/api/income/entry/sign', { invoiceIds: [await fresh()], docType: 'project', docNo: 'XM-S0' }, t14);
  expect(first.r.signed).toBe(1);
});
afterAll(async () => {
  for (const p of interrupted.values()) p.go.resolve();
  await s2?.close();
  await s?.close();
});

async function fresh(): Promise<string> {
  const a = await s.call('/api/income/pool/save', entry(), t13);
  expect(a.code, a.message).toBe(20000);
  return a.r.id;
}

/** Signs one invoice through the interrupted route and waits until it stopped after step 2; `answer` is the late step 3's. */
async function interrupt(id: string, docType: string, docNo: string, filing: Filing) {
  const pause: Interrupted = { stopped: deferred(), go: deferred() };
  interrupted.set(docNo, pause);
  const answer = s.call('/api/test/sign-interrupted', { invoiceIds: [id], docType, docNo, filing }, t14);
  await Promise.race([pause.stopped.promise, answer.then((a) => Promise.reject(new Error(`the request ended: ${a.status} ${a.message}`)))]);
  return { answer, go: () => pause.go.resolve() };
}

const inv = (id: string) => s.db.kysely.selectFrom('income_invoices').select(['sign_state', 'archive_no', 'usage', 'use_kind', 'doc_no']).where('id', '=', id).executeTakeFirstOrThrow();
const signings = (id: string) => s.db.kysely.selectFrom('income_signings').select(['id', 'state', 'archive_no', 'voucher_id', 'fail_reason']).where('invoice_id', '=', id).orderBy('created_at').execute();
const events = (id: string, kind: string) => s.db.kysely.selectFrom('income_events').select(['message', 'user_name']).where('invoice_id', '=', id).where('kind', '=', kind).orderBy('created_at').execute();
const counter = async () => Number((await s.db.kysely.selectFrom('income_archive_counters').select('seq').where('month', '=', month).executeTakeFirstOrThrow()).seq);
const filings = (signingId: string) =>
  s.db.kysely.withTables<{ archivesim_filings: { signing_id: string; voucher_id: string } }>().selectFrom('archivesim_filings').select('voucher_id').where('signing_id', '=', signingId).execute();
const queries = (docNo: string) =>
  s.db.kysely
    .selectFrom('sync_logs')
    .select(['system', 'status', 'memo'])
    .where('type', '=', 'incomeArchiveQuery')
    .where('id', 'in', s.db.kysely.selectFrom('sync_log_refs').select('sync_log_id').where('ref', '=', docNo))
    .execute();
const waitingCount = async () => (await s.call('/api/income/entry/sign-count', {}, t14)).r.invoiceEntrySignCount as number;

describe('a signing interrupted after the archive side filed it', () => {
  it('is left alone within the grace period, then completed as a success with the next archive number', async () => {
    const id = await fresh();
    const before = await counter();
    const run = await interrupt(id, 'reimbursement', 'BX-S1', 'before');
    expect(await inv(id)).toMatchObject({ sign_state: IncomeSignState.applying, usage: IncomeUsage.locked, doc_no: 'BX-S1' });
    const [rec] = await signings(id);
    expect(rec!.state).toBe('applying');
    const [filed] = await filings(rec!.id);
    expect(filed!.voucher_id).toMatch(/^SIMV/);

    // Within the grace period (the request may still be waiting for its answer): nothing happens.
    expect(await jobOn(s, () => new Date()).settleDue()).toEqual({ signed: 0, failed: 0, unknown: 0 });
    expect((await signings(id))[0]!.state).toBe('applying');

    const job = jobOn(s);
    expect(await job.tick()).toBe(true);
    await job.stop();
    const no = formatArchiveNo(month, before + 1);
    expect(await inv(id)).toMatchObject({ sign_state: IncomeSignState.signed, archive_no: no, usage: IncomeUsage.locked, use_kind: 'sign', doc_no: 'BX-S1' });
    expect(await signings(id)).toMatchObject([{ state: 'signed', archive_no: no, voucher_id: filed!.voucher_id, fail_reason: '' }]);
    expect(await counter()).toBe(before + 1);
    const signed = await events(id, 'sign');
    expect(signed).toHaveLength(1);
    expect(signed[0]!.user_name).toBe('系统');
    expect(signed[0]!.message).toBe(`签收归档（报销单 BX-S1），档案号 ${no}，凭证号 ${filed!.voucher_id}（签收中断，系统向档案系统核对后完成）`);
    const oplog = await s.db.kysely.selectFrom('operation_logs').select(['user_name', 'description']).where('description', 'like', `%档案号 ${no}%`).execute();
    expect(oplog).toEqual([{ user_name: '系统', description: expect.stringContaining('发票签收：发票') }]);
    expect(await queries('BX-S1')).toEqual([{ system: SyncSystem.accounting, status: 0, memo: `签收核对（单据 BX-S1）：档案系统已归档，凭证号 ${filed!.voucher_id}` }]);
    // Nothing left to settle.
    expect(await jobOn(s).settleDue()).toEqual({ signed: 0, failed: 0, unknown: 0 });

    // The request's own step 3 comes late: it changes nothing and answers what the job decided.
    run.go();
    const late = await run.answer;
    expect(late.code, late.message).toBe(20000);
    expect(late.r).toEqual({ signed: 1, failed: 0, pending: 0, outcomes: [{ invoiceId: id, signState: IncomeSignState.signed, archiveNo: no, message: `签收成功，档案号 ${no}` }] });
    expect(await counter()).toBe(before + 1);
    expect(await events(id, 'sign')).toHaveLength(1);

    // The numbers go on without a gap.
    const next = await s.call('/api/income/entry/sign', { invoiceIds: [await fresh()], docType: 'project', docNo: 'XM-S1' }, t14);
    expect(next.r.outcomes[0].archiveNo).toBe(formatArchiveNo(month, before + 2));
  });
});

describe('a signing whose answer was lost (the archive side filed it, the request timed out)', () => {
  it('is neither failed nor signed by the request: 签收中 and 待核实, then the job completes it with the next number', async () => {
    const id = await fresh();
    const before = await counter();
    const run = await interrupt(id, 'project', 'XM-S9', 'lost');
    run.go();
    const a = await run.answer;
    expect(a.code, a.message).toBe(20000);
    expect(signSummary(a.r)).toBe('签收成功0张，失败0张，待核实1张');
    expect(a.r).toEqual({ signed: 0, failed: 0, pending: 1, outcomes: [{ invoiceId: id, signState: IncomeSignState.applying, archiveNo: '', message: '签收结果待核实：档案系统15秒内未应答，请稍后重试；系统将自动向档案系统核实，请稍后刷新' }] });
    // The lock stays with the signing: nothing else can use the invoice, and it is not waiting to be signed again.
    expect(await inv(id)).toMatchObject({ sign_state: IncomeSignState.applying, usage: IncomeUsage.locked, doc_no: 'XM-S9' });
    const again = await s.call('/api/income/entry/sign', { invoiceIds: [id], docType: 'project', docNo: 'XM-S9B' }, t14);
    expect(again.r.outcomes[0].message).toBe('该发票正在签收中，请稍后刷新');
    expect(await jobOn(s).settleDue()).toEqual({ signed: 1, failed: 0, unknown: 0 });
    const no = formatArchiveNo(month, before + 1);
    expect(await inv(id)).toMatchObject({ sign_state: IncomeSignState.signed, archive_no: no });
    expect(await counter()).toBe(before + 1);
  });
});

describe('a signing interrupted before the archive side received it', () => {
  it('fails with 签收中断, releases the lock and waits to be signed again', async () => {
    const id = await fresh();
    const before = await counter();
    const waiting = await waitingCount();
    const run = await interrupt(id, 'contract', 'HT-S2', 'never');
    expect(await inv(id)).toMatchObject({ sign_state: IncomeSignState.applying, usage: IncomeUsage.locked });
    expect(await waitingCount()).toBe(waiting - 1);

    expect(await jobOn(s).settleDue()).toEqual({ signed: 0, failed: 1, unknown: 0 });
    expect(await inv(id)).toMatchObject({ sign_state: IncomeSignState.failed, archive_no: '', usage: IncomeUsage.available, use_kind: '', doc_no: '' });
    expect(await signings(id)).toMatchObject([{ state: 'failed', archive_no: '', voucher_id: '', fail_reason: SIGN_INTERRUPTED }]);
    expect(await waitingCount()).toBe(waiting);
    expect(await counter()).toBe(before);
    expect(await events(id, 'sign-failed')).toEqual([{ user_name: '系统', message: `签收失败（合同 HT-S2）：${SIGN_INTERRUPTED}（签收中断，系统向档案系统核对后完成）` }]);
    expect((await events(id, 'release')).map((e) => e.message)).toEqual(['签收单 HT-S2 释放了发票']);
    expect(await queries('HT-S2')).toEqual([{ system: SyncSystem.accounting, status: 0, memo: '签收核对（单据 HT-S2）：档案系统无该签收的归档（未收到或已撤销）' }]);

    // The late step 3 (its archive call failed) finds the signing finished: no second release, the job's reason.
    run.go();
    const late = await run.answer;
    expect(late.code, late.message).toBe(20000);
    expect(late.r.outcomes).toEqual([{ invoiceId: id, signState: IncomeSignState.failed, archiveNo: '', message: `签收失败：${SIGN_INTERRUPTED}` }]);
    expect(await events(id, 'release')).toHaveLength(1);
    expect(await inv(id)).toMatchObject({ sign_state: IncomeSignState.failed, usage: IncomeUsage.available });

    // Signed again, it goes through and takes the next number.
    const again = await s.call('/api/income/entry/sign', { invoiceIds: [id], docType: 'contract', docNo: 'HT-S2' }, t14);
    expect(again.r.outcomes[0]).toMatchObject({ signState: IncomeSignState.signed, archiveNo: formatArchiveNo(month, before + 1) });
    expect(await inv(id)).toMatchObject({ sign_state: IncomeSignState.signed, usage: IncomeUsage.closed });
  });

  it('an answer that comes after the job judged it not received is kept in the history', async () => {
    const id = await fresh();
    const run = await interrupt(id, 'project', 'XM-S3', 'after');
    expect(await jobOn(s).settleDue()).toEqual({ signed: 0, failed: 1, unknown: 0 });
    run.go();
    const late = await run.answer;
    expect(late.r.outcomes[0]).toMatchObject({ signState: IncomeSignState.failed, message: `签收失败：${SIGN_INTERRUPTED}` });
    const [rec] = await signings(id);
    const [filed] = await filings(rec!.id);
    const history = (await events(id, 'sign-failed')).map((e) => e.message);
    expect(history).toEqual([`签收失败（项目 XM-S3）：${SIGN_INTERRUPTED}（签收中断，系统向档案系统核对后完成）`, `签收已判定中断（项目 XM-S3），档案系统随后返回凭证号 ${filed!.voucher_id}，请与财务核对后重新签收`]);
    expect(await inv(id)).toMatchObject({ sign_state: IncomeSignState.failed, usage: IncomeUsage.available });
  });
});

describe('when the archive side cannot tell', () => {
  it('leaves the signing for the next round (unknown answer or a failed exchange), then settles it', async () => {
    const id = await fresh();
    const run = await interrupt(id, 'reimbursement', 'BX-S4', 'before');
    const real = () => archiveGatewayOf(s.app);
    const unsure = () => ({ ...real(), query: async () => ({ status: 'unknown' as const, message: '归档处理中' }) });
    const down = () => ({ ...real(), query: async () => Promise.reject(new ArchiveError('无法连接档案系统，请稍后重试', 'TRANSPORT', undefined, 502)) });
    expect(await jobOn(s, later, unsure).settleDue()).toEqual({ signed: 0, failed: 0, unknown: 1 });
    expect(await jobOn(s, later, down).settleDue()).toEqual({ signed: 0, failed: 0, unknown: 1 });
    expect(await inv(id)).toMatchObject({ sign_state: IncomeSignState.applying, usage: IncomeUsage.locked });
    expect((await signings(id))[0]!.state).toBe('applying');
    expect(await jobOn(s).settleDue()).toEqual({ signed: 1, failed: 0, unknown: 0 });
    expect((await inv(id)).sign_state).toBe(IncomeSignState.signed);
    run.go();
    expect((await run.answer).r.signed).toBe(1);
  });
});

describe('two servers', () => {
  it('one round at a time holds the lease, and each signing is settled once', async () => {
    const filedId = await fresh();
    const lostId = await fresh();
    const before = await counter();
    const runs = [await interrupt(filedId, 'reimbursement', 'BX-S5', 'before'), await interrupt(lostId, 'project', 'XM-S5', 'never')];
    const a = jobOn(s);
    const b = jobOn(s2);
    expect(a.name).toBe(SIGN_SETTLE_LEASE);
    // The lease: one of the two runs the round.
    const ran = await Promise.all([a.tick(), b.tick()]);
    expect(ran.filter(Boolean)).toHaveLength(1);
    expect((await a.leases.current(SIGN_SETTLE_LEASE))?.holder).toBe(ran[0] ? a.holder : b.holder);
    expect(await (ran[0] ? b : a).tick()).toBe(false);
    // Without the lease (two rounds at once regardless): the guarded step 3 settles each signing once.
    const more = [await fresh(), await fresh()];
    runs.push(await interrupt(more[0]!, 'reimbursement', 'BX-S6', 'before'), await interrupt(more[1]!, 'project', 'XM-S6', 'never'));
    const sums = await Promise.all([a.settleDue(), b.settleDue()]);
    expect(sums.reduce((n, x) => n + x.signed, 0)).toBe(1);
    expect(sums.reduce((n, x) => n + x.failed, 0)).toBe(1);

    for (const id of [filedId, more[0]!]) {
      expect(await signings(id)).toMatchObject([{ state: 'signed' }]);
      expect(await events(id, 'sign')).toHaveLength(1);
    }
    for (const id of [lostId, more[1]!]) {
      expect(await signings(id)).toMatchObject([{ state: 'failed', fail_reason: SIGN_INTERRUPTED }]);
      expect(await events(id, 'release')).toHaveLength(1);
      expect(await inv(id)).toMatchObject({ sign_state: IncomeSignState.failed, usage: IncomeUsage.available });
    }
    // Two successes, two consecutive numbers.
    const nos = [(await inv(filedId)).archive_no, (await inv(more[0]!)).archive_no].sort();
    expect(nos).toEqual([formatArchiveNo(month, before + 1), formatArchiveNo(month, before + 2)]);
    expect(await counter()).toBe(before + 2);
    await Promise.all([a.stop(), b.stop()]);
    for (const r of runs) r.go();
    const answers = await Promise.all(runs.map((r) => r.answer));
    expect(answers.map((x) => x.r.outcomes[0].signState)).toEqual([IncomeSignState.signed, IncomeSignState.failed, IncomeSignState.signed, IncomeSignState.failed]);
    expect(await counter()).toBe(before + 2);
  });

  it('each server starts its settlement job when ready and stops it on close', async () => {
    const other = await attachServer(s);
    await other.app.ready();
    expect(other.app.incomeSignJob.started).toBe(true);
    expect(other.app.incomeSignJob.name).toBe(SIGN_SETTLE_LEASE);
    await other.close();
    expect(other.app.incomeSignJob.started).toBe(false);
  });
});

describe('a withdrawal (签收撤销) cut short', () => {
  /** A fresh invoice signed for a project (revocable), and its signing's id. */
  async function signed(docNo: string) {
    const id = await fresh();
    const a = await s.call('/api/income/entry/sign', { invoiceIds: [id], docType: 'project', docNo }, t14);
    expect(a.r.signed, a.message).toBe(1);
    const [rec] = await signings(id);
    return { id, signingId: rec!.id, archiveNo: a.r.outcomes[0].archiveNo as string };
  }
  /** Revokes through the interrupted route and waits until the archive call stopped. */
  async function withdraw(id: string, withdraw: Withdraw, reason = '单据填错需重签') {
    const pause: Interrupted = { stopped: deferred(), go: deferred() };
    interrupted.set(id, pause);
    const answer = s.call('/api/test/revoke-interrupted', { invoiceId: id, reason, withdraw }, t14);
    await Promise.race([pause.stopped.promise, answer.then((a) => Promise.reject(new Error(`the request ended: ${a.status} ${a.message}`)))]);
    return { answer, go: () => pause.go.resolve() };
  }
  const mark = async (signingId: string) =>
    s.db.kysely.selectFrom('income_signings').select(['state', 'revoke_started_at', 'revoke_reason', 'revoke_user_name']).where('id', '=', signingId).executeTakeFirstOrThrow();
  const revokes = (id: string) => s.db.kysely.selectFrom('income_sign_revokes').select(['archive_no', 'reason', 'user_name']).where('invoice_id', '=', id).execute();
  const archived = (signingId: string) =>
    s.db.kysely.withTables<{ archivesim_filings: { signing_id: string; revoked_at: string | null } }>().selectFrom('archivesim_filings').select('revoked_at').where('signing_id', '=', signingId).executeTakeFirstOrThrow();

  it('after the archive side withdrew the filing: recorded as revoked by the job, once; the late step 3 changes nothing', async () => {
    const { id, signingId, archiveNo } = await signed('XM-W1');
    const run = await withdraw(id, 'before');
    // The mark is recorded before the archive side is asked; the invoice stays 已签收 meanwhile.
    expect(await mark(signingId)).toMatchObject({ state: 'signed', revoke_reason: '单据填错需重签', revoke_user_name: expect.any(String) });
    expect((await mark(signingId)).revoke_started_at).not.toBeNull();
    expect((await archived(signingId)).revoked_at).not.toBeNull();
    expect(await inv(id)).toMatchObject({ sign_state: IncomeSignState.signed, archive_no: archiveNo });
    // A second revocation meanwhile is refused.
    const again = await s.call('/api/income/entry/revoke/add', { invoiceId: id, reason: '再次撤销试试' }, t14);
    expect([again.code, again.message]).toEqual([30000, REVOKING]);
    // Within the grace period nothing happens.
    expect(await jobOn(s, () => new Date()).settleWithdrawals()).toEqual({ revoked: 0, restored: 0, unknown: 0 });

    const job = jobOn(s);
    expect(await job.tick()).toBe(true);
    await job.stop();
    expect(await inv(id)).toMatchObject({ sign_state: IncomeSignState.unsigned, archive_no: '', usage: IncomeUsage.available, use_kind: '', doc_no: '' });
    expect((await mark(signingId)).state).toBe('revoked');
    const who = (await mark(signingId)).revoke_user_name;
    expect(await revokes(id)).toEqual([{ archive_no: archiveNo, reason: '单据填错需重签', user_name: who }]);
    expect(await events(id, 'revoke')).toEqual([{ user_name: '系统', message: `撤销签收，档案号 ${archiveNo} 作废（原因：单据填错需重签）（撤销中断，系统向档案系统核对后完成）` }]);
    expect(await queries('XM-W1')).toEqual([{ system: SyncSystem.accounting, status: 0, memo: '签收核对（单据 XM-W1）：档案系统无该签收的归档（未收到或已撤销）' }]);
    expect(await jobOn(s).settleWithdrawals()).toEqual({ revoked: 0, restored: 0, unknown: 0 });

    run.go();
    const late = await run.answer;
    expect(late.code, late.message).toBe(20000);
    expect(late.r).toEqual({ archiveNo });
    expect(await revokes(id)).toHaveLength(1);
    expect(await events(id, 'revoke')).toHaveLength(1);
    expect(await events(id, 'release')).toHaveLength(1);
  });

  it('before the archive side withdrew it: 已签收 restored as it was, then revocable again', async () => {
    const { id, signingId, archiveNo } = await signed('XM-W2');
    const run = await withdraw(id, 'never');
    expect((await archived(signingId)).revoked_at).toBeNull();
    // The archive side cannot tell yet, or cannot be asked: left for the next round.
    const real = () => archiveGatewayOf(s.app);
    const down = () => ({ ...real(), query: async () => Promise.reject(new ArchiveError('无法连接档案系统，请稍后重试', 'TRANSPORT', undefined, 502)) });
    expect(await jobOn(s, later, down).settleWithdrawals()).toEqual({ revoked: 0, restored: 0, unknown: 1 });
    expect((await mark(signingId)).revoke_started_at).not.toBeNull();

    expect(await jobOn(s).settleWithdrawals()).toEqual({ revoked: 0, restored: 1, unknown: 0 });
    expect(await mark(signingId)).toEqual({ state: 'signed', revoke_started_at: null, revoke_reason: '', revoke_user_name: '' });
    expect(await inv(id)).toMatchObject({ sign_state: IncomeSignState.signed, archive_no: archiveNo, usage: IncomeUsage.locked, doc_no: 'XM-W2' });
    expect(await revokes(id)).toEqual([]);
    const history = await events(id, 'revoke');
    expect(history).toHaveLength(1);
    expect(history[0]!.user_name).toBe('系统');
    expect(history[0]!.message).toContain(`撤销签收未完成：档案系统仍保留档案号 ${archiveNo} 的归档，已恢复为已签收`);
    expect(await jobOn(s).settleWithdrawals()).toEqual({ revoked: 0, restored: 0, unknown: 0 });

    // The late request (no answer from the archive side) is told what the job decided.
    run.go();
    const late = await run.answer;
    expect([late.code, late.message]).toEqual([30000, RESTORED]);
    expect(await inv(id)).toMatchObject({ sign_state: IncomeSignState.signed, archive_no: archiveNo });

    // Revoked again, it goes through.
    const again = await s.call('/api/income/entry/revoke/add', { invoiceId: id, reason: '重新撤销签收' }, t14);
    expect(again.code, again.message).toBe(20000);
    expect(await inv(id)).toMatchObject({ sign_state: IncomeSignState.unsigned, archive_no: '', usage: IncomeUsage.available });
    expect(await revokes(id)).toMatchObject([{ archive_no: archiveNo, reason: '重新撤销签收' }]);
  });

  it('a request without an answer from the archive side says so and leaves the mark for the job', async () => {
    const { id, signingId } = await signed('XM-W3');
    const run = await withdraw(id, 'never');
    run.go();
    const a = await run.answer;
    expect([a.code, a.message]).toEqual([30000, '撤销结果待核实：档案系统15秒内未应答，请稍后重试；系统将自动向档案系统核实，请稍后刷新']);
    expect((await mark(signingId)).revoke_started_at).not.toBeNull();
    expect(await jobOn(s).settleWithdrawals()).toEqual({ revoked: 0, restored: 1, unknown: 0 });
  });

  it('two servers settle each withdrawal once', async () => {
    const gone = await signed('XM-W4');
    const kept = await signed('XM-W5');
    const runs = [await withdraw(gone.id, 'before'), await withdraw(kept.id, 'never')];
    const a = jobOn(s);
    const b = jobOn(s2);
    const sums = await Promise.all([a.settleWithdrawals(), b.settleWithdrawals()]);
    expect(sums.reduce((n, x) => n + x.revoked, 0)).toBe(1);
    expect(sums.reduce((n, x) => n + x.restored, 0)).toBe(1);
    expect(await revokes(gone.id)).toHaveLength(1);
    expect(await events(gone.id, 'revoke')).toHaveLength(1);
    expect(await events(gone.id, 'release')).toHaveLength(1);
    expect(await inv(gone.id)).toMatchObject({ sign_state: IncomeSignState.unsigned, archive_no: '' });
    expect(await events(kept.id, 'revoke')).toHaveLength(1);
    expect(await inv(kept.id)).toMatchObject({ sign_state: IncomeSignState.signed, archive_no: kept.archiveNo });
    // The lease: one round at a time.
    const ran = await Promise.all([a.tick(), b.tick()]);
    expect(ran.filter(Boolean)).toHaveLength(1);
    await Promise.all([a.stop(), b.stop()]);
    for (const r of runs) r.go();
    const answers = await Promise.all(runs.map((r) => r.answer));
    expect(answers.map((x) => x.code)).toEqual([20000, 30000]);
    expect(await revokes(gone.id)).toHaveLength(1);
  });
});
