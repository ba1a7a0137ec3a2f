/**
 * Settling unfinished signings (签收中断): a process that dies between signing's step 1 and step 3
 * (service.ts) leaves the invoice at -1 (签收中), the usage lock held and the signing record `applying`.
 * Every minute the server holding the 'income-sign' lease (platform/leases.ts) takes the signings
 * applying for longer than the grace period (longer than one archive call can take, so a request still
 * waiting for its answer is left alone), oldest first, and asks the archive side about each by its
 * signing id (ArchiveGateway.query, one sync log row):
 *
 * - filed → finished as a success through the service's own step 3 (`finishSigning`): the archive number
 *   taken then (gap-free), the voucher id the archive side has, the lock closed or kept as for any success;
 * - not filed → finished as a failure, 签收中断：归档系统未收到，请重新签收, the lock released: the invoice
 *   is waiting again;
 * - unknown, or the exchange failed → left for the next round.
 *
 * Step 3 is guarded on the signing still being `applying`, so a late step 3 of the original request and
 * this job never both finish one signing. Each settlement writes the pool history (by 系统) and the
 * operation log, as a signing does.
 *
 * The same round settles withdrawals cut short (撤销中断, issue 27): a revocation marks the signing
 * (`revoke_started_at`, service.ts revokeSigning step 1) before asking the archive side to withdraw the
 * filing; a mark older than the grace period is settled by asking the archive side by the signing id
 * whether the filing is still there:
 *
 * - not filed (withdrawn) → the revocation is recorded through the request's own step 3 (`finishRevoke`):
 *   the invoice 未签收 without an archive number, the lock released, the revocation record the asking
 *   user's;
 * - still filed → the mark is taken off (`restoreSigned`): 已签收 as it was, to be revoked again;
 * - unknown, or the exchange failed → left for the next round.
 *
 * Both are guarded on the same mark, so the request's late step 3 and this job record it once.
 */
import { OperationLogType, SYSTEM_ACTOR_NAME } from '@zhyy/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/index.js';
import type { ArchiveGateway, ArchiveLookup } from '../../../integrations/archive/index.js';
import { LeasedJob } from '../../../platform/leases.js';
import { SYSTEM_OPERATOR, type OperationLogService } from '../../../platform/oplog.js';
import { isoBefore } from '../../../platform/time.js';
import { finishRevoke, finishSigning, restoreSigned, type Finisher, type Withdrawal } from './service.js';
import './tables.js';

export const SIGN_SETTLE_LEASE = 'income-sign';
export const SIGN_SETTLE_TTL_MS = 120_000;
export const SIGN_SETTLE_INTERVAL_MS = 60_000;
/** How long a signing may stay applying before it is settled: well above one archive call's timeout. */
export const SIGN_SETTLE_GRACE_MS = 2 * 60_000;
/** Signings settled per round at most (the rest the next round). */
export const SIGN_SETTLE_BATCH = 100;
export const SIGN_INTERRUPTED = '签收中断：归档系统未收到，请重新签收';

export interface SignSettleDeps {
  db: Db;
  log: FastifyBaseLogger;
  oplog: OperationLogService;
  gateway: () => ArchiveGateway;
}

export interface SignSettleOptions {
  intervalMs?: number;
  graceMs?: number;
  /** The clock the grace is measured against (tests move it forward). */
  now?: () => Date;
  holder?: string;
}

export interface SettleSummary {
  signed: number;
  failed: number;
  /** Left for the next round: the archive side could not tell, or the exchange failed. */
  unknown: number;
}

/** The grace for an archive setting: two minutes, or twice an HTTP call's timeout when that is longer. */
export const settleGraceFor = (timeoutMs = 0) => Math.max(SIGN_SETTLE_GRACE_MS, 2 * timeoutMs);

export interface WithdrawalSummary {
  /** The archive side no longer holds the filing: recorded as revoked. */
  revoked: number;
  /** The archive side still holds it: 已签收 again. */
  restored: number;
  unknown: number;
}

export class SignSettleJob extends LeasedJob {
  private readonly graceMs: number;
  private readonly now: () => Date;
  private readonly system: Finisher;

  constructor(
    private readonly deps: SignSettleDeps,
    opts: SignSettleOptions = {},
  ) {
    super({ db: deps.db, log: deps.log, name: SIGN_SETTLE_LEASE, intervalMs: opts.intervalMs ?? SIGN_SETTLE_INTERVAL_MS, ttlMs: SIGN_SETTLE_TTL_MS, round: async (lease) => {
        await this.settleDue(() => lease.check());
        await this.settleWithdrawals(() => lease.check());
      }, ...(opts.holder ? { holder: opts.holder } : {}) });
    this.graceMs = opts.graceMs ?? SIGN_SETTLE_GRACE_MS;
    this.now = opts.now ?? (() => new Date());
    this.system = { name: SYSTEM_ACTOR_NAME, log: (trx, description) => deps.oplog.write({ type: OperationLogType.edit, description, actor: SYSTEM_OPERATOR }, trx) };
  }

  /** Asks the archive side whether a signing's filing is there (by the signing id); null when it cannot say now. */
  private async ask(gateway: ReturnType<SignSettleDeps['gateway']>, s: { id: string; ident: string; doc_no: string }, what: 'signing' | 'withdrawal'): Promise<Exclude<ArchiveLookup, { status: 'unknown' }> | null> {
    try {
      const lookup = await gateway.query({ signingId: s.id, invoiceKey: s.ident, docNo: s.doc_no }, { userId: null });
      return lookup.status === 'unknown' ? null : lookup;
    } catch (err) {
      this.deps.log.warn({ err, signingId: s.id }, `could not ask the archive side about an unfinished ${what}; the next round asks again`);
      return null;
    }
  }

  /** One pass over the signings applying for longer than the grace; `stillOurs` (the lease check) before each question. */
  async settleDue(stillOurs: () => Promise<void> = async () => undefined): Promise<SettleSummary> {
    const db = this.deps.db.kysely;
    const due = await db
      .selectFrom('income_signings as s')
      .innerJoin('income_invoices as p', 'p.id', 's.invoice_id')
      .select(['s.id', 's.invoice_id', 's.doc_type', 's.doc_no', 's.created_at', 'p.ident', 'p.digital_no', 'p.invoice_no'])
      .where('s.state', '=', 'applying')
      .where('s.created_at', '<', isoBefore(this.graceMs, this.now()))
      .orderBy('s.created_at')
      .orderBy('s.id')
      .limit(SIGN_SETTLE_BATCH)
      .execute();
    const sum: SettleSummary = { signed: 0, failed: 0, unknown: 0 };
    if (!due.length) return sum;
    const gateway = this.deps.gateway();
    for (const s of due) {
      await stillOurs();
      const lookup = await this.ask(gateway, s, 'signing');
      if (!lookup) {
        sum.unknown++;
        continue;
      }
      const filed = lookup.status === 'filed';
      try {
        const { outcome, already } = await finishSigning(db, this.system, {
          id: s.invoice_id,
          signingId: s.id,
          number: s.digital_no || s.invoice_no,
          docType: s.doc_type,
          use: { kind: 'sign', docNo: s.doc_no },
          voucherId: lookup.status === 'filed' ? lookup.voucherId : '',
          failure: filed ? '' : SIGN_INTERRUPTED,
          settled: true,
        });
        if (already) continue;
        this.deps.log.info({ signingId: s.id, invoiceId: s.invoice_id, outcome: outcome.message }, 'unfinished signing settled');
        if (filed) sum.signed++;
        else sum.failed++;
      } catch (err) {
        this.deps.log.warn({ err, signingId: s.id }, 'could not settle an unfinished signing; the next round tries again');
        sum.unknown++;
      }
    }
    return sum;
  }

  /** One pass over the withdrawals marked for longer than the grace (撤销中断); `stillOurs` before each question. */
  async settleWithdrawals(stillOurs: () => Promise<void> = async () => undefined): Promise<WithdrawalSummary> {
    const db = this.deps.db.kysely;
    const due = await db
      .selectFrom('income_signings as s')
      .innerJoin('income_invoices as p', 'p.id', 's.invoice_id')
      .select(['s.id', 's.invoice_id', 's.doc_no', 's.archive_no', 's.revoke_started_at', 's.revoke_reason', 's.revoke_user_id', 's.revoke_user_name', 'p.ident', 'p.digital_no', 'p.invoice_no'])
      .where('s.state', '=', 'signed')
      .where('s.revoke_started_at', 'is not', null)
      .where('s.revoke_started_at', '<', isoBefore(this.graceMs, this.now()))
      .orderBy('s.revoke_started_at')
      .orderBy('s.id')
      .limit(SIGN_SETTLE_BATCH)
      .execute();
    const sum: WithdrawalSummary = { revoked: 0, restored: 0, unknown: 0 };
    if (!due.length) return sum;
    const gateway = this.deps.gateway();
    for (const s of due) {
      await stillOurs();
      const lookup = await this.ask(gateway, s, 'withdrawal');
      if (!lookup) {
        sum.unknown++;
        continue;
      }
      const w: Withdrawal = { signingId: s.id, invoiceId: s.invoice_id, number: s.digital_no || s.invoice_no, archiveNo: s.archive_no, docNo: s.doc_no, startedAt: s.revoke_started_at!, reason: s.revoke_reason, userId: s.revoke_user_id, userName: s.revoke_user_name, settled: true };
      try {
        if (lookup.status === 'filed') {
          if (await db.transaction().execute((trx) => restoreSigned(trx, this.system, w))) sum.restored++;
        } else if (!(await finishRevoke(db, this.system, w)).already) sum.revoked++;
        this.deps.log.info({ signingId: s.id, invoiceId: s.invoice_id, filed: lookup.status === 'filed' }, 'unfinished withdrawal settled');
      } catch (err) {
        this.deps.log.warn({ err, signingId: s.id }, 'could not settle an unfinished withdrawal; the next round tries again');
        sum.unknown++;
      }
    }
    return sum;
  }
}
