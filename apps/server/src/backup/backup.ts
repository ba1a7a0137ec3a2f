/**
 * Online backup and restore of the embedded (SQLite) database and the data folder (docs/backup.md).
 *
 * A backup is a plain directory: platform.db (a consistent snapshot taken with SQLite's online backup
 * API while the server keeps writing), files/ (every other file of the data folder) and
 * manifest.json (time, migrations applied, counts, sha256 of every file). Restore verifies the
 * manifest, refuses while a server runs on the data folder, moves the current state aside and
 * puts the snapshot in place.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';

export const DB_FILE = 'platform.db';
/**
 * Written by each server process (main.ts) while it runs on a data folder, one file per process
 * (several may share one folder); restore refuses while any of their processes lives.
 */
export const pidFileName = (pid: number) => `server.${pid}.pid`;
const PID_FILE_RE = /^server\.(\d+)\.pid$/;
export const MANIFEST = 'manifest.json';
export const FORMAT = 'zhyy-backup/1';
/** Where restore moves the state it replaces. */
export const ASIDE_PREFIX = '.before-restore-';

/** The data folder's own bookkeeping, never copied: the live database, its journal, the pid file, earlier restores' leftovers. */
function isOwnFile(rel: string): boolean {
  const top = rel.split(path.sep)[0]!;
  return top === DB_FILE || top === `${DB_FILE}-wal` || top === `${DB_FILE}-shm` || top === `${DB_FILE}-journal` || PID_FILE_RE.test(top) || top.startsWith(ASIDE_PREFIX);
}

export interface FileEntry {
  path: string;
  size: number;
  sha256: string;
}

export interface Manifest {
  format: typeof FORMAT;
  createdAt: string;
  engine: 'sqlite';
  database: FileEntry;
  /** Migrations applied in the snapshot (kysely_migration), in order. */
  migrations: string[];
  /** Invoice files (PDF/OFD/XML, scans) live inside the database as content-addressed blobs. */
  invoiceFiles: number;
  /** Other files of the data folder, under files/. */
  fileCount: number;
  files: FileEntry[];
}

export class BackupError extends Error {}

function sha256File(file: string): string {
  const h = crypto.createHash('sha256');
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(1 << 20);
    for (let n; (n = fs.readSync(fd, buf, 0, buf.length, null)) > 0; ) h.update(buf.subarray(0, n));
  } finally {
    fs.closeSync(fd);
  }
  return h.digest('hex');
}

function entry(root: string, rel: string): FileEntry {
  const abs = path.join(root, rel);
  return { path: rel.split(path.sep).join('/'), size: fs.statSync(abs).size, sha256: sha256File(abs) };
}

/** Relative paths of the regular files under dir (sorted), skipping what `skip` says. */
function listFiles(dir: string, skip: (rel: string) => boolean = () => false, rel = ''): string[] {
  if (!fs.existsSync(path.join(dir, rel))) return [];
  const out: string[] = [];
  for (const d of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const r = rel ? path.join(rel, d.name) : d.name;
    if (skip(r)) continue;
    if (d.isDirectory()) out.push(...listFiles(dir, skip, r));
    else if (d.isFile()) out.push(r);
  }
  return out.sort();
}

export function stamp(d = new Date()): string {
  return d.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}

/**
 * Takes a backup of dataDir into `out` (a new directory). The database is copied with SQLite's
 * online backup API in a single step, i.e. under one read transaction: with WAL the server keeps
 * writing meanwhile and the copy is the database as of one instant, committed transactions only.
 */
export async function createBackup(dataDir: string, out: string): Promise<Manifest> {
  const dbPath = path.join(dataDir, DB_FILE);
  if (!fs.existsSync(dbPath)) throw new BackupError(`没有找到数据库文件：${dbPath}`);
  if (fs.existsSync(out)) throw new BackupError(`备份目录已存在：${out}`);
  const partial = `${out}.partial`;
  fs.rmSync(partial, { recursive: true, force: true });
  fs.mkdirSync(path.join(partial, 'files'), { recursive: true });
  try {
    const src = new BetterSqlite3(dbPath, { readonly: true, fileMustExist: true });
    try {
      src.pragma('busy_timeout = 5000');
      // One step for every page: a step that finishes the copy is never restarted by other writers.
      await src.backup(path.join(partial, DB_FILE), { progress: () => 0x7fffffff });
    } finally {
      src.close();
    }
    const snap = new BetterSqlite3(path.join(partial, DB_FILE));
    let migrations: string[];
    let invoiceFiles: number;
    try {
      // The copy keeps the source's WAL mode; a backup is one self-contained file.
      snap.pragma('journal_mode = DELETE');
      const check = snap.pragma('quick_check', { simple: true });
      if (check !== 'ok') throw new BackupError(`数据库副本校验失败：${String(check)}`);
      migrations = (snap.prepare('select name from kysely_migration order by name').all() as { name: string }[]).map((r) => r.name);
      invoiceFiles = (snap.prepare('select count(*) as n from invoice_files').get() as { n: number }).n;
    } finally {
      snap.close();
    }
    const rels = listFiles(dataDir, (rel) => isOwnFile(rel) || path.resolve(dataDir, rel) === path.resolve(partial) || path.resolve(dataDir, rel) === path.resolve(out));
    for (const rel of rels) {
      fs.mkdirSync(path.dirname(path.join(partial, 'files', rel)), { recursive: true });
      fs.copyFileSync(path.join(dataDir, rel), path.join(partial, 'files', rel));
    }
    const manifest: Manifest = {
      format: FORMAT,
      createdAt: new Date().toISOString(),
      engine: 'sqlite',
      database: entry(partial, DB_FILE),
      migrations,
      invoiceFiles,
      fileCount: rels.length,
      files: rels.map((rel) => entry(path.join(partial, 'files'), rel)),
    };
    fs.writeFileSync(path.join(partial, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    fs.renameSync(partial, out);
    return manifest;
  } catch (err) {
    fs.rmSync(partial, { recursive: true, force: true });
    throw err;
  }
}

/** Reads a backup's manifest and checks every file against it; throws on any difference. */
export function verifyBackup(dir: string): Manifest {
  const file = path.join(dir, MANIFEST);
  if (!fs.existsSync(file)) throw new BackupError(`不是备份目录（缺少 ${MANIFEST}）：${dir}`);
  const m = JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
  if (m.format !== FORMAT) throw new BackupError(`不认识的备份格式：${String(m.format)}`);
  const check = (root: string, e: FileEntry) => {
    const abs = path.join(root, e.path);
    if (!fs.existsSync(abs)) throw new BackupError(`备份缺少文件：${e.path}`);
    const got = entry(root, e.path);
    if (got.size !== e.size || got.sha256 !== e.sha256) throw new BackupError(`备份文件校验和不符：${e.path}`);
  };
  check(dir, m.database);
  for (const e of m.files) check(path.join(dir, 'files'), e);
  const present = listFiles(path.join(dir, 'files')).map((r) => r.split(path.sep).join('/'));
  const listed = new Set(m.files.map((e) => e.path));
  const extra = present.filter((r) => !listed.has(r));
  if (extra.length || m.files.length !== m.fileCount) throw new BackupError(`备份目录与清单不一致：${extra.join('，') || 'fileCount'}`);
  return m;
}

/** The pid of a server running on this data folder, or null (no pid file, or none of their processes lives). */
export function runningServer(dataDir: string): number | null {
  if (!fs.existsSync(dataDir)) return null;
  for (const name of fs.readdirSync(dataDir)) {
    const m = PID_FILE_RE.exec(name);
    if (m && alive(Number(m[1]))) return Number(m[1]);
  }
  return null;
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Replaces the data folder's database and files with a verified backup. The state replaced is
 * moved to dataDir/.before-restore-<time>/ (delete it once the restore is confirmed).
 */
export function restoreBackup(dataDir: string, from: string): { manifest: Manifest; aside: string | null } {
  const manifest = verifyBackup(from);
  const pid = runningServer(dataDir);
  if (pid !== null) throw new BackupError(`服务器正在使用该数据目录（进程 ${pid}），请先停止服务器再恢复`);
  fs.mkdirSync(dataDir, { recursive: true });
  const current = listFiles(dataDir, (rel) => rel.startsWith(ASIDE_PREFIX) || PID_FILE_RE.test(rel));
  let aside: string | null = null;
  if (current.length) {
    aside = path.join(dataDir, `${ASIDE_PREFIX}${stamp()}`);
    for (const rel of current) {
      fs.mkdirSync(path.dirname(path.join(aside, rel)), { recursive: true });
      fs.renameSync(path.join(dataDir, rel), path.join(aside, rel));
    }
    for (const d of fs.readdirSync(dataDir, { withFileTypes: true })) {
      if (d.isDirectory() && !d.name.startsWith(ASIDE_PREFIX)) fs.rmSync(path.join(dataDir, d.name), { recursive: true, force: true });
    }
  }
  for (const e of manifest.files) {
    const dest = path.join(dataDir, e.path);
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    fs.copyFileSync(path.join(from, 'files', e.path), dest);
  }
  fs.copyFileSync(path.join(from, DB_FILE), path.join(dataDir, DB_FILE));
  return { manifest, aside };
}
