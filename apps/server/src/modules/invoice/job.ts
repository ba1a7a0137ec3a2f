/**
 * The invoicing background job: every few seconds it asks the tax service about invoices whose next
 * poll is due (creating / signing) and about pending cancellations, settles red-letter applications cut
 * short by a crash, and now and then refreshes red-letter confirmations. (Approved 开票申请 become requests in the approval's own transaction,
 * through the workflow service's outcome event, not here.) All state is in the database,
 * so a restart loses nothing: the next tick carries on where the last one stopped. Ticks never overlap,
 * and with several app servers only the one holding the 'invoice' lease runs a round (platform/leases.ts),
 * so each due invoice is asked about once per poll.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/index.js';
import { LeasedJob, type LeaseHandle } from '../../platform/leases.js';
import type { CancellationService } from './cancellation/service.js';
import type { IssuingService } from './issuing/service.js';
import type { RedConfirmService } from './redletter/service.js';
import type { InvoiceSettings } from './settings/service.js';

export interface InvoiceJobDeps {
  db: Db;
  log: FastifyBaseLogger;
  settings: InvoiceSettings;
  issuing: IssuingService;
  cancellation: CancellationService;
  red: RedConfirmService;
}

/** The lease's name, and how long it lasts unrenewed: far above one step (a tax call times out well before). */
export const INVOICE_JOB_LEASE = 'invoice';
export const INVOICE_JOB_TTL_MS = 60_000;

export class InvoiceJob extends LeasedJob {
  private lastRedRefresh = 0;

  constructor(
    private readonly deps: InvoiceJobDeps,
    readonly intervalMs = 2000,
    private readonly redEveryMs = 5 * 60_000,
  ) {
    super({ db: deps.db, log: deps.log, name: INVOICE_JOB_LEASE, intervalMs, ttlMs: INVOICE_JOB_TTL_MS, round: (lease) => this.steps(lease) });
  }

  private async steps(lease: LeaseHandle): Promise<void> {
    // Each step checks the lease just before it calls out (an idle round writes only the renewal).
    const stillOurs = () => lease.check();
    await this.deps.issuing.poll({ stillOurs });
    await this.deps.cancellation.refresh(undefined, null, stillOurs);
    // A 红字确认单 just submitted is asked about within seconds, then less often (as issuing does).
    await this.deps.red.pollDue(undefined, stillOurs);
    // An application cut short by a crash (申请中 with no answer recorded) is asked about by our bill number.
    await this.deps.red.settleApplying(stillOurs);
    if (Date.now() - this.lastRedRefresh >= this.redEveryMs) {
      await lease.check();
      this.lastRedRefresh = Date.now();
      await this.deps.red.refresh();
    }
  }
}
