/**
 * Issue 30: what a crash leaves in a temporary folder is cleaned at start and by age. A tender export's
 * assembly file is removed once its job is not running under that attempt and it has not been written
 * for an hour; a stored file's `.part` once untouched for an hour. Files of a job still running, files
 * written lately (perhaps by a server of another database sharing the folder) and files of other names stay.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalStorage, PART_IDLE_MS } from '../src/platform/storage/local.js';
import { TenderExportRunner } from '../src/modules/tender/export/jobs.js';
import { TEMP_FILE_IDLE_MS } from '../src/modules/tender/export/temp-files.js';
import { startTestServer, type TestServer } from './helpers.js';

let s: TestServer;
let dir: string;
beforeAll(async () => {
  s = await startTestServer();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sweep-'));
});
afterAll(async () => {
  await s?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const NOW = Date.now();
function file(folder: string, name: string, ageMs: number): void {
  fs.mkdirSync(folder, { recursive: true });
  const f = path.join(folder, name);
  fs.writeFileSync(f, 'x');
  const t = new Date(NOW - ageMs);
  fs.utimesSync(f, t, t);
}
const names = (folder: string) => fs.readdirSync(folder).sort();

describe('tender export assembly files', () => {
  it('removes those of jobs no longer running under their attempt, once idle for an hour', async () => {
    const RUNNING = '01900000-0000-7000-8000-0000000000a1';
    const DONE = '01900000-0000-7000-8000-0000000000a2';
    const now = new Date(NOW).toISOString();
    const row = { kind: 'performance' as const, format: 'pdf' as const, title: '测', params: '{}', progress: 0, step: '', file_name: '测.pdf', item_count: 1, created_by: 'x', created_by_name: '', created_at: now };
    await s.db.kysely.insertInto('tender_exports').values([{ ...row, id: RUNNING, state: 'running', attempt: 2 }, { ...row, id: DONE, state: 'done', attempt: 1 }]).execute();
    const folder = path.join(dir, 'tender');
    const hourAndMore = TEMP_FILE_IDLE_MS + 60_000;
    file(folder, `tender-export-${RUNNING}-2-0a0b0c0d.pdf`, hourAndMore); // its job runs under attempt 2: kept
    file(folder, `tender-export-${RUNNING}-1-0a0b0c0e.pdf`, hourAndMore); // an earlier attempt's: removed
    file(folder, `tender-export-${DONE}-1-0a0b0c0f.zip`, hourAndMore); // the job is done: removed
    file(folder, `tender-export-01900000-0000-7000-8000-0000000000ff-1-0a0b0c10.pdf`, hourAndMore); // no such job here: removed
    file(folder, `tender-export-01900000-0000-7000-8000-0000000000fe-1-0a0b0c11.pdf`, 5 * 60_000); // written 5 minutes ago: kept
    file(folder, 'report.pdf', hourAndMore); // not ours: kept
    const runner = new TenderExportRunner({ db: s.db, log: s.app.log, storage: s.app.storage, oplog: s.app.oplog, tmpDir: folder });
    const removed = await runner.sweepTemp(NOW);
    expect(removed.sort()).toEqual([
      `tender-export-01900000-0000-7000-8000-0000000000ff-1-0a0b0c10.pdf`,
      `tender-export-${DONE}-1-0a0b0c0f.zip`,
      `tender-export-${RUNNING}-1-0a0b0c0e.pdf`,
    ].sort());
    expect(names(folder)).toEqual(['report.pdf', `tender-export-01900000-0000-7000-8000-0000000000fe-1-0a0b0c11.pdf`, `tender-export-${RUNNING}-2-0a0b0c0d.pdf`].sort());
  });
});

describe('local storage parts', () => {
  it('removes .part files untouched for an hour, keeps a write in progress and other files', async () => {
    const root = path.join(dir, 'storage');
    const tmp = path.join(root, '.tmp');
    file(tmp, '0193a3f0-0000-4000-8000-000000000001.part', PART_IDLE_MS + 1000);
    file(tmp, '0193a3f0-0000-4000-8000-000000000002.part', 10_000);
    file(tmp, 'notes.txt', PART_IDLE_MS + 1000);
    expect(await new LocalStorage(root).sweepParts(NOW)).toEqual(['0193a3f0-0000-4000-8000-000000000001.part']);
    expect(names(tmp)).toEqual(['0193a3f0-0000-4000-8000-000000000002.part', 'notes.txt']);
    // A storage that never wrote has no temporary folder: nothing to do.
    expect(await new LocalStorage(path.join(dir, 'empty')).sweepParts(NOW)).toEqual([]);
  });
});
