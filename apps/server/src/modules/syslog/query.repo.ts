/** SQL of the log screens: operation log and integrated sync log, filtered and paged. */
import type { Kysely } from 'kysely';
import type { OperationLogQuery, OperationLogRow, SyncLogDetail, SyncLogQuery, SyncLogRow } from '@zhyy/shared';
import type { Database } from '../../db/schema.js';
import { contains, offsetOf, sortOf } from '../../platform/listing.js';

type Db = Kysely<Database>;
type OpFilter = Partial<Omit<OperationLogQuery, 'pageIndex' | 'pageSize' | 'sort'>>;
type SyncFilter = Partial<Omit<SyncLogQuery, 'pageIndex' | 'pageSize' | 'sort'>>;

function operations(db: Db, f: OpFilter) {
  let q = db.selectFrom('operation_logs as o');
  if (f.from) q = q.where('o.created_at', '>=', f.from);
  if (f.to) q = q.where('o.created_at', '<', f.to);
  if (f.type !== undefined) q = q.where('o.type', '=', f.type);
  if (f.user) {
    const k = f.user;
    q = q.where(({ or, eb, ref }) => or([eb('o.login_name', '=', k.toLowerCase()), contains(ref('o.user_name'), k), contains(ref('o.login_name'), k)]));
  }
  if (f.text) q = q.where(({ ref }) => contains(ref('o.description'), f.text!));
  return q;
}

export async function countOperations(db: Db, f: OpFilter): Promise<number> {
  return Number((await operations(db, f).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
}

export async function listOperations(db: Db, f: OperationLogQuery, offset: number, limit: number): Promise<OperationLogRow[]> {
  const s = sortOf(f.sort, { createdAt: 'o.created_at', type: 'o.type', loginName: 'o.login_name' }, { column: 'o.created_at', order: 'desc' });
  const rows = await operations(db, f)
    .select(['o.id', 'o.user_id', 'o.login_name', 'o.user_name', 'o.type', 'o.description', 'o.ip', 'o.client_reported', 'o.created_at'])
    .orderBy(s.column as 'o.created_at', s.order)
    .orderBy('o.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map((o) => ({ id: o.id, userId: o.user_id, loginName: o.login_name, userName: o.user_name, type: o.type, description: o.description, ip: o.ip, clientReported: o.client_reported === 1, createdAt: o.created_at }));
}

function syncs(db: Db, f: SyncFilter) {
  let q = db.selectFrom('sync_logs as s').leftJoin('users as u', 'u.id', 's.user_id');
  if (f.from) q = q.where('s.created_at', '>=', f.from);
  if (f.to) q = q.where('s.created_at', '<', f.to);
  if (f.system !== undefined) q = q.where('s.system', '=', f.system);
  if (f.status !== undefined) q = q.where('s.status', '=', f.status);
  if (f.type) q = q.where(({ ref }) => contains(ref('s.type'), f.type!));
  if (f.text) q = q.where(({ ref }) => contains(ref('s.memo'), f.text!));
  return q;
}

export async function countSync(db: Db, f: SyncFilter): Promise<number> {
  return Number((await syncs(db, f).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
}

const SYNC_COLUMNS = ['s.id', 's.system', 's.type', 's.status', 's.memo', 's.duration_ms', 'u.name as user_name', 's.client_reported', 's.created_at'] as const;

type SyncRecord = { id: string; system: number; type: string; status: number; memo: string; duration_ms: number | null; user_name: string | null; client_reported?: number; created_at: string };
const toSyncRow = (s: SyncRecord, memoMax = 300): SyncLogRow => ({
  id: s.id,
  system: s.system,
  type: s.type,
  status: s.status,
  memo: s.memo.length > memoMax ? `${s.memo.slice(0, memoMax)}…` : s.memo,
  durationMs: s.duration_ms,
  userName: s.user_name ?? '',
  clientReported: s.client_reported === 1,
  createdAt: s.created_at,
});

export async function listSync(db: Db, q: SyncLogQuery): Promise<SyncLogRow[]> {
  const s = sortOf(q.sort, { createdAt: 's.created_at', status: 's.status', durationMs: 's.duration_ms' }, { column: 's.created_at', order: 'desc' });
  const rows = await syncs(db, q)
    .select(SYNC_COLUMNS)
    .orderBy(s.column as 's.created_at', s.order)
    .orderBy('s.id', 'desc')
    .limit(q.pageSize)
    .offset(offsetOf(q))
    .execute();
  return rows.map((r) => toSyncRow(r));
}

export async function syncDetail(db: Db, id: string): Promise<SyncLogDetail | undefined> {
  const row = await db
    .selectFrom('sync_logs as s')
    .leftJoin('users as u', 'u.id', 's.user_id')
    .select([...SYNC_COLUMNS, 's.request', 's.response'])
    .where('s.id', '=', id)
    .executeTakeFirst();
  return row ? { ...toSyncRow(row, Number.MAX_SAFE_INTEGER), request: row.request, response: row.response } : undefined;
}
