/**
 * What the settling tests of 签收 share (income-sign-settle.test.ts, income-sign-withdrawal-settle.test.ts):
 * two app servers on one database with their own settling jobs stopped, the sign documents they use
 * registered, a first signing of the month (so the archive counter exists), the job on a clock moved past
 * the grace period, and the reads the tests make.
 */
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { shanghaiMonth } from '../src/modules/income/signing/archive-no.js';
import { archiveGatewayOf } from '../src/modules/income/signing/service.js';
import { SIGN_SETTLE_GRACE_MS, SignSettleJob } from '../src/modules/income/signing/settle.js';
import { attachServer, startTestServer, type TestServer } from './helpers.js';
import { entry, registerSignDocs } from './income-helpers.js';

export interface Deferred<T = void> {
  promise: Promise<T>;
  resolve(v: T): void;
}
export const deferred = <T = void>(): Deferred<T> => {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
};

/** An interrupted request: stopped after step 2 until the test lets it go. */
export interface Interrupted {
  /** Resolves once step 2 has run (the archive side was asked, or not) and the request stopped. */
  stopped: Deferred;
  /** Lets the request go on to its own (late) step 3. */
  go: Deferred;
}

export const month = shanghaiMonth();
export const later = () => new Date(Date.now() + SIGN_SETTLE_GRACE_MS + 60_000);
export const jobOn = (srv: TestServer, now = later, gateway = () => archiveGatewayOf(srv.app)) => new SignSettleJob({ db: srv.db, log: srv.app.log, oplog: srv.app.oplog, gateway }, { now });

export interface SettleServers {
  s: TestServer;
  s2: TestServer;
  t13: string;
  t14: string;
}

/** The two servers, the documents signed against and a first signing this month. */
export async function startSettleServers(extraModules: Array<(app: FastifyInstance) => Promise<void>>): Promise<SettleServers> {
  const s = await startTestServer({ extraModules });
  const s2 = await attachServer(s);
  // The servers' own settlement jobs stay out of the way: the tests tick their own (with a clock moved on).
  await Promise.all([s.app.incomeSignJob.stop(), s2.app.incomeSignJob.stop()]);
  const [t13, t14] = [await s.login('demo13'), await s.login('demo14')];
  // Each interrupted signing is told apart by its document number; a signing names a registered document (issue 27).
  await registerSignDocs(s, { reimbursement: ['BX-S1', 'BX-S4', 'BX-S5', 'BX-S6'], contract: ['HT-S2'], project: ['XM-S0', 'XM-S1', 'XM-S3', 'XM-S5', 'XM-S6', 'XM-S9', 'XM-S9B', 'XM-W1', 'XM-W2', 'XM-W3', 'XM-W4', 'XM-W5'] });
  const reads = settleReads(() => ({ s, s2, t13, t14 }));
  // A first signing this month, so the counter row exists and the next numbers are known.
  const first = await s.call('/api/income/entry/sign', { invoiceIds: [await reads.fresh()], docType: 'project', docNo: 'XM-S0' }, t14);
  expect(first.r.signed).toBe(1);
  return { s, s2, t13, t14 };
}

/** The reads of the settling tests, on the servers `of()` gives once started. */
export function settleReads(of: () => SettleServers) {
  const db = () => of().s.db.kysely;
  return {
    fresh: async (): Promise<string> => {
      const a = await of().s.call('/api/income/pool/save', entry(), of().t13);
      expect(a.code, a.message).toBe(20000);
      return a.r.id;
    },
    inv: (id: string) => db().selectFrom('income_invoices').select(['sign_state', 'archive_no', 'usage', 'use_kind', 'doc_no']).where('id', '=', id).executeTakeFirstOrThrow(),
    signings: (id: string) => db().selectFrom('income_signings').select(['id', 'state', 'archive_no', 'voucher_id', 'fail_reason']).where('invoice_id', '=', id).orderBy('created_at').execute(),
    events: (id: string, kind: string) => db().selectFrom('income_events').select(['message', 'user_name']).where('invoice_id', '=', id).where('kind', '=', kind).orderBy('created_at').execute(),
    counter: async () => Number((await db().selectFrom('income_archive_counters').select('seq').where('month', '=', month).executeTakeFirstOrThrow()).seq),
    filings: (signingId: string) =>
      db().withTables<{ archivesim_filings: { signing_id: string; voucher_id: string } }>().selectFrom('archivesim_filings').select('voucher_id').where('signing_id', '=', signingId).execute(),
    queries: (docNo: string) =>
      db()
        .selectFrom('sync_logs')
        .select(['system', 'status', 'memo'])
        .where('type', '=', 'incomeArchiveQuery')
        .where('id', 'in', db().selectFrom('sync_log_refs').select('sync_log_id').where('ref', '=', docNo))
        .execute(),
    waitingCount: async () => (await of().s.call('/api/income/entry/sign-count', {}, of().t14)).r.invoiceEntrySignCount as number,
  };
}
