/**
 * Where a tender export assembles its file before storing it (the system's temporary folder unless told
 * otherwise), and the sweep of what a server killed mid-export left there (issue 30).
 */
import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import type { Db } from '../../../db/index.js';
import { sweepFiles } from '../../../platform/tempFiles.js';
import type { TenderExportFormat } from './tables.js';

/** A file unchanged this long is not being written (an assembly writes as it goes). */
export const TEMP_FILE_IDLE_MS = 60 * 60 * 1000;
/** The file of an assembly: tender-export-<job id>-<attempt>-<random>.<pdf|zip>. */
const TEMP_FILE = /^tender-export-([0-9a-f-]{36})-(\d+)-[0-9a-f]{8}\.(?:pdf|zip)$/;

export const exportTempDir = (dir: string | undefined): string => dir ?? os.tmpdir();

/** A new assembly file of the job's attempt, in the folder. */
export const exportTempPath = (dir: string | undefined, jobId: string, attempt: number, format: TenderExportFormat): string =>
  path.join(exportTempDir(dir), `tender-export-${jobId}-${attempt}-${crypto.randomBytes(4).toString('hex')}.${format}`);

/**
 * Removes the assembly files no runner is doing any more. A file is kept while its job is running under the
 * same attempt, on whichever server, and while it was written in the last hour (the folder may be shared
 * with servers of another database); the names removed.
 */
export function sweepExportTemp(db: Db, dir: string | undefined, now = Date.now()): Promise<string[]> {
  return sweepFiles(exportTempDir(dir), {
    match: TEMP_FILE,
    olderThanMs: TEMP_FILE_IDLE_MS,
    now,
    keep: async (m) =>
      !!(await db.kysely.selectFrom('tender_exports').select('id').where('id', '=', m[1]!).where('attempt', '=', Number(m[2])).where('state', '=', 'running').executeTakeFirst()),
  });
}
