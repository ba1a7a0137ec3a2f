/**
 * The booking-flag retry job (入账标识): every minute the server holding the 'income-booking' lease sends the
 * deliveries that are due (pending, their next attempt passed, no live attempt holding them), at most
 * BOOKING_JOB_BATCH a round, oldest first, through deliver.ts — whose guarded claim keeps a delivery from
 * being sent twice even when a request's immediate attempt or 立即重试 on another server runs at the same time.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/index.js';
import type { IncomeBookingGateway } from '../../../integrations/tax/income-types.js';
import { LeasedJob, type LeaseHandle } from '../../../platform/leases.js';
import { deliver, dueDeliveries, type DeliveryStatus } from './deliver.js';

export const BOOKING_JOB_LEASE = 'income-booking';
export const BOOKING_JOB_TTL_MS = 120_000;
export const BOOKING_JOB_INTERVAL_MS = 60_000;
export const BOOKING_JOB_BATCH = 200;

export interface BookingJobOptions {
  intervalMs?: number;
  holder?: string;
  /** The clock the due times are compared with (tests move it forward). */
  now?: () => Date;
}

export class BookingJob extends LeasedJob {
  private readonly now: () => Date;
  /** What the last round sent (tests read it). */
  last = new Map<string, DeliveryStatus>();

  constructor(
    private readonly deps: { db: Db; log: FastifyBaseLogger; gateway: () => Promise<IncomeBookingGateway> },
    opts: BookingJobOptions = {},
  ) {
    super({ db: deps.db, log: deps.log, name: BOOKING_JOB_LEASE, intervalMs: opts.intervalMs ?? BOOKING_JOB_INTERVAL_MS, ttlMs: BOOKING_JOB_TTL_MS, round: (lease) => this.sendDue(lease), ...(opts.holder ? { holder: opts.holder } : {}) });
    this.now = opts.now ?? (() => new Date());
  }

  private async sendDue(lease: LeaseHandle): Promise<void> {
    const now = this.now();
    const ids = await dueDeliveries(this.deps.db.kysely, now, BOOKING_JOB_BATCH);
    this.last = new Map();
    if (!ids.length) return;
    await lease.check();
    this.last = await deliver(this.deps.db.kysely, await this.deps.gateway(), ids, { holder: this.holder, userId: null, now });
    const count = (s: string) => [...this.last.values()].filter((v) => v.status === s).length;
    this.deps.log.info({ due: ids.length, sent: count('sent'), pending: count('pending'), failed: count('failed') }, 'booking flags delivered');
  }
}
