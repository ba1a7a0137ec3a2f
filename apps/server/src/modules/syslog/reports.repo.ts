/** SQL of the file-export log and the AI interface statistic. */
import { sql, type Kysely } from 'kysely';
import {
  aiInterfaceName,
  type AiStatQuery,
  type AiStatResult,
  type AiStatRow,
  type FileExportLogQuery,
  type FileExportLogRow,
  type FileExportStatQuery,
  type FileExportStatRow,
} from '@zhyy/shared';
import type { Database } from '../../db/schema.js';
import { contains } from '../../platform/listing.js';
import '../system/tables.js';

type Db = Kysely<Database>;
type ExportFilter = Partial<Omit<FileExportLogQuery, 'pageIndex' | 'pageSize' | 'sort'>>;

function exports(db: Db, f: ExportFilter) {
  let q = db.selectFrom('file_export_logs as f');
  if (f.from) q = q.where('f.created_at', '>=', f.from);
  if (f.to) q = q.where('f.created_at', '<', f.to);
  if (f.kind) q = q.where('f.kind', '=', f.kind);
  if (f.category) q = q.where('f.category', '=', f.category);
  if (f.user) {
    const k = f.user;
    q = q.where(({ or, ref }) => or([contains(ref('f.login_name'), k), contains(ref('f.user_name'), k)]));
  }
  if (f.text) q = q.where(({ or, ref }) => or([contains(ref('f.description'), f.text!), contains(ref('f.file_name'), f.text!)]));
  return q;
}

export async function countFileExports(db: Db, f: ExportFilter): Promise<number> {
  return Number((await exports(db, f).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
}

export async function listFileExports(db: Db, f: ExportFilter, offset: number, limit: number): Promise<FileExportLogRow[]> {
  const rows = await exports(db, f).selectAll('f').orderBy('f.created_at', 'desc').orderBy('f.id', 'desc').limit(limit).offset(offset).execute();
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    category: r.category,
    description: r.description,
    fileName: r.file_name,
    rowCount: r.row_count,
    loginName: r.login_name,
    userName: r.user_name,
    deptName: r.dept_name,
    createdAt: r.created_at,
  }));
}

export async function fileExportStatistic(db: Db, q: FileExportStatQuery): Promise<FileExportStatRow[]> {
  const column = sql.ref({ user: 'f.login_name', category: 'f.category', day: 'f.day' }[q.groupBy]);
  const rows = await exports(db, { from: q.from, to: q.to, kind: q.kind })
    .select([
      sql<string>`${column}`.as('key'),
      (eb) => eb.fn.max('f.user_name').as('user_name'),
      (eb) => eb.fn.countAll<number>().as('total'),
      sql<number>`sum(case when f.kind = 'export' then 1 else 0 end)`.as('exports'),
      (eb) => eb.fn.max('f.created_at').as('last_at'),
    ])
    .groupBy(column)
    .execute();
  return rows
    .map((r) => {
      const total = Number(r.total);
      const exportsCount = Number(r.exports ?? 0);
      const label = q.groupBy === 'user' ? `${r.user_name ?? ''}（${r.key}）` : r.key || '未分类';
      return { key: r.key, label, exports: exportsCount, downloads: total - exportsCount, total, lastAt: String(r.last_at ?? '') };
    })
    .sort((a, b) => (q.groupBy === 'day' ? b.key.localeCompare(a.key) : b.total - a.total || a.key.localeCompare(b.key)));
}

function aiCalls(db: Db, q: AiStatQuery) {
  let x = db.selectFrom('ai_call_logs as a');
  if (q.from) x = x.where('a.created_at', '>=', q.from);
  if (q.to) x = x.where('a.created_at', '<', q.to);
  if (q.interfaceCode) x = x.where('a.interface_code', '=', q.interfaceCode);
  if (q.user) {
    const k = q.user;
    x = x.where(({ or, ref }) => or([contains(ref('a.login_name'), k), contains(ref('a.user_name'), k)]));
  }
  return x;
}

const toStat = (key: string, label: string, calls: number, successes: number, avg: unknown): AiStatRow => ({
  key,
  label,
  calls,
  successes,
  successRate: calls ? successes / calls : null,
  avgDurationMs: avg === null || avg === undefined ? null : Math.round(Number(avg)),
});

export async function aiStatistic(db: Db, q: AiStatQuery): Promise<AiStatResult> {
  const column = sql.ref({ interface: 'a.interface_code', user: 'a.login_name', day: 'a.day' }[q.groupBy]);
  const rows = await aiCalls(db, q)
    .select([
      sql<string>`${column}`.as('key'),
      (eb) => eb.fn.max('a.user_name').as('user_name'),
      (eb) => eb.fn.countAll<number>().as('calls'),
      (eb) => eb.fn.sum<number>('a.success').as('successes'),
      (eb) => eb.fn.avg<number>('a.duration_ms').as('avg'),
    ])
    .groupBy(column)
    .execute();
  const label = (key: string, userName: string | null) =>
    q.groupBy === 'interface' ? aiInterfaceName(key) : q.groupBy === 'user' ? (key ? `${userName ?? ''}（${key}）` : '系统') : key;
  const out = rows
    .map((r) => toStat(r.key, label(r.key, r.user_name), Number(r.calls), Number(r.successes ?? 0), r.avg))
    .sort((a, b) => (q.groupBy === 'day' ? a.key.localeCompare(b.key) : b.calls - a.calls || a.key.localeCompare(b.key)));
  const t = await aiCalls(db, q)
    .select([(eb) => eb.fn.countAll<number>().as('calls'), (eb) => eb.fn.sum<number>('a.success').as('successes'), (eb) => eb.fn.avg<number>('a.duration_ms').as('avg')])
    .executeTakeFirstOrThrow();
  const daily = await aiCalls(db, q)
    .select(['a.day', (eb) => eb.fn.countAll<number>().as('calls'), (eb) => eb.fn.sum<number>('a.success').as('successes')])
    .groupBy('a.day')
    .orderBy('a.day')
    .execute();
  return {
    rows: out,
    total: toStat('total', '合计', Number(t.calls), Number(t.successes ?? 0), t.avg),
    daily: daily.map((d) => ({ day: d.day, calls: Number(d.calls), failures: Number(d.calls) - Number(d.successes ?? 0) })),
  };
}
