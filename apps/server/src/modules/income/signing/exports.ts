/**
 * The Excel exports of the 发票签收 lists (issue 31 #11): the waiting invoices (进项发票登记, 签收归档's
 * 待签收: the pool's columns), the signing records (签收归档's 签收记录) and the revocations (签收撤销).
 * Each takes its list's filters, refuses above a row cap, streams keyset batches (platform/xlsx.ts) and
 * is logged (exportXlsx: the file export log and the operation log).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { IncomeSignDocType, IncomeSigningState, type PoolFilter, type PoolRow, type RevokeQuery, type RevokeRow, type SigningQuery, type SigningRow } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import { refuse } from '../../../platform/envelope.js';
import { shanghaiTime } from '../../../platform/listing.js';
import { exportXlsx } from '../../syslog/fileExports.js';
import { POOL_COLUMNS } from '../pool/export.js';
import { applyPoolFilters, sumsSelect } from '../pool/filters.js';
import { keysetBatches } from '../pool/keyset.js';
import { toPoolRow } from '../pool/repo.js';
import { revokeFiltered, signingFiltered, signingSelect, toRevoke, toSigning, waitingBase } from './queries.js';

type Db = Kysely<Database>;
export const ENTRY_EXPORT_MAX_ROWS = 200_000;
const yuan = (fen: number) => fen / 100;
const known = (e: { has: (v: unknown) => boolean; label: (v: unknown) => string }, v: string) => (e.has(v) ? e.label(v) : v);
type SigningFilter = Omit<SigningQuery, 'pageIndex' | 'pageSize'>;
type RevokeFilter = Omit<RevokeQuery, 'pageIndex' | 'pageSize'>;

export const SIGNING_COLUMNS = [
  { header: '签收时间', width: 20, value: (r: SigningRow) => shanghaiTime(r.createdAt) },
  { header: '发票号码', width: 24, value: (r: SigningRow) => r.invoiceNo },
  { header: '销方名称', width: 30, value: (r: SigningRow) => r.sellerName },
  { header: '价税合计（元）', width: 14, value: (r: SigningRow) => yuan(r.amountIncl) },
  { header: '单据类型', width: 10, value: (r: SigningRow) => known(IncomeSignDocType, r.docType) },
  { header: '单据号', width: 22, value: (r: SigningRow) => r.docNo },
  { header: '状态', width: 10, value: (r: SigningRow) => known(IncomeSigningState, r.state) },
  { header: '档案号', width: 16, value: (r: SigningRow) => r.archiveNo ?? '' },
  { header: '失败原因', width: 30, value: (r: SigningRow) => r.failReason ?? '' },
  { header: '说明', width: 24, value: (r: SigningRow) => r.note ?? '' },
  { header: '签收人', width: 10, value: (r: SigningRow) => r.userName },
  { header: '完成时间', width: 20, value: (r: SigningRow) => shanghaiTime(r.finishedAt) },
];

export const REVOKE_COLUMNS = [
  { header: '档案号', width: 16, value: (r: RevokeRow) => r.archiveNo },
  { header: '发票号码', width: 24, value: (r: RevokeRow) => r.invoiceNo },
  { header: '销方名称', width: 30, value: (r: RevokeRow) => r.sellerName },
  { header: '价税合计（元）', width: 14, value: (r: RevokeRow) => yuan(r.amountIncl) },
  { header: '签收单据', width: 24, value: (r: RevokeRow) => `${known(IncomeSignDocType, r.docType)}${r.docNo ? ` ${r.docNo}` : ''}` },
  { header: '撤销原因', width: 30, value: (r: RevokeRow) => r.reason },
  { header: '撤销人', width: 10, value: (r: RevokeRow) => r.userName },
  { header: '撤销时间', width: 20, value: (r: RevokeRow) => shanghaiTime(r.createdAt) },
];

// ---------------------------------------------------------------- batches (keyset, the list's order)

export async function* waitingBatches(db: Db, f: PoolFilter, size = 1000): AsyncIterable<PoolRow[]> {
  for await (const rows of keysetBatches(() => applyPoolFilters(waitingBase(db, undefined), f, 'all'), f, size)) yield rows.map(toPoolRow);
}

export async function* signingBatches(db: Db, f: SigningFilter, size = 1000): AsyncIterable<SigningRow[]> {
  let after: { at: string; id: string } | null = null;
  for (;;) {
    let q = signingSelect(db).where('s.id', 'in', signingFiltered(db, f).select('s.id'));
    if (after) {
      const a = after;
      q = q.where(sql<boolean>`(s.created_at, s.id) < (${a.at}, ${a.id})`);
    }
    const rows = await q.orderBy('s.created_at', 'desc').orderBy('s.id', 'desc').limit(size).execute();
    if (rows.length) yield rows.map(toSigning);
    if (rows.length < size) return;
    const last = rows[rows.length - 1]!;
    after = { at: last.created_at, id: last.id };
  }
}

export async function* revokeBatches(db: Db, f: RevokeFilter, size = 1000): AsyncIterable<RevokeRow[]> {
  let after: { at: string; id: string } | null = null;
  for (;;) {
    let q = revokeFiltered(db, f);
    if (after) {
      const a = after;
      q = q.where(sql<boolean>`(r.created_at, r.id) < (${a.at}, ${a.id})`);
    }
    const rows = await q.orderBy('r.created_at', 'desc').orderBy('r.id', 'desc').limit(size).execute();
    if (rows.length) yield rows.map(toRevoke);
    if (rows.length < size) return;
    const last = rows[rows.length - 1]!;
    after = { at: last.created_at, id: last.id };
  }
}

// ---------------------------------------------------------------- the exports

function capped(count: number): void {
  if (count > ENTRY_EXPORT_MAX_ROWS) throw refuse(`筛选结果 ${count} 条，超过导出上限 ${ENTRY_EXPORT_MAX_ROWS} 条，请缩小筛选范围`);
}

/** 进项发票登记 / 签收归档 待签收: the waiting invoices of the filter. */
export async function exportWaiting(app: FastifyInstance, req: FastifyRequest, reply: FastifyReply, f: PoolFilter): Promise<FastifyReply> {
  const db = app.db.kysely;
  const count = Number((await applyPoolFilters(waitingBase(db, undefined), f, 'all').select(sumsSelect).executeTakeFirstOrThrow()).n);
  capped(count);
  const name = '待签收发票';
  return exportXlsx(app, req, reply, { fileName: name, sheetName: name, category: name, rowCount: count, description: `导出待签收发票 ${count} 条`, columns: POOL_COLUMNS, rows: waitingBatches(db, f) });
}

/** 签收归档 签收记录. */
export async function exportSignings(app: FastifyInstance, req: FastifyRequest, reply: FastifyReply, f: SigningFilter): Promise<FastifyReply> {
  const db = app.db.kysely;
  const count = Number((await signingFiltered(db, f).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);
  capped(count);
  const name = '签收记录';
  return exportXlsx(app, req, reply, { fileName: name, sheetName: name, category: name, rowCount: count, description: `导出签收记录 ${count} 条`, columns: SIGNING_COLUMNS, rows: signingBatches(db, f) });
}

/** 签收撤销. */
export async function exportRevokes(app: FastifyInstance, req: FastifyRequest, reply: FastifyReply, f: RevokeFilter): Promise<FastifyReply> {
  const db = app.db.kysely;
  const count = Number((await revokeFiltered(db, f).clearSelect().select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);
  capped(count);
  const name = '签收撤销记录';
  return exportXlsx(app, req, reply, { fileName: name, sheetName: name, category: name, rowCount: count, description: `导出签收撤销记录 ${count} 条`, columns: REVOKE_COLUMNS, rows: revokeBatches(db, f) });
}
