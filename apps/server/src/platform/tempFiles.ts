/**
 * Temporary files a crash can leave behind (issue 30): a tender export's file being assembled, a stored
 * file's `.part` before its rename. Each owner sweeps its own folder at start and then by age, removing
 * only the files its rule says are nobody's any more; another app server's file in progress is kept.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';

export interface SweepRule {
  /** The names this sweep owns; any other file in the folder is never touched. */
  match: RegExp;
  /** Only files unchanged for at least this long (default 0: any age). */
  olderThanMs?: number;
  /** Whether a matching file is still someone's (e.g. its job is running): kept when true. */
  keep?: (m: RegExpMatchArray) => Promise<boolean>;
  now?: number;
}

/** Removes the folder's files the rule owns and no one holds; the names removed. A missing folder is empty. */
export async function sweepFiles(dir: string, rule: SweepRule): Promise<string[]> {
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  const now = rule.now ?? Date.now();
  const removed: string[] = [];
  for (const name of names) {
    const m = rule.match.exec(name);
    if (!m) continue;
    const file = path.join(dir, name);
    const st = await fsp.stat(file).catch(() => null);
    if (!st?.isFile() || now - st.mtimeMs < (rule.olderThanMs ?? 0)) continue;
    if (rule.keep && (await rule.keep(m))) continue;
    await fsp.rm(file, { force: true });
    removed.push(name);
  }
  return removed;
}

/** How often a long-running server sweeps again after its start. */
export const SWEEP_INTERVAL_MS = 60 * 60 * 1000;
