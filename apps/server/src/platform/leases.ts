/**
 * Background work with several app servers on one database: a job runs only on the server that holds
 * its lease (a `job_leases` row: name, holder, expires_at). Taking or renewing a lease is one atomic
 * upsert, so two servers can never both get it; a server that crashes stops renewing, and another one
 * takes the job over once the lease has expired. See docs/architecture.md "Background jobs".
 *
 * - `Leases`: tryAcquire / release, the primitive.
 * - `LeasedJob`: a periodic job built on it — ticks never overlap, a round runs only while the lease is
 *   held (renewed at the start of each round, by a heartbeat during it, and by `lease.check()` before
 *   each step), and stopping releases the lease.
 */
import crypto from 'node:crypto';
import os from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/index.js';
import { isoAfter } from './time.js';

/** A holder id unique to this process and job instance: host, pid and a random part. */
export const newHolderId = () => `${os.hostname()}:${process.pid}:${crypto.randomBytes(4).toString('hex')}`;

export class Leases {
  constructor(private readonly db: Db) {}

  /**
   * Takes `name` for `holder` until now + ttl, or renews it when `holder` has it already; true when
   * `holder` holds it afterwards. Refused (false) while another holder's lease has not expired.
   */
  async tryAcquire(name: string, holder: string, ttlMs: number, now: Date = new Date()): Promise<boolean> {
    const at = now.toISOString();
    const expires = isoAfter(ttlMs, now);
    const row = await this.db.kysely
      .insertInto('job_leases')
      .values({ name, holder, acquired_at: at, expires_at: expires })
      .onConflict((oc) =>
        oc
          .column('name')
          .doUpdateSet((eb) => ({
            holder,
            expires_at: expires,
            // A renewal keeps the time the lease was first taken.
            acquired_at: eb.case().when('job_leases.holder', '=', holder).then(eb.ref('job_leases.acquired_at')).else(at).end(),
          }))
          .where((eb) => eb.or([eb('job_leases.expires_at', '<', at), eb('job_leases.holder', '=', holder)])),
      )
      .returning('holder')
      .executeTakeFirst();
    return row?.holder === holder;
  }

  /** Gives the lease up (only when `holder` has it), so another server may take it at once. */
  async release(name: string, holder: string): Promise<void> {
    await this.db.kysely.deleteFrom('job_leases').where('name', '=', name).where('holder', '=', holder).execute();
  }

  /** The current holder and expiry (for logs and tests). */
  async current(name: string): Promise<{ holder: string; expires_at: string } | undefined> {
    return this.db.kysely.selectFrom('job_leases').select(['holder', 'expires_at']).where('name', '=', name).executeTakeFirst();
  }
}

/** Thrown by `lease.check()` when the lease was lost during a round; the round stops there. */
export class LeaseLost extends Error {
  constructor(name: string) {
    super(`lease ${name} lost`);
  }
}

export interface LeaseHandle {
  /** Renews the lease; throws LeaseLost when it was lost (expired before renewal, or taken). Call before each step. */
  check(): Promise<void>;
}

export interface LeasedJobOptions {
  db: Db;
  log: FastifyBaseLogger;
  /** The lease's name: one per kind of background work ('invoice', …). */
  name: string;
  /** One round of work; call `lease.check()` before each step that talks to the outside. */
  round: (lease: LeaseHandle) => Promise<void>;
  intervalMs: number;
  /** How long a lease lasts without renewal: well above any single step (a crashed server's work waits this long). */
  ttlMs: number;
  holder?: string;
  /**
   * Give the lease up after each round instead of letting it expire (a job whose lease is shared with
   * other work, e.g. the income job and 采集 on demand, must not block it between rounds).
   */
  releaseAfterRound?: boolean;
}

/**
 * A periodic background job that runs on one server at a time. `start()` ticks every intervalMs;
 * `tick()` runs one round now (tests call it); `stop()` stops ticking, waits for a round in progress
 * and releases the lease.
 */
export class LeasedJob {
  readonly holder: string;
  readonly leases: Leases;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<boolean> | null = null;

  constructor(private readonly opts: LeasedJobOptions) {
    this.holder = opts.holder ?? newHolderId();
    this.leases = new Leases(opts.db);
  }

  get name(): string {
    return this.opts.name;
  }

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
      }, this.opts.intervalMs);
      this.timer.unref();
    };
    loop();
  }

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
    try {
      await this.leases.release(this.opts.name, this.holder);
    } catch (err) {
      this.opts.log.warn({ err, lease: this.opts.name }, 'could not release the job lease; it expires by itself');
    }
  }

  /** One round now if this server holds (or can take) the lease; true when it ran. Ticks never overlap. */
  tick(): Promise<boolean> {
    this.running ??= this.round().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async round(): Promise<boolean> {
    const { name, ttlMs, log } = this.opts;
    let validUntil = 0;
    let lost = false;
    // Renew only while our own lease is still valid: once it has expired, another server may have run
    // in between, so this round must not go on even if the row is free again.
    const renew = async () => {
      const at = Date.now();
      if (lost || (validUntil && at >= validUntil)) return (lost = true), false;
      if (!(await this.leases.tryAcquire(name, this.holder, ttlMs, new Date(at)))) return (lost = true), false;
      validUntil = at + ttlMs;
      return true;
    };
    try {
      if (!(await renew())) return false;
    } catch (err) {
      log.warn({ err, lease: name }, 'could not take the job lease; the next round retries');
      return false;
    }
    const heartbeat = setInterval(() => void renew().catch(() => undefined), Math.max(1000, Math.floor(ttlMs / 3)));
    heartbeat.unref();
    const lease: LeaseHandle = {
      check: async () => {
        if (!(await renew())) throw new LeaseLost(name);
      },
    };
    try {
      await this.opts.round(lease);
    } catch (err) {
      if (err instanceof LeaseLost) log.warn({ lease: name }, 'job lease lost during a round; another server carries on');
      else log.warn({ err, lease: name }, 'job round failed; the next round retries');
    } finally {
      clearInterval(heartbeat);
      if (this.opts.releaseAfterRound && !lost) await this.leases.release(name, this.holder).catch((err: unknown) => log.warn({ err, lease: name }, 'could not release the job lease; it expires by itself'));
    }
    return true;
  }
}
