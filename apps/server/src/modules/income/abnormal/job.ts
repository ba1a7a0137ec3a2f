/**
 * The worklist's background job (lease 'income-abnormal', one server at a time, platform/leases.ts):
 * every minute it settles the 进项转出 vouchers left pending — by a failed push, or by a push cut short by a
 * crash (due by next_try_at, the lease checked before each): it asks the accounting side by the record's id
 * whether the voucher arrived, records it if so and pushes it otherwise (transfer.ts settleTransfer) — and hourly raises the cases of flagged invoices that have none yet
 * (a safety net for a flag set on a path that does not raise). Pushing twice is harmless: the voucher id
 * is the idempotency key at the accounting side and the record is updated with a guarded UPDATE.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/index.js';
import type { AccountingGateway } from '../../../integrations/accounting/index.js';
import { LeasedJob, type LeaseHandle } from '../../../platform/leases.js';
import { nowIso } from '../../../platform/time.js';
import { raiseAll } from './raise.js';
import { settleTransfer } from './transfer.js';

export const ABNORMAL_JOB_LEASE = 'income-abnormal';

/** The sweep for missed cases reads every flagged invoice: once in this many rounds (hourly), and in the first. */
export const SWEEP_EVERY_ROUNDS = 60;

export class AbnormalJob extends LeasedJob {
  private rounds = 0;

  constructor(
    private readonly deps: { db: Db; log: FastifyBaseLogger; gateway: () => AccountingGateway },
    intervalMs = 60_000,
  ) {
    super({ db: deps.db, log: deps.log, name: ABNORMAL_JOB_LEASE, intervalMs, ttlMs: 120_000, round: (lease) => this.work(lease) });
  }

  private async work(lease: LeaseHandle): Promise<void> {
    const db = this.deps.db.kysely;
    const due = await db.selectFrom('income_transfer_outs').select('id').where('state', '=', 'pending').where('next_try_at', '<=', nowIso()).orderBy('next_try_at').limit(100).execute();
    for (const { id } of due) {
      await lease.check();
      const t = await settleTransfer(db, this.deps.gateway(), id);
      this.deps.log.info({ transferOut: id, state: t.state, attempts: t.attempts }, 'income transfer-out push');
    }
    if (this.rounds++ % SWEEP_EVERY_ROUNDS !== 0) return;
    await lease.check();
    const raised = await raiseAll(db);
    if (raised) this.deps.log.info({ raised }, 'income abnormal cases raised by the sweep');
  }
}
