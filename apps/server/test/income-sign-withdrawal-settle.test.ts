/**
 * Issue 27: a withdrawal (签收撤销) cut short between marking it and the archive side's answer is settled by
 * the job that settles interrupted signings (signing/settle.ts): the withdrawal is marked before the archive
 * side is called, and the job asks the archive side once the grace period has passed. The crash is played
 * by a revoke route whose archive call stops after step 2 until the test lets it go. Split from
 * income-sign-settle.test.ts; what both share is income-sign-settle-fixture.ts.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IncomeSignState, IncomeUsage, SyncSystem } from '@zhyy/shared';
import { ArchiveError, type ArchiveGateway } from '../src/integrations/archive/index.js';
import { ok } from '../src/platform/envelope.js';
import { access } from '../src/modules/income/signing/access.js';
import { archiveGatewayOf, RESTORED, REVOKING, revokeSigning } from '../src/modules/income/signing/service.js';
import type { TestServer } from './helpers.js';
import { deferred, jobOn, later, settleReads, startSettleServers, type Interrupted, type SettleServers } from './income-sign-settle-fixture.js';

const interrupted = new Map<string, Interrupted>();

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

let servers: SettleServers;
let s: TestServer;
let s2: TestServer;
let t14: string;
const { fresh, inv, signings, events, queries } = settleReads(() => servers);

beforeAll(async () => {
  servers = await startSettleServers([interruptedRevoke]);
  ({ s, s2, t14 } = servers);
});
afterAll(async () => {
  for (const p of interrupted.values()) p.go.resolve();
  await s2?.close();
  await s?.close();
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
