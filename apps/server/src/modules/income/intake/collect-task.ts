/**
 * 采集 on demand as a background task (issue 13). `start()` checks the window, takes the 'income' lease
 * (the one the scheduled IncomeJob takes for its rounds: the two never collect at once, on any number of
 * app servers) and answers at once with the task; the collection runs after the answer, one transaction
 * per invoice as before (collectWindow), and writes its counts to `income_collect_tasks` every few
 * invoices, so `/collect-progress` on any server reads them. A second start while the lease is held
 * (by a task or a job round) is refused with 已有采集任务正在进行，请稍后.
 *
 * A task ends done (the collectMessage sentence), failed (the tax service's message) or interrupted (its
 * lease was lost, or the server stopped). A server that died mid-task cannot say so: a running task whose
 * holder no longer holds a live lease is marked interrupted when read, and at start-up.
 */
import { CollectMessages, CollectTaskState, type CollectResult, type CollectTask } from '@zhyy/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/index.js';
import { checkCollectQuery } from '../../../integrations/tax/income-rules.js';
import { AppError, conflict, notFound } from '../../../platform/envelope.js';
import { newId } from '../../../platform/ids.js';
import { LeasedJob, LeaseLost, newHolderId, type LeaseHandle } from '../../../platform/leases.js';
import { nowIso } from '../../../platform/time.js';
import type { InvoiceSettings } from '../../invoice/settings/service.js';
import { collectMessage, collectWindow } from './collect.js';
import type { IncomeCollectTaskTable } from '../pool/tables.js';
import { INCOME_JOB_LEASE, INCOME_JOB_TTL_MS } from './job.js';

/** Stops a task from inside its progress callback (the server is stopping). */
class Stopped extends Error {}

export function interruptedMessage(r: Pick<CollectResult, 'created' | 'merged'>, seen: number): string {
  return `采集已中断：已处理 ${seen} 张（新增 ${r.created} 张，合并 ${r.merged} 张），请重新采集该区间`;
}

export function taskView(row: IncomeCollectTaskTable): CollectTask {
  return {
    taskId: row.id,
    from: row.from_day,
    to: row.to_day,
    state: row.state,
    stateLabel: CollectTaskState.label(row.state),
    finished: row.state !== CollectTaskState.running,
    pages: row.pages,
    total: row.total,
    seen: row.seen,
    created: row.created,
    merged: row.merged,
    flagged: row.flagged,
    stateChanged: row.state_changed,
    failed: row.failed,
    failures: JSON.parse(row.failures) as string[],
    message: row.message,
    userName: row.user_name,
    startedAt: row.created_at,
    finishedAt: row.finished_at,
  };
}

export class CollectTasks {
  /** Tasks running on this server: id → stop flag and the run's promise. */
  private readonly running = new Map<string, { stop: boolean; done: Promise<unknown> }>();
  private stopped = false;

  constructor(
    private readonly deps: { db: Db; log: FastifyBaseLogger; settings: InvoiceSettings },
    private readonly ttlMs = INCOME_JOB_TTL_MS,
  ) {}

  /** Starts a task for `from`–`to` (checked first, with the tax rules' messages); refused while another collects. */
  async start(from: string, to: string, user: { id: string | null; name: string }): Promise<CollectTask> {
    checkCollectQuery({ from, to });
    if (this.stopped) throw conflict(CollectMessages.busy);
    const holder = newHolderId();
    const id = newId();
    let answer!: (r: { row?: IncomeCollectTaskTable; err?: unknown }) => void;
    const begun = new Promise<{ row?: IncomeCollectTaskTable; err?: unknown }>((res) => (answer = res));
    const entry = { stop: this.stopped, done: Promise.resolve() as Promise<unknown> };
    const job = new LeasedJob({
      db: this.deps.db,
      log: this.deps.log,
      name: INCOME_JOB_LEASE,
      intervalMs: 0,
      ttlMs: this.ttlMs,
      holder,
      releaseAfterRound: true,
      round: async (lease) => {
        let row: IncomeCollectTaskTable;
        try {
          const at = nowIso();
          row = { id, from_day: from, to_day: to, state: CollectTaskState.running, holder, pages: 0, total: 0, seen: 0, created: 0, merged: 0, flagged: 0, state_changed: 0, failed: 0, failures: '[]', message: '', user_id: user.id, user_name: user.name, created_at: at, updated_at: at, finished_at: null };
          await this.deps.db.kysely.insertInto('income_collect_tasks').values(row).execute();
        } catch (err) {
          answer({ err });
          return;
        }
        answer({ row });
        await this.run(row, lease, entry);
      },
    });
    this.running.set(id, entry);
    entry.done = job
      .tick()
      .then((ran) => {
        if (!ran) answer({});
      })
      .finally(() => this.running.delete(id));
    const r = await begun;
    if (r.err) throw r.err;
    if (!r.row) throw conflict(CollectMessages.busy);
    return taskView(r.row);
  }

  private async run(row: IncomeCollectTaskTable, lease: LeaseHandle, entry: { stop: boolean }): Promise<void> {
    const db = this.deps.db.kysely;
    let last: CollectResult = { from: row.from_day, to: row.to_day, total: 0, created: 0, merged: 0, flagged: 0, stateChanged: 0, failed: 0, failures: [] };
    let seen = 0;
    const save = (r: CollectResult, extra: Partial<IncomeCollectTaskTable>) =>
      db
        .updateTable('income_collect_tasks')
        .set({ total: r.total, seen, created: r.created, merged: r.merged, flagged: r.flagged, state_changed: r.stateChanged, failed: r.failed, failures: JSON.stringify(r.failures), updated_at: nowIso(), ...extra })
        .where('id', '=', row.id)
        .execute();
    try {
      const r = await collectWindow(db, await this.deps.settings.gateway(), row.from_day, row.to_day, {
        ctx: { userId: row.user_id, userName: row.user_name },
        beforePage: async () => {
          if (entry.stop) throw new Stopped();
          await lease.check();
        },
        onProgress: async (p, at) => {
          last = p;
          seen = at.seen;
          if (entry.stop) throw new Stopped();
          await save(p, { pages: at.pages });
        },
      });
      last = r;
      await save(r, { state: CollectTaskState.done, message: collectMessage(r), finished_at: nowIso() });
    } catch (err) {
      const stopped = err instanceof Stopped || err instanceof LeaseLost;
      if (!stopped) this.deps.log.warn({ err, task: row.id }, 'income collection task failed');
      const message = stopped ? interruptedMessage(last, seen) : err instanceof AppError ? `采集失败：${err.message}` : '采集失败：系统错误，请稍后重试';
      await save(last, { state: stopped ? CollectTaskState.interrupted : CollectTaskState.failed, message, finished_at: nowIso() }).catch((e: unknown) => this.deps.log.warn({ err: e, task: row.id }, 'could not record the end of a collection task'));
    }
  }

  /** A task's progress; a running one whose server no longer holds the lease is marked interrupted first. */
  async progress(id: string): Promise<CollectTask> {
    const db = this.deps.db.kysely;
    let row = await db.selectFrom('income_collect_tasks').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound(CollectMessages.notFound);
    if (row.state === CollectTaskState.running && !this.running.has(id) && !(await this.leaseLive(row.holder))) {
      await this.markInterrupted(row);
      row = await db.selectFrom('income_collect_tasks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    }
    return taskView(row);
  }

  /** At start-up (and when read): running tasks whose holder lost its lease are interrupted. */
  async sweep(): Promise<number> {
    const rows = await this.deps.db.kysely.selectFrom('income_collect_tasks').selectAll().where('state', '=', CollectTaskState.running).execute();
    let n = 0;
    for (const row of rows) if (!this.running.has(row.id) && !(await this.leaseLive(row.holder))) n += (await this.markInterrupted(row)) ? 1 : 0;
    return n;
  }

  /** Stops this server's tasks (each ends interrupted at its next step) and waits for them. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const e of this.running.values()) e.stop = true;
    await Promise.all([...this.running.values()].map((e) => e.done.catch(() => undefined)));
  }

  /** Whether stop() was called (the server is closing). */
  get stopping(): boolean {
    return this.stopped;
  }

  private async leaseLive(holder: string): Promise<boolean> {
    const lease = await this.deps.db.kysely.selectFrom('job_leases').select(['holder', 'expires_at']).where('name', '=', INCOME_JOB_LEASE).executeTakeFirst();
    return !!lease && lease.holder === holder && lease.expires_at > nowIso();
  }

  private async markInterrupted(row: IncomeCollectTaskTable): Promise<boolean> {
    const at = nowIso();
    const r = await this.deps.db.kysely
      .updateTable('income_collect_tasks')
      .set({ state: CollectTaskState.interrupted, message: interruptedMessage({ created: row.created, merged: row.merged }, row.seen), finished_at: at, updated_at: at })
      .where('id', '=', row.id)
      .where('state', '=', CollectTaskState.running)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }
}
