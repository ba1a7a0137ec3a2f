/**
 * The invoicing background job: every few seconds it turns newly approved 开票申请 into requests,
 * asks the tax service about invoices whose next poll is due (creating / signing) and about pending
 * cancellations, and now and then refreshes red-letter confirmations. All state is in the database,
 * so a restart loses nothing: the next tick carries on where the last one stopped. Ticks never overlap.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { CancellationService } from './cancellation.js';
import { importRequest, pendingRequestWorkIds } from './entry.js';
import type { IssuingService } from './issuing.js';
import type { RedConfirmService } from './redconfirm.js';
import type { InvoiceSettings } from './settings.js';

export interface InvoiceJobDeps {
  db: Kysely<Database>;
  log: FastifyBaseLogger;
  settings: InvoiceSettings;
  issuing: IssuingService;
  cancellation: CancellationService;
  red: RedConfirmService;
}

export class InvoiceJob {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private lastRedRefresh = 0;

  constructor(
    private readonly deps: InvoiceJobDeps,
    readonly intervalMs = 2000,
    private readonly redEveryMs = 5 * 60_000,
  ) {}

  get started(): boolean {
    return this.timer !== null;
  }

  start(): void {
    if (this.timer) return;
    const loop = () => {
      this.timer = setTimeout(() => {
        void this.tick().finally(() => {
          if (this.timer) loop();
        });
      }, this.intervalMs);
      this.timer.unref();
    };
    loop();
  }

  /** Stops scheduling and waits for a tick in progress. */
  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One round (tests call it directly). */
  tick(): Promise<void> {
    this.running ??= this.round().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async round(): Promise<void> {
    const { db, log } = this.deps;
    try {
      await this.importApproved();
      await this.deps.issuing.poll();
      await this.deps.cancellation.refresh();
      if (Date.now() - this.lastRedRefresh >= this.redEveryMs) {
        this.lastRedRefresh = Date.now();
        await this.deps.red.refresh();
      }
    } catch (err) {
      log.warn({ err }, 'invoice job round failed; the next round retries');
    }
    void db;
  }

  /** Approved 开票申请 not yet turned into requests (each in its own transaction). */
  async importApproved(): Promise<number> {
    const ids = await pendingRequestWorkIds(this.deps.db);
    if (!ids.length) return 0;
    const settings = await this.deps.settings.row();
    let n = 0;
    for (const workId of ids) {
      try {
        if (await this.deps.db.transaction().execute((trx) => importRequest(trx, workId, settings))) n++;
      } catch (err) {
        // Another server imported it at the same moment (unique request_work_id): nothing to do.
        this.deps.log.debug({ err, workId }, 'invoice request import skipped');
      }
    }
    return n;
  }
}
