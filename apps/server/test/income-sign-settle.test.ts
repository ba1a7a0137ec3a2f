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
import { formatArchiveNo } from '../src/modules/income/signing/archive-no.js';
import { archiveGatewayOf, signInvoices, signSummary } from '../src/modules/income/signing/service.js';
import { SIGN_INTERRUPTED, SIGN_SETTLE_LEASE } from '../src/modules/income/signing/settle.js';
import { attachServer, type TestServer } from './helpers.js';
import { deferred, jobOn, later, month, settleReads, startSettleServers, type Interrupted, type SettleServers } from './income-sign-settle-fixture.js';

/**
 * How the interrupted signing's archive call behaves: file before stopping, not at all, or only once let go;
 * or file and then, once let go, time out as if the answer had been lost on the way back.
 */
type Filing = 'before' | 'never' | 'after' | 'lost';
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

let servers: SettleServers;
let s: TestServer;
let s2: TestServer;
let t14: string;
const { fresh, inv, signings, events, counter, filings, queries, waitingCount } = settleReads(() => servers);

beforeAll(async () => {
  servers = await startSettleServers([interruptedSigning]);
  ({ s, s2, t14 } = servers);
});
afterAll(async () => {
  for (const p of interrupted.values()) p.go.resolve();
  await s2?.close();
  await s?.close();
});

/** Signs one invoice through the interrupted route and waits until it stopped after step 2; `answer` is the late step 3's. */
async function interrupt(id: string, docType: string, docNo: string, filing: Filing) {
  const pause: Interrupted = { stopped: deferred(), go: deferred() };
  interrupted.set(docNo, pause);
  const answer = s.call('/api/test/sign-interrupted', { invoiceIds: [id], docType, docNo, filing }, t14);
  await Promise.race([pause.stopped.promise, answer.then((a) => Promise.reject(new Error(`the request ended: ${a.status} ${a.message}`)))]);
  return { answer, go: () => pause.go.resolve() };
}

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
