/**
 * The collection job (采集, issue 13): every ten minutes the server holding the 'income' lease collects
 * the tax digital account's incoming invoices from the last collected day through today (Asia/Shanghai),
 * in windows of at most 366 days, and moves the cursor (`income_collect_cursor`) to the end of each
 * window collected. Without a cursor it starts at the first day of the previous month. The last day is
 * collected again next time (invoices keep arriving through the day); known invoices with an unchanged
 * state are left alone, new ones arrive, changed ones are updated. With several servers only the lease
 * holder runs a round (platform/leases.ts); the lease is checked before each page.
 */
import { SYSTEM_ACTOR_NAME } from '@zhyy/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/index.js';
import { dayNumber, dayOf, MAX_WINDOW_DAYS } from '../../../integrations/tax/income-rules.js';
import { shanghaiDay } from '../../../platform/listing.js';
import { LeasedJob, type LeaseHandle } from '../../../platform/leases.js';
import { nowIso } from '../../../platform/time.js';
import type { InvoiceSettings } from '../../invoice/settings/service.js';
import { collectWindow } from './collect.js';
import '../pool/tables.js';

export const INCOME_JOB_LEASE = 'income';
export const INCOME_JOB_TTL_MS = 120_000;
export const INCOME_JOB_INTERVAL_MS = 10 * 60_000;
export const CURSOR = 'tax-account';

/** The first day of the month before `today`'s. */
export function defaultStart(today: string): string {
  const [y, m] = today.split('-').map(Number) as [number, number];
  return m === 1 ? `${y - 1}-12-01` : `${y}-${String(m - 1).padStart(2, '0')}-01`;
}

/** The windows from `from` through `to`, each at most 366 days. */
export function windows(from: string, to: string): Array<{ from: string; to: string }> {
  const out: Array<{ from: string; to: string }> = [];
  for (let d = dayNumber(from); d <= dayNumber(to); d += MAX_WINDOW_DAYS) out.push({ from: dayOf(d), to: dayOf(Math.min(d + MAX_WINDOW_DAYS - 1, dayNumber(to))) });
  return out;
}

export class IncomeJob extends LeasedJob {
  constructor(
    private readonly deps: { db: Db; log: FastifyBaseLogger; settings: InvoiceSettings },
    intervalMs = INCOME_JOB_INTERVAL_MS,
    private readonly today: () => string = () => shanghaiDay(),
  ) {
    // The lease is released after each round: 采集 on demand (collect-task.ts) takes the same lease, so the
    // two never collect at once, and a finished round must not keep the on-demand task waiting.
    super({ db: deps.db, log: deps.log, name: INCOME_JOB_LEASE, intervalMs, ttlMs: INCOME_JOB_TTL_MS, releaseAfterRound: true, round: (lease) => this.collect(lease) });
  }

  /** The last day collected, or null before the first round. */
  async cursor(): Promise<string | null> {
    const row = await this.deps.db.kysely.selectFrom('income_collect_cursor').select('last_day').where('name', '=', CURSOR).executeTakeFirst();
    return row?.last_day ?? null;
  }

  private async collect(lease: LeaseHandle): Promise<void> {
    const db = this.deps.db.kysely;
    const today = this.today();
    const from = (await this.cursor()) ?? defaultStart(today);
    if (from > today) return;
    const gateway = await this.deps.settings.gateway();
    for (const w of windows(from, today)) {
      const r = await collectWindow(db, gateway, w.from, w.to, { ctx: { userId: null, userName: SYSTEM_ACTOR_NAME }, beforePage: () => lease.check(), skipKnown: true });
      await lease.check();
      const at = nowIso();
      await db
        .insertInto('income_collect_cursor')
        .values({ name: CURSOR, last_day: w.to, updated_at: at })
        .onConflict((oc) => oc.column('name').doUpdateSet({ last_day: w.to, updated_at: at }))
        .execute();
      this.deps.log.info({ window: w, created: r.created, stateChanged: r.stateChanged, failed: r.failed, customsError: r.customsError ?? null }, 'income collection');
    }
  }
}
