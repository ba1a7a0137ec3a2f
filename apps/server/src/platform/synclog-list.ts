/**
 * Reading one outside system's rows of the integrated sync log (sync_logs): filtered by the business keys
 * the gateway indexed each exchange with (sync_log_refs), method, status and time, sorted and paged. The
 * invoicing sync log (invoice/queries.ts, the tax service) and the reimbursement sync log
 * (reimbursement/accounting, the accounting system) both read through it.
 */
import type { Kysely } from 'kysely';
import type { PageQuery } from '@zhyy/shared';
import type { Database } from '../db/schema.js';
import { contains, offsetOf, sortOf } from './listing.js';

export interface SyncExchangeFilter extends PageQuery {
  method?: string;
  status?: 0 | 1;
  from?: string;
  to?: string;
}

export interface SyncExchangeRow {
  id: string;
  type: string;
  status: number;
  memo: string;
  durationMs: number | null;
  userName: string;
  createdAt: string;
}

const SYNC_SORTS = { createdAt: 's.created_at', status: 's.status', durationMs: 's.duration_ms' } as const;

/** `refs` null: every row of the system; an array: the rows indexed by any of those keys (none when empty). */
export async function syncExchanges(db: Kysely<Database>, system: number, refs: readonly string[] | null, q: SyncExchangeFilter): Promise<{ items: SyncExchangeRow[]; total: number }> {
  let b = db.selectFrom('sync_logs as s').leftJoin('users as u', 'u.id', 's.user_id').where('s.system', '=', system);
  if (refs) b = b.where('s.id', 'in', db.selectFrom('sync_log_refs').select('sync_log_id').where('ref', 'in', refs.length ? [...refs] : ['\u0000']));
  if (q.method) b = b.where((eb) => contains(eb.ref('s.type'), q.method!));
  if (q.status !== undefined) b = b.where('s.status', '=', q.status);
  if (q.from) b = b.where('s.created_at', '>=', q.from);
  if (q.to) b = b.where('s.created_at', '<', q.to);
  const s = sortOf(q.sort, SYNC_SORTS, { column: 's.created_at', order: 'desc' });
  const [rows, n] = await Promise.all([
    b.select(['s.id', 's.type', 's.status', 's.memo', 's.duration_ms', 's.created_at', 'u.name as user_name']).orderBy(s.column, s.order).orderBy('s.id', 'desc').limit(q.pageSize).offset(offsetOf(q)).execute(),
    b.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    items: rows.map((r) => ({ id: r.id, type: r.type, status: r.status, memo: r.memo, durationMs: r.duration_ms, userName: r.user_name ?? '系统', createdAt: r.created_at })),
    total: Number(n.n),
  };
}

/** One row of the system with its bodies; undefined when it is not that system's. */
export function syncExchange(db: Kysely<Database>, system: number, id: string) {
  return db.selectFrom('sync_logs as s').leftJoin('users as u', 'u.id', 's.user_id').selectAll('s').select('u.name as user_name').where('s.id', '=', id).where('s.system', '=', system).executeTakeFirst();
}

/** The keys each row is indexed by. */
export async function syncRefsOf(db: Kysely<Database>, ids: readonly string[]): Promise<Map<string, string[]>> {
  const m = new Map<string, string[]>();
  if (!ids.length) return m;
  for (const r of await db.selectFrom('sync_log_refs').select(['sync_log_id', 'ref']).where('sync_log_id', 'in', [...ids]).execute()) {
    m.set(r.sync_log_id, [...(m.get(r.sync_log_id) ?? []), r.ref]);
  }
  return m;
}
