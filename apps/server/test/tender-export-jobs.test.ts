/**
 * Tender export jobs (modules/tender/export/jobs.ts) on the database: a PDF and a zip job run with their
 * progress, stored file, log rows (export, then download) and operation log; a refused source fails the
 * job with its name; a job of a kind without resolver waits; a runner that stops mid-job leaves the job
 * to the next runner once its lease has expired, which completes it once; two runners (two app servers
 * on one database) racing for one job run it once.
 */
import crypto from 'node:crypto';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import JSZip from 'jszip';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_GAVE_UP, TenderExportRunner, TenderExports, type ExportResolver, type NewTenderExport, type RunnerOptions } from '../src/modules/tender/export/jobs.js';
import type { ExportStorage } from '../src/modules/tender/export/storage.js';
import { LocalStorage } from '../src/platform/storage/index.js';
import { fileExportActorOf } from '../src/modules/syslog/fileExports.js';
import type { ExportSection } from '../src/modules/tender/export/types.js';
import { startTestServer, type TestServer } from './helpers.js';
import { fileOf, makeEncryptedPdf, makeJpeg, makePdf } from './tender-export-fixtures.js';

let server: TestServer;
let dir: string;
let storage: ExportStorage;
let exports: TenderExports;
let demo6: { id: string; name: string };
const runners: TenderExportRunner[] = [];

beforeAll(async () => {
  server = await startTestServer();
  // The app's own runner (the contract and people resolvers) would take these tests' jobs: the tests run theirs.
  await server.app.tenderExports.runner.stop();
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'tender-export-'));
  storage = new LocalStorage(dir);
  exports = new TenderExports(server.db, storage, server.app.oplog);
  demo6 = await server.db.kysely.selectFrom('users').select(['id', 'name']).where('login_name', '=', 'demo6').executeTakeFirstOrThrow();
});

afterAll(async () => {
  for (const r of runners) await r.stop();
  await server?.close();
  await fsp.rm(dir, { recursive: true, force: true });
});

function runner(resolvers: RunnerOptions['resolvers'], opts: Partial<RunnerOptions> = {}, db = server.db): TenderExportRunner {
  const r = new TenderExportRunner({ db, log: server.app.log, storage, oplog: server.app.oplog, resolvers, stopGraceMs: 50, ...opts });
  runners.push(r);
  return r;
}

const job = (format: 'pdf' | 'zip', title: string, n = 2): NewTenderExport => ({
  kind: 'performance',
  format,
  title,
  params: { watermark: '仅供测试项目投标使用' },
  items: Array.from({ length: n }, (_, i) => ({ kind: 'contract' as const, id: `c${i + 1}`, label: `业绩合同${i + 1}` })),
});

/** Sections from the items: each contract a 2-page PDF and a scan. */
const pages: ExportResolver = async (_job, items) =>
  Promise.all(items.map(async (it) => ({ title: it.label, files: [fileOf(`${it.item_id}.pdf`, 'application/pdf', await makePdf(it.item_id, 2)), fileOf(`${it.item_id}.jpg`, 'image/jpeg', makeJpeg(60, 80))] })));

const logRows = (fileName: string) =>
  server.db.kysely.selectFrom('file_export_logs').selectAll().where('file_name', '=', fileName).orderBy('created_at').execute();

async function bytesOf(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream as Readable) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

describe('tender export jobs', () => {
  it('runs a PDF export with progress, stores it, logs the export and the download', async () => {
    const id = await exports.create(job('pdf', '某道路工程投标业绩'), demo6);
    expect((await exports.get(id))!.state).toBe('queued');
    expect((await exports.items(id)).map((i) => [i.position, i.item_id, i.label])).toEqual([[1, 'c1', '业绩合同1'], [2, 'c2', '业绩合同2']]);
    const seen: { state: string; progress: number; step: string }[] = [];
    const watched: ExportResolver = async (j, items) => {
      const sections = await pages(j, items);
      const last = sections[1]!.files[1]!;
      // The row as the page would poll it while the second contract is being merged.
      last.open = async () => {
        seen.push((await server.db.kysely.selectFrom('tender_exports').select(['state', 'progress', 'step']).where('id', '=', id).executeTakeFirstOrThrow()));
        return Readable.from([makeJpeg(60, 80)]);
      };
      return sections;
    };
    expect(await runner({ performance: watched }).tick()).toBe(1);

    expect(seen.length).toBeGreaterThan(0);
    expect(seen.at(-1)!.state).toBe('running');
    expect(seen.at(-1)!.progress).toBeGreaterThan(0);
    expect(seen.at(-1)!.progress).toBeLessThan(100);
    expect(seen.at(-1)!.step).toContain('业绩合同2');

    const done = (await exports.get(id))!;
    expect(done).toMatchObject({ state: 'done', progress: 100, attempt: 1, item_count: 2, page_count: 1 + 2 * 3, error: null });
    expect(done.file_name).toMatch(/^某道路工程投标业绩_\d{8}\.pdf$/);
    const file = await bytesOf(await storage.open(done.storage_key!));
    expect(file.length).toBe(done.size);
    expect(crypto.createHash('sha256').update(file).digest('hex')).toBe(done.sha256);
    expect((await PDFDocument.load(file)).getPageCount()).toBe(7);

    const [logged] = await logRows(done.file_name);
    expect(logged).toMatchObject({ kind: 'export', category: '投标文件', login_name: 'demo6', user_name: demo6.name, size: done.size, sha256: done.sha256, item_count: 2 });
    const op = await server.db.kysely.selectFrom('operation_logs').selectAll().where('description', 'like', `%${done.file_name}%`).execute();
    expect(op.map((o) => [o.type, o.login_name])).toEqual([[80, 'demo6']]);

    // The download: the same bytes, logged with its size and hash for the one who downloads.
    const actor = (await fileExportActorOf(server.db.kysely, demo6.id))!;
    const dl = await exports.download(id, actor);
    expect((await bytesOf(dl.stream)).equals(file)).toBe(true);
    const rows = await logRows(done.file_name);
    expect(rows.map((r) => r.kind)).toEqual(['export', 'download']);
    expect(rows[1]).toMatchObject({ login_name: 'demo6', size: done.size, sha256: done.sha256, item_count: 2 });
  });

  it('runs a zip export of the original files', async () => {
    const id = await exports.create({ ...job('zip', '证书压缩包', 1), kind: 'certificate', items: [{ kind: 'certificate', id: 'x1', label: '张三 一级建造师' }] }, demo6);
    const cert: ExportResolver = async (_j, items) => items.map((it) => ({ title: it.label, files: [fileOf('正本.jpg', 'image/jpeg', makeJpeg(30, 30)), fileOf('副本.jpg', 'image/jpeg', makeJpeg(30, 30, 7))] }));
    await runner({ certificate: cert }).tick();
    const done = (await exports.get(id))!;
    expect(done).toMatchObject({ state: 'done', page_count: null });
    const zip = await JSZip.loadAsync(await bytesOf(await storage.open(done.storage_key!)));
    expect(Object.values(zip.files).filter((f) => !f.dir).map((f) => f.name)).toEqual(['01 张三 一级建造师/正本.jpg', '01 张三 一级建造师/副本.jpg']);
    expect((await logRows(done.file_name)).map((r) => [r.kind, r.item_count])).toEqual([['export', 1]]);
  });

  it('fails a job whose source is encrypted, naming the file, and refuses its download', async () => {
    const id = await exports.create(job('pdf', '加密源文件测试', 1), demo6);
    const bad: ExportResolver = async () => [{ title: '合同', files: [fileOf('加密扫描件.pdf', 'application/pdf', await makeEncryptedPdf())] }];
    await runner({ performance: bad }).tick();
    const failed = (await exports.get(id))!;
    expect(failed.state).toBe('failed');
    expect(failed.error).toContain('文件「加密扫描件.pdf」已加密');
    expect(failed.storage_key).toBeNull();
    expect(await logRows(failed.file_name)).toHaveLength(0);
    const actor = (await fileExportActorOf(server.db.kysely, demo6.id))!;
    await expect(exports.download(id, actor)).rejects.toThrow('该导出已失败');
    await expect(exports.create({ ...job('pdf', 'x'), items: [] }, demo6)).rejects.toThrow('请至少选择一项');
  });

  it('leaves a job queued while its kind has no resolver', async () => {
    const id = await exports.create({ ...job('pdf', '没有来源', 1), kind: 'certificate' }, demo6);
    expect(await runner({}).tick()).toBe(0);
    expect(await runner({ performance: pages }).tick()).toBe(0);
    expect((await exports.get(id))!.state).toBe('queued');
    await server.db.kysely.deleteFrom('tender_exports').where('id', '=', id).execute();
  });

  it('a runner stopped mid-export leaves the job to the next one, which completes it once', async () => {
    const id = await exports.create(job('pdf', '重启测试'), demo6);
    let release!: () => void;
    const stalled = new Promise<void>((r) => (release = r));
    let reached!: () => void;
    const reachedStall = new Promise<void>((r) => (reached = r));
    const stalling: ExportResolver = async (j, items) => {
      const sections = await pages(j, items);
      const f = sections[1]!.files[0]!;
      const open = f.open;
      f.open = async () => {
        reached();
        await stalled;
        return open();
      };
      return sections;
    };
    const first = runner({ performance: stalling }, { ttlMs: 1500 });
    const firstRun = first.tick();
    await reachedStall;
    // A source is read ahead of its turn: the runner is stuck on it once its step names it (the step is
    // written just before the runner waits for the source).
    while (!(await exports.get(id))!.step.endsWith('c2.pdf')) await new Promise((r) => setTimeout(r, 20));
    expect((await exports.get(id))!).toMatchObject({ state: 'running', attempt: 1 });
    // The server goes down: its runner stops renewing; the job stays running under a lease that runs out.
    await first.stop();
    const second = runner({ performance: pages }, { ttlMs: 1500 });
    expect(await second.tick()).toBe(0);
    expect((await exports.get(id))!.state).toBe('running');
    await new Promise((r) => setTimeout(r, 1600));
    expect(await second.tick()).toBe(1);
    const done = (await exports.get(id))!;
    expect(done).toMatchObject({ state: 'done', attempt: 2, progress: 100, page_count: 7 });
    // The first runner wakes up: it writes nothing.
    release();
    expect(await firstRun).toBe(0);
    expect((await exports.get(id))!).toMatchObject({ state: 'done', attempt: 2, storage_key: done.storage_key, sha256: done.sha256 });
    expect((await logRows(done.file_name)).map((r) => r.kind)).toEqual(['export']);
    expect((await PDFDocument.load(await bytesOf(await storage.open(done.storage_key!)))).getPageCount()).toBe(7);
  });

  it('two app servers racing for one job run it once', async () => {
    const other = await startTestServer({ sameDatabaseAs: server });
    await other.app.tenderExports.runner.stop();
    try {
      const id = await exports.create(job('pdf', '并发测试'), demo6);
      const ran: string[] = [];
      const counting = (who: string): ExportResolver => async (j, items) => (ran.push(who), pages(j, items));
      const a = runner({ performance: counting('a') });
      const b = runner({ performance: counting('b') }, {}, other.db);
      const results = await Promise.all([a.tick(), b.tick()]);
      expect(results.reduce((x, y) => x + y, 0)).toBe(1);
      expect(await Promise.all([a.tick(), b.tick()])).toEqual([0, 0]);
      expect(ran).toHaveLength(1);
      const done = (await exports.get(id))!;
      expect(done).toMatchObject({ state: 'done', attempt: 1 });
      expect((await logRows(done.file_name)).map((r) => r.kind)).toEqual(['export']);
    } finally {
      await other.close();
    }
  });

  it('fails a job whose runners died three times instead of retrying it forever', async () => {
    const gaveUp = await exports.create(job('pdf', '三次中断'), demo6);
    const retried = await exports.create(job('pdf', '两次中断', 1), demo6);
    // Three (or two) runners claimed them and died: running, no lease held any more.
    await server.db.kysely.updateTable('tender_exports').set({ state: 'running', attempt: 3 }).where('id', '=', gaveUp).execute();
    await server.db.kysely.updateTable('tender_exports').set({ state: 'running', attempt: 2 }).where('id', '=', retried).execute();
    const ran: string[] = [];
    expect(await runner({ performance: async (j, items) => (ran.push(j.title), pages(j, items)) }).tick()).toBe(1);
    expect(ran).toEqual(['两次中断']);
    expect((await exports.get(gaveUp))!).toMatchObject({ state: 'failed', attempt: 3, error: EXPORT_GAVE_UP, storage_key: null });
    expect((await exports.get(retried))!).toMatchObject({ state: 'done', attempt: 3 });
    expect(await logRows((await exports.get(gaveUp))!.file_name)).toEqual([]);
  });
});
