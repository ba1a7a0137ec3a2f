/**
 * Tender file exports as background jobs (tender_exports). `TenderExports.create()` queues one with its
 * items; a `TenderExportRunner` on any app server claims queued jobs and runs them one at a time:
 * it asks the job kind's resolver for the sections, assembles the PDF or zip into a temporary file with
 * progress written to the row, stores the file (ExportStorage: put → size and SHA-256), and marks the
 * job done together with its file export log row (who: the job's creator) in one transaction.
 *
 * Several servers on one database: a job runs only under its lease 'tender-export:<id>' (job_leases,
 * platform/leases.ts: one atomic upsert), renewed by a heartbeat and before each step. Each claim raises
 * the job's `attempt`, and every later write of the runner (progress, the final state) carries
 * `where attempt = <its attempt>`: a runner that stalled past its lease and woke up after another server
 * claimed the job anew writes nothing, so a job is finished once. A server that stops (or dies) mid-job
 * leaves the job running with a lease that expires; the next runner claims it then and starts it over
 * (a stop within the grace period gives the lease up at once). Jobs of a kind with no resolver registered
 * are left queued.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/index.js';
import { newId } from '../../../platform/ids.js';
import { Leases, newHolderId } from '../../../platform/leases.js';
import type { OperationLogService } from '../../../platform/oplog.js';
import { SWEEP_INTERVAL_MS } from '../../../platform/tempFiles.js';
import { nowIso } from '../../../platform/time.js';
import { fileExportActorOf, recordFileExportAs, type FileExportActor } from '../../syslog/fileExports.js';
import type { ExportStorage } from './storage.js';
import type { TenderExportFormat, TenderExportItemKind, TenderExportItemTable, TenderExportKind, TenderExportTable } from './tables.js';
import { ExportInputError, type ExportSection } from './types.js';
import { exportTempPath, sweepExportTemp } from './temp-files.js';
import { assemblePdf, assembleZip } from './assemblers.js';
import { exportFileName } from './file-name.js';
import './tables.js';


export { exportFileName };

export type TenderExportRow = TenderExportTable;
export type TenderExportItem = TenderExportItemTable;

/** The sections of a job, from its items and params (the contract and certificate areas plug theirs in). */
export type ExportResolver = (job: TenderExportRow, items: TenderExportItem[]) => Promise<ExportSection[]>;

export const EXPORT_LEASE_PREFIX = 'tender-export:';
export const EXPORT_CATEGORY = '投标文件';
export const EXPORT_PURGED_MESSAGE = '该导出文件已超过保留期，已清理，请重新生成';
const KIND_LABEL: Record<TenderExportKind, string> = { performance: '业绩文件', certificate: '证书文件' };

export interface NewTenderExport {
  kind: TenderExportKind;
  format: TenderExportFormat;
  /** The export's title (contents page, file name). */
  title: string;
  params?: Record<string, unknown>;
  items: { kind: TenderExportItemKind; id: string; label: string }[];
}

export class TenderExports {
  constructor(
    private readonly db: Db,
    private readonly storage: ExportStorage,
    private readonly oplog: OperationLogService,
  ) {}

  /** Queues an export for `actor` with its items in order; the id. */
  async create(input: NewTenderExport, actor: { id: string; name: string }): Promise<string> {
    if (!input.items.length) throw new ExportInputError('请至少选择一项');
    const id = newId();
    await this.db.kysely.transaction().execute(async (trx) => {
      await trx
        .insertInto('tender_exports')
        .values({
          id,
          kind: input.kind,
          format: input.format,
          title: input.title,
          params: JSON.stringify(input.params ?? {}),
          state: 'queued',
          progress: 0,
          step: '排队中',
          error: null,
          attempt: 0,
          file_name: exportFileName(input.title, input.format),
          storage_key: null,
          size: null,
          sha256: null,
          item_count: input.items.length,
          page_count: null,
          created_by: actor.id,
          created_by_name: actor.name,
          created_at: nowIso(),
          started_at: null,
          finished_at: null,
        })
        .execute();
      await trx
        .insertInto('tender_export_items')
        .values(input.items.map((it, i) => ({ export_id: id, position: i + 1, item_kind: it.kind, item_id: it.id, label: it.label.slice(0, 200) })))
        .execute();
    });
    return id;
  }

  get(id: string): Promise<TenderExportRow | undefined> {
    return this.db.kysely.selectFrom('tender_exports').selectAll().where('id', '=', id).executeTakeFirst();
  }

  items(id: string): Promise<TenderExportItem[]> {
    return this.db.kysely.selectFrom('tender_export_items').selectAll().where('export_id', '=', id).orderBy('position').execute();
  }

  /**
   * A finished export's file for `actor` to download, logged as a download (74) with its size and hash.
   * Refused with a Chinese message while the export is not done, and when its file was purged (done, no storage key).
   */
  async download(id: string, actor: FileExportActor): Promise<{ fileName: string; size: number; sha256: string; stream: NodeJS.ReadableStream }> {
    const job = await this.get(id);
    if (!job) throw new ExportInputError('导出记录不存在');
    if (job.state !== 'done') throw new ExportInputError(job.state === 'failed' ? '该导出已失败，没有可下载的文件' : '文件尚未生成完毕，请稍后再下载');
    // A done export without a stored file: removed after the retention period (the demo history has none).
    if (!job.storage_key) throw new ExportInputError(EXPORT_PURGED_MESSAGE);
    const stream = await this.storage.open(job.storage_key);
    await recordFileExportAs(this.db, this.oplog, actor, {
      kind: 'download',
      category: EXPORT_CATEGORY,
      description: `下载投标${KIND_LABEL[job.kind]}：${job.file_name}`,
      fileName: job.file_name,
      size: job.size,
      sha256: job.sha256,
      itemCount: job.item_count,
    });
    return { fileName: job.file_name, size: job.size ?? 0, sha256: job.sha256 ?? '', stream };
  }
}

export interface RunnerOptions {
  db: Db;
  log: FastifyBaseLogger;
  storage: ExportStorage;
  oplog: OperationLogService;
  resolvers?: Partial<Record<TenderExportKind, ExportResolver>>;
  /** How long a job's lease lasts unrenewed (a dead server's job waits this long). */
  ttlMs?: number;
  intervalMs?: number;
  /** How long stop() waits for the job in progress to reach its next step before leaving its lease to expire. */
  stopGraceMs?: number;
  holder?: string;
  tmpDir?: string;
  /** How many times a job is started at most: one whose runner died that often fails instead of being retried forever. */
  maxAttempts?: number;
}

export const EXPORT_MAX_ATTEMPTS = 3;
export const EXPORT_GAVE_UP = '导出多次中断未能完成，请重新生成';

class JobLost extends Error {
  constructor() {
    super('tender export lease lost');
  }
}

export class TenderExportRunner {
  readonly holder: string;
  private readonly leases: Leases;
  private readonly resolvers: Partial<Record<TenderExportKind, ExportResolver>>;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  private stopped = false;
  private readonly ttlMs: number;

  constructor(private readonly opts: RunnerOptions) {
    this.holder = opts.holder ?? newHolderId();
    this.leases = new Leases(opts.db);
    this.resolvers = { ...opts.resolvers };
    this.ttlMs = opts.ttlMs ?? 60_000;
  }

  /** Plugs in the sections of one kind of export. */
  register(kind: TenderExportKind, resolve: ExportResolver): void {
    this.resolvers[kind] = resolve;
  }

  start(): void {
    if (this.timer || this.stopped) return;
    let lastSweep = 0;
    const loop = () => {
      this.timer = setTimeout(() => {
        if (Date.now() - lastSweep >= SWEEP_INTERVAL_MS) {
          lastSweep = Date.now();
          void this.sweepTemp().catch((err: unknown) => this.opts.log.warn({ err }, 'tender export: could not sweep its temporary files'));
        }
        void this.tick().finally(() => {
          if (this.timer) loop();
        });
      }, this.opts.intervalMs ?? 2000);
      this.timer.unref();
    };
    loop();
  }

  /**
   * Stops: no new job is claimed, the job in progress stops at its next step and gives its lease up (it is
   * claimed anew at once elsewhere). A job stuck past the grace period keeps its lease until it expires.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const grace = new Promise<void>((resolve) => setTimeout(resolve, this.opts.stopGraceMs ?? 10_000).unref());
    await Promise.race([this.running?.catch(() => 0), grace]);
  }

  /** The sweep of assembly files left by a crash (temp-files.ts): at the first loop after start, then hourly. */
  sweepTemp(now = Date.now()): Promise<string[]> {
    return sweepExportTemp(this.opts.db, this.opts.tmpDir, now);
  }

  /** Runs queued (or abandoned) jobs until there is none this runner may take; how many it finished. Ticks never overlap. */
  tick(): Promise<number> {
    this.running ??= this.drain().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async drain(): Promise<number> {
    let done = 0;
    for (;;) {
      if (this.stopped) return done;
      const claimed = await this.claim().catch((err: unknown) => {
        this.opts.log.warn({ err }, 'tender export: could not look for work');
        return null;
      });
      if (!claimed) return done;
      if (await this.run(claimed.job, claimed.attempt)) done++;
    }
  }

  /** The oldest job of a known kind that is queued, or running under a lease that expired, taken under its lease. */
  private async claim(): Promise<{ job: TenderExportRow; attempt: number } | null> {
    const kinds = Object.keys(this.resolvers) as TenderExportKind[];
    if (!kinds.length) return null;
    const db = this.opts.db.kysely;
    const candidates = await db
      .selectFrom('tender_exports')
      .select(['id', 'attempt', 'state'])
      .where('state', 'in', ['queued', 'running'])
      .where('kind', 'in', kinds)
      .orderBy('created_at')
      .orderBy('id')
      .limit(20)
      .execute();
    for (const c of candidates) {
      const lease = EXPORT_LEASE_PREFIX + c.id;
      if (!(await this.leases.tryAcquire(lease, this.holder, this.ttlMs))) continue;
      if (c.attempt >= (this.opts.maxAttempts ?? EXPORT_MAX_ATTEMPTS)) {
        // Started that often and never finished (its runners died or stopped mid-way): fail it once, fenced like a claim.
        await db
          .updateTable('tender_exports')
          .set({ state: 'failed', step: '失败', error: EXPORT_GAVE_UP, finished_at: nowIso() })
          .where('id', '=', c.id)
          .where('attempt', '=', c.attempt)
          .where('state', 'in', ['queued', 'running'])
          .execute();
        await this.leases.release(lease, this.holder);
        continue;
      }
      // The attempt read is the fence: a claim elsewhere in between raised it and this update misses.
      const at = nowIso();
      const res = await db
        .updateTable('tender_exports')
        .set({ state: 'running', attempt: c.attempt + 1, progress: 0, step: '准备中', error: null, started_at: at })
        .where('id', '=', c.id)
        .where('attempt', '=', c.attempt)
        .where('state', 'in', ['queued', 'running'])
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) {
        await this.leases.release(lease, this.holder);
        continue;
      }
      const job = await db.selectFrom('tender_exports').selectAll().where('id', '=', c.id).executeTakeFirstOrThrow();
      return { job, attempt: c.attempt + 1 };
    }
    return null;
  }

  /** Runs one claimed job to its end (done or failed); false when the job was lost to another runner or this one stopped. */
  private async run(job: TenderExportRow, attempt: number): Promise<boolean> {
    const { db, log, storage } = this.opts;
    const lease = EXPORT_LEASE_PREFIX + job.id;
    let validUntil = Date.now() + this.ttlMs;
    let lost = false;
    const renew = async () => {
      // A stopping runner no longer renews: its lease runs out unless the job reaches a step and gives it up.
      if (this.stopped) return false;
      const at = Date.now();
      // Once our lease has expired another runner may have claimed the job: never renew past that.
      if (lost || at >= validUntil || !(await this.leases.tryAcquire(lease, this.holder, this.ttlMs, new Date(at)))) return (lost = true), false;
      validUntil = at + this.ttlMs;
      return true;
    };
    const heartbeat = setInterval(() => void renew().catch(() => undefined), Math.max(100, Math.floor(this.ttlMs / 3)));
    heartbeat.unref();
    const check = async () => {
      if (this.stopped || !(await renew())) throw new JobLost();
    };
    const fenced = () => db.kysely.updateTable('tender_exports').where('id', '=', job.id).where('attempt', '=', attempt).where('state', '=', 'running');
    let lastWrite = 0;
    let lastProgress = -1;
    const progress = async (ratio: number, step: string) => {
      await check();
      const pct = Math.max(0, Math.min(99, Math.floor(ratio * 100)));
      if (pct === lastProgress && Date.now() - lastWrite < 1000) return;
      lastProgress = pct;
      lastWrite = Date.now();
      const res = await fenced().set({ progress: pct, step: step.slice(0, 200) }).executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) throw new JobLost();
    };
    const tmp = exportTempPath(this.opts.tmpDir, job.id, attempt, job.format);
    try {
      const resolve = this.resolvers[job.kind];
      if (!resolve) throw new ExportInputError('该类导出暂不可用');
      await progress(0, '读取导出内容');
      const sections = await resolve(job, await db.kysely.selectFrom('tender_export_items').selectAll().where('export_id', '=', job.id).orderBy('position').execute());
      const params = JSON.parse(job.params) as { watermark?: string };
      const out = fs.createWriteStream(tmp);
      const closed = new Promise<void>((res, rej) => (out.once('close', res), out.once('error', rej)));
      let pageCount: number | null = null;
      try {
        if (job.format === 'pdf') pageCount = (await assemblePdf(sections, { title: job.title, watermark: params.watermark || undefined }, out, progress)).pageCount;
        else await assembleZip(sections, out, progress);
      } finally {
        if (!out.writableEnded) out.end();
        await closed.catch(() => undefined);
      }
      await check();
      const key = `tender-exports/${job.created_at.slice(0, 7)}/${job.id}-${attempt}.${job.format}`;
      const stored = await storage.put(key, fs.createReadStream(tmp));
      await check();
      const actor = await fileExportActorOf(db.kysely, job.created_by);
      const finished = await db.kysely.transaction().execute(async (trx) => {
        const res = await trx
          .updateTable('tender_exports')
          .set({ state: 'done', progress: 100, step: '完成', storage_key: key, size: stored.size, sha256: stored.sha256, page_count: pageCount, finished_at: nowIso() })
          .where('id', '=', job.id)
          .where('attempt', '=', attempt)
          .where('state', '=', 'running')
          .executeTakeFirst();
        if (Number(res.numUpdatedRows) !== 1) return false;
        await recordFileExportAs(
          db,
          this.opts.oplog,
          actor,
          {
            kind: 'export',
            category: EXPORT_CATEGORY,
            description: `导出投标${KIND_LABEL[job.kind]}：${job.file_name}（${job.item_count} 项${pageCount ? `，${pageCount} 页` : ''}）`,
            fileName: job.file_name,
            size: stored.size,
            sha256: stored.sha256,
            itemCount: job.item_count,
          },
          trx,
        );
        return true;
      });
      if (!finished) throw new JobLost();
      return true;
    } catch (err) {
      if (err instanceof JobLost || lost || this.stopped) {
        log.warn({ export: job.id, attempt }, 'tender export stopped before its end; it is claimed anew');
        return false;
      }
      const message = err instanceof ExportInputError ? err.message : '导出失败：生成文件时出错，请重试';
      if (!(err instanceof ExportInputError)) log.error({ err, export: job.id }, 'tender export failed');
      else if (err.cause) log.warn({ err: err.cause, export: job.id }, `tender export refused: ${err.message}`);
      await fenced()
        .set({ state: 'failed', step: '失败', error: message.slice(0, 500), finished_at: nowIso() })
        .execute()
        .catch((e: unknown) => log.warn({ err: e, export: job.id }, 'could not mark the tender export failed'));
      return true;
    } finally {
      clearInterval(heartbeat);
      await fsp.rm(tmp, { force: true }).catch(() => undefined);
      // Done, failed or stopped: the next runner need not wait for the lease to expire (a lease another
      // runner has taken since is not ours to release: release() only deletes our own).
      await this.leases.release(lease, this.holder).catch(() => undefined);
    }
  }
}
