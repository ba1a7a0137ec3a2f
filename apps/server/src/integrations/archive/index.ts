/**
 * The archive gateway's entry point: `createArchiveGateway({ db, synclog }, archiveConfigFromEnv())`.
 * ARCHIVE_MODE=simulator (default) or http; http needs ARCHIVE_BASE_URL, ARCHIVE_APP_KEY and
 * ARCHIVE_APP_SECRET (ARCHIVE_TIMEOUT_MS, default 15000); ARCHIVE_SIM_DELAY_MS delays simulator
 * answers (default 0). Every exchange is one integrated sync log row (system 2 财务系统) through
 * `synclog.track`, written before the call, with the invoice key and document number as refs (the
 * archive number for a revocation). The simulator keeps what it filed in the database (`db`).
 */
import { SyncSystem } from '@zhyy/shared';
import type { Db } from '../../db/index.js';
import type { SyncLogService } from '../../platform/synclog.js';
import { ArchiveHttpClient } from './client.js';
import { ArchiveSimulator } from './simulator.js';
import { ArchiveMethods, type ArchiveCallContext, type ArchiveConfig, type ArchiveGateway, type ArchiveLookup, type ArchiveQuery, type ArchiveRequest, type ArchiveRevokeRequest } from './types.js';

export * from './types.js';
export { ARCHIVE_FAIL_TRIGGER, ARCHIVE_SIM_REFUSAL } from './simulator.js';

/** Reads the configuration from the environment; throws (at start-up) on an incomplete http setup. */
export function archiveConfigFromEnv(env: NodeJS.ProcessEnv = process.env): ArchiveConfig {
  const mode = (env.ARCHIVE_MODE || 'simulator').trim();
  if (mode !== 'simulator' && mode !== 'http') throw new Error(`ARCHIVE_MODE must be simulator or http, not ${mode}`);
  const num = (v: string | undefined, d: number) => (v && /^\d+$/.test(v) ? Number(v) : d);
  if (mode === 'simulator') return { mode, delayMs: num(env.ARCHIVE_SIM_DELAY_MS, 0) };
  const missing = ['ARCHIVE_BASE_URL', 'ARCHIVE_APP_KEY', 'ARCHIVE_APP_SECRET'].filter((k) => !env[k]);
  if (missing.length) throw new Error(`ARCHIVE_MODE=http needs ${missing.join(', ')}`);
  return { mode, baseUrl: env.ARCHIVE_BASE_URL!, appKey: env.ARCHIVE_APP_KEY!, appSecret: env.ARCHIVE_APP_SECRET!, timeoutMs: num(env.ARCHIVE_TIMEOUT_MS, 15_000) };
}

export interface ArchiveDeps {
  /** The simulator's own table (archivesim_filings). */
  db: Db;
  synclog: SyncLogService;
  fetch?: typeof fetch;
}

export function createArchiveGateway(deps: ArchiveDeps, config: ArchiveConfig): ArchiveGateway {
  const impl =
    config.mode === 'http'
      ? new ArchiveHttpClient({ baseUrl: config.baseUrl!, appKey: config.appKey!, appSecret: config.appSecret!, timeoutMs: config.timeoutMs ?? 15_000 }, deps.fetch ?? fetch)
      : new ArchiveSimulator(deps.db, config.delayMs ?? 0);
  const system = SyncSystem.accounting;
  return {
    mode: config.mode,
    archive: (req: ArchiveRequest, ctx: ArchiveCallContext = {}) =>
      deps.synclog.track({ system, type: ArchiveMethods.archive, request: req, userId: ctx.userId ?? null, refs: [req.invoiceKey, req.docNo] }, () => impl.archive(req), (a) => `发票 ${req.invoiceNo} 签收归档成功，凭证号 ${a.voucherId}`),
    revoke: (req: ArchiveRevokeRequest, ctx: ArchiveCallContext = {}) =>
      deps.synclog.track({ system, type: ArchiveMethods.revoke, request: req, userId: ctx.userId ?? null, refs: [req.invoiceKey, req.archiveNo] }, () => impl.revoke(req), () => `档案号 ${req.archiveNo} 撤销归档成功`),
    query: (req: ArchiveQuery, ctx: ArchiveCallContext = {}) =>
      deps.synclog.track({ system, type: ArchiveMethods.query, request: req, userId: ctx.userId ?? null, refs: [req.invoiceKey, req.docNo] }, () => impl.query(req), (a) => lookupMemo(req, a)),
  };
}

function lookupMemo(req: ArchiveQuery, a: ArchiveLookup): string {
  const what = `签收核对（单据 ${req.docNo}）`;
  if (a.status === 'filed') return `${what}：档案系统已归档，凭证号 ${a.voucherId}`;
  if (a.status === 'notFiled') return `${what}：档案系统无该签收的归档（未收到或已撤销）`;
  return `${what}：档案系统暂无结论（${a.message}），下一轮再核对`;
}
