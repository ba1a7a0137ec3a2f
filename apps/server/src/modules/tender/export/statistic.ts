/**
 * 导出日志 and 导出统计 (issue 17): the tender file exports (tender_exports) with their items and
 * downloads, and how many done exports used each contract, certificate, person or exporter per month.
 *
 * Downloads are the file export log's rows of kind download, category 投标文件, with the export's file
 * name and hash (TenderExports.download logs them so; the log has no export id). Months and days are
 * Asia/Shanghai ones: an export belongs to the month of its creation there.
 */
import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import {
  monthsBetween,
  type TenderExportDetail,
  type TenderExportLogFilter,
  type TenderExportLogRow,
  type TenderExportStatQuery,
  type TenderExportStatResult,
  type TenderExportStatRow,
  type TenderStatDimension,
} from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import { contains, shanghaiDay } from '../../../platform/listing.js';
import { shanghaiDayStartIso } from '../../../platform/time.js';
import '../../system/tables.js';
import '../people/tables.js';
import '../tables.js';
import { EXPORT_CATEGORY } from './jobs.js';
import './tables.js';

type Db = Kysely<Database>;
type Eb = ExpressionBuilder<Database & { e: Database['tender_exports'] }, 'e'>;

/** The month after 'YYYY-MM'. */
export function nextMonth(month: string): string {
  const y = Number(month.slice(0, 4));
  const m = Number(month.slice(5, 7));
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}
const monthStart = (month: string) => shanghaiDayStartIso(`${month}-01`);

/** The exports that used `key` of `dimension`: an item of theirs, or their creator. */
function usedBy(eb: Eb, dimension: TenderStatDimension, key: string) {
  if (dimension === 'user') return eb('e.created_by', '=', key);
  const items = eb.selectFrom('tender_export_items as ki').select('ki.export_id').whereRef('ki.export_id', '=', 'e.id');
  if (dimension !== 'person') return eb.exists(items.where('ki.item_kind', '=', dimension).where('ki.item_id', '=', key));
  return eb.exists(
    items.where((w) =>
      w.or([
        w.and([w('ki.item_kind', '=', 'certificate'), w('ki.item_id', 'in', w.selectFrom('tender_certificates').select('id').where('user_id', '=', key))]),
        w.and([w('ki.item_kind', '=', 'title'), w('ki.item_id', 'in', w.selectFrom('tender_titles').select('id').where('user_id', '=', key))]),
      ]),
    ),
  );
}

function exportsWhere(db: Db, f: TenderExportLogFilter) {
  let q = db.selectFrom('tender_exports as e');
  if (f.from) q = q.where('e.created_at', '>=', shanghaiDayStartIso(f.from));
  if (f.to) q = q.where('e.created_at', '<', shanghaiDayStartIso(f.to, 1));
  if (f.kind) q = q.where('e.kind', '=', f.kind);
  if (f.state) q = q.where('e.state', '=', f.state);
  if (f.user) {
    const k = f.user;
    q = q.where((eb) => eb.or([contains(eb.ref('e.created_by_name'), k), eb.exists(eb.selectFrom('users as u').select('u.id').whereRef('u.id', '=', 'e.created_by').where(contains(sql.ref('u.login_name'), k)))]));
  }
  if (f.keyword) {
    const k = f.keyword;
    q = q.where((eb) =>
      eb.or([
        contains(eb.ref('e.title'), k),
        contains(eb.ref('e.file_name'), k),
        eb.exists(eb.selectFrom('tender_export_items as li').select('li.export_id').whereRef('li.export_id', '=', 'e.id').where(contains(sql.ref('li.label'), k))),
      ]),
    );
  }
  if (f.dimension && f.key) {
    const { dimension, key } = f;
    q = q.where((eb) => usedBy(eb as unknown as Eb, dimension, key));
  }
  return q;
}

export async function exportCount(db: Db, f: TenderExportLogFilter): Promise<number> {
  return Number((await exportsWhere(db, f).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
}

/** Downloads of these exports' files, by file name and hash. */
async function downloadsOf(db: Db, files: { fileName: string; sha256: string | null }[]): Promise<Map<string, { n: number; last: string }>> {
  const hashes = [...new Set(files.map((f) => f.sha256).filter((h): h is string => !!h))];
  if (!hashes.length) return new Map();
  const rows = await db
    .selectFrom('file_export_logs')
    .select(['file_name', 'sha256', (eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.max('created_at').as('last')])
    .where('kind', '=', 'download')
    .where('category', '=', EXPORT_CATEGORY)
    .where('sha256', 'in', hashes)
    .groupBy(['file_name', 'sha256'])
    .execute();
  return new Map(rows.map((r) => [`${r.file_name}|${r.sha256}`, { n: Number(r.n), last: String(r.last) }]));
}

type ExportRow = Database['tender_exports'] & { login_name: string | null };

async function toRows(db: Db, rows: ExportRow[]): Promise<TenderExportLogRow[]> {
  const dl = await downloadsOf(db, rows.map((r) => ({ fileName: r.file_name, sha256: r.sha256 })));
  return rows.map((r) => {
    const d = dl.get(`${r.file_name}|${r.sha256}`);
    return {
      id: r.id, kind: r.kind, format: r.format, title: r.title, fileName: r.file_name, state: r.state, error: r.error, itemCount: Number(r.item_count),
      pageCount: r.page_count === null ? null : Number(r.page_count), size: r.size === null ? null : Number(r.size), sha256: r.sha256,
      createdByName: r.created_by_name, createdByLogin: r.login_name ?? '', createdAt: r.created_at, finishedAt: r.finished_at,
      purged: r.state === 'done' && !r.storage_key, downloads: d?.n ?? 0, lastDownloadAt: d?.last ?? null,
    };
  });
}

function listQuery(db: Db, f: TenderExportLogFilter) {
  return exportsWhere(db, f)
    .leftJoin('users as cu', 'cu.id', 'e.created_by')
    .selectAll('e')
    .select('cu.login_name')
    .orderBy('e.created_at', 'desc')
    .orderBy('e.id', 'desc');
}

export async function exportPage(db: Db, f: TenderExportLogFilter, offset: number, limit: number): Promise<TenderExportLogRow[]> {
  return toRows(db, await listQuery(db, f).limit(limit).offset(offset).execute());
}

export async function* exportBatches(db: Db, f: TenderExportLogFilter, size = 500): AsyncIterable<TenderExportLogRow[]> {
  for (let offset = 0; ; offset += size) {
    const got = await exportPage(db, f, offset, size);
    if (got.length) yield got;
    if (got.length < size) return;
  }
}

export async function exportDetail(db: Db, id: string): Promise<TenderExportDetail | null> {
  const row = await db.selectFrom('tender_exports as e').leftJoin('users as cu', 'cu.id', 'e.created_by').selectAll('e').select('cu.login_name').where('e.id', '=', id).executeTakeFirst();
  if (!row) return null;
  const [[one], items, downloads] = await Promise.all([
    toRows(db, [row]),
    db.selectFrom('tender_export_items').selectAll().where('export_id', '=', id).orderBy('position').execute(),
    row.sha256
      ? db
          .selectFrom('file_export_logs')
          .select(['user_name', 'login_name', 'dept_name', 'created_at'])
          .where('kind', '=', 'download')
          .where('category', '=', EXPORT_CATEGORY)
          .where('file_name', '=', row.file_name)
          .where('sha256', '=', row.sha256)
          .orderBy('created_at', 'desc')
          .limit(500)
          .execute()
      : Promise.resolve([]),
  ]);
  return {
    export: one!,
    items: items.map((i) => ({ position: Number(i.position), itemKind: i.item_kind, itemId: i.item_id, label: i.label })),
    downloads: downloads.map((d) => ({ userName: d.user_name, loginName: d.login_name, deptName: d.dept_name, createdAt: d.created_at })),
  };
}

/** (key, label, export) of every use of an item of the dimension by a done export in [from, to). */
async function usesOf(db: Db, dimension: TenderStatDimension, from: string, to: string): Promise<{ key: string; label: string; id: string; created_at: string }[]> {
  const done = db.selectFrom('tender_exports as e').where('e.state', '=', 'done').where('e.created_at', '>=', from).where('e.created_at', '<', to);
  if (dimension === 'user') return done.select(['e.created_by as key', 'e.created_by_name as label', 'e.id', 'e.created_at']).execute();
  const items = done.innerJoin('tender_export_items as i', 'i.export_id', 'e.id');
  if (dimension === 'contract') {
    return items
      .leftJoin('contracts as c', 'c.id', 'i.item_id')
      .where('i.item_kind', '=', 'contract')
      .select(['i.item_id as key', sql<string>`coalesce(c.code || ' ' || c.name, i.label)`.as('label'), 'e.id', 'e.created_at'])
      .execute();
  }
  if (dimension === 'certificate') {
    return items
      .leftJoin('tender_certificates as c', 'c.id', 'i.item_id')
      .leftJoin('tender_cert_kinds as k', 'k.id', 'c.kind_id')
      .leftJoin('users as h', 'h.id', 'c.user_id')
      .where('i.item_kind', '=', 'certificate')
      .select(['i.item_id as key', sql<string>`coalesce(h.name || ' ' || k.name || ' ' || c.cert_no, i.label)`.as('label'), 'e.id', 'e.created_at'])
      .execute();
  }
  const rows = await items
    .leftJoin('tender_certificates as c', (j) => j.onRef('c.id', '=', 'i.item_id').on('i.item_kind', '=', 'certificate'))
    .leftJoin('tender_titles as t', (j) => j.onRef('t.id', '=', 'i.item_id').on('i.item_kind', '=', 'title'))
    .leftJoin('users as h', (j) => j.on(sql`h.id`, '=', sql`coalesce(c.user_id, t.user_id)`))
    .where('i.item_kind', 'in', ['certificate', 'title'])
    .select([sql<string | null>`coalesce(c.user_id, t.user_id)`.as('key'), sql<string>`coalesce(h.name, '')`.as('label'), 'e.id', 'e.created_at'])
    .execute();
  return rows.filter((r): r is typeof r & { key: string } => !!r.key);
}

/** Every item of the dimension used in the range, most used first (ties by name); the months' export counts. */
export async function exportStatisticAll(db: Db, q: Omit<TenderExportStatQuery, 'top'>): Promise<TenderExportStatResult> {
  const months = monthsBetween(q.fromMonth, q.toMonth);
  const index = new Map(months.map((m, i) => [m, i]));
  const from = monthStart(q.fromMonth);
  const to = monthStart(nextMonth(q.toMonth));
  const [uses, done] = await Promise.all([
    usesOf(db, q.dimension, from, to),
    db.selectFrom('tender_exports').select('created_at').where('state', '=', 'done').where('created_at', '>=', from).where('created_at', '<', to).execute(),
  ]);
  const exportsPerMonth = months.map(() => 0);
  for (const e of done) {
    const i = index.get(shanghaiDay(e.created_at).slice(0, 7));
    if (i !== undefined) exportsPerMonth[i]! += 1;
  }
  const byKey = new Map<string, { label: string; seen: Set<string>; counts: number[] }>();
  for (const u of uses) {
    const i = index.get(shanghaiDay(u.created_at).slice(0, 7));
    if (i === undefined) continue;
    let s = byKey.get(u.key);
    if (!s) byKey.set(u.key, (s = { label: u.label, seen: new Set(), counts: months.map(() => 0) }));
    if (s.seen.has(u.id)) continue; // an export that holds two certificates of one person counts once
    s.seen.add(u.id);
    s.counts[i]! += 1;
  }
  const rows: TenderExportStatRow[] = [...byKey].map(([key, s]) => ({ key, label: s.label || '（已删除）', counts: s.counts, total: s.seen.size }));
  rows.sort((a, b) => b.total - a.total || a.label.localeCompare(b.label, 'zh-CN') || a.key.localeCompare(b.key));
  return { months, rows, itemTotal: rows.length, exportsPerMonth, exports: done.length };
}

export async function exportStatistic(db: Db, q: TenderExportStatQuery): Promise<TenderExportStatResult> {
  const all = await exportStatisticAll(db, q);
  return { ...all, rows: all.rows.slice(0, q.top) };
}
