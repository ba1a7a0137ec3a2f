/**
 * The invoicing background job: every few seconds it asks the tax service about invoices whose next
 * poll is due (creating / signing) and about pending cancellations, and now and then refreshes
 * red-letter confirmations. (Approved 开票申请 become requests in the approval's own transaction,
 * through the workflow service's outcome event, not here.) All state is in the database,
 * so a restart loses nothing: the next tick carries on where the last one stopped. Ticks never overlap.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { CancellationService } from './cancellation.js';
import type { IssuingService } from './issuing.js';
import type { RedConfirmService } from './redconfirm.js';
import type { InvoiceSettings } from './settings.js';

export interface InvoiceJobDeps {
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
    const { log } = this.deps;
    try {
      await this.deps.issuing.poll();
      await this.deps.cancellation.refresh();
      if (Date.now() - this.lastRedRefresh >= this.redEveryMs) {
        this.lastRedRefresh = Date.now();
        await this.deps.red.refresh();
      }
    } catch (err) {
      log.warn({ err }, 'invoice job round failed; the next round retries');
    }
  }
}
