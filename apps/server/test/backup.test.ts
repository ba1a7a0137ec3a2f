/**
 * Online backup and restore (docs/backup.md), SQLite only: the file database of a data folder is
 * backed up while writes go on, changed, restored, and served again.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { BackupError, DB_FILE, createBackup, pidFileName, restoreBackup, verifyBackup } from '../src/backup/backup.js';
import { loadConfig } from '../src/config.js';
import { migrate, openDatabase, type Db } from '../src/db/index.js';
import { storeFile } from '../src/modules/invoice/files/service.js';
import { seedDemo } from '../src/seed/index.js';
import { TEST_DEMO } from './helpers.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'zhyy-backup-'));
const dataDir = path.join(root, 'data');
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

async function open(): Promise<{ app: FastifyInstance; db: Db }> {
  const db = openDatabase({ sqlitePath: path.join(dataDir, DB_FILE) });
  await migrate(db);
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', WEB_DIST: path.join(root, 'no-web'), LOGIN_RATE_LIMIT: '1000' }, []);
  return { app: await buildApp(config, db), db };
}

async function call(app: FastifyInstance, url: string, body: unknown, token?: string) {
  const res = await app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', ...(token ? { 'x-token': token } : {}) }, payload: JSON.stringify(body) });
  return res.json() as { code: number; message?: string; r?: any };
}

const login = (app: FastifyInstance, name: string, password = 'demo123') => call(app, '/api/account/login', { name, password });

const SCAN = Buffer.from('%PDF-1.4 backup test attachment\n');
const NOTE = '数据目录中的文件';

describe('backup and restore (SQLite)', () => {
  let fileId: string;
  let backupDir: string;
  let usersAtBackup: number;

  it('takes a consistent backup while the server writes', async () => {
    const { app, db } = await open();
    await seedDemo(db, new Date(), TEST_DEMO);
    const inv = await db.kysely.selectFrom('invoices').select('id').orderBy('id').executeTakeFirstOrThrow();
    await storeFile(db.kysely, inv.id, { type: 1000, format: 'pdf', name: '备份测试.pdf', content: SCAN });
    fileId = (await db.kysely.selectFrom('invoice_files').select('id').where('invoice_id', '=', inv.id).where('name', '=', '备份测试.pdf').executeTakeFirstOrThrow()).id;
    fs.mkdirSync(path.join(dataDir, 'uploads'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'uploads', 'note.txt'), NOTE);

    // Writes interleave with the backup's steps: each signs demo3 in (a session row and a log row).
    let writing = true;
    let writes = 0;
    const writer = (async () => {
      while (writing) {
        expect((await login(app, 'demo3')).code).toBe(20000);
        writes++;
      }
    })();
    backupDir = path.join(root, 'backup-1');
    const manifest = await createBackup(dataDir, backupDir);
    writing = false;
    await writer;
    expect(writes).toBeGreaterThan(0);

    expect(manifest.fileCount).toBe(1);
    expect(manifest.files.map((f) => f.path)).toEqual(['uploads/note.txt']);
    expect(manifest.invoiceFiles).toBeGreaterThan(0);
    expect(manifest.migrations.length).toBeGreaterThan(0);
    expect(manifest.database.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(verifyBackup(backupDir)).toEqual(manifest);
    usersAtBackup = (await db.kysely.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n;

    // After the backup: demo1's password changes, the attachment and the folder's file go.
    const t = (await login(app, 'demo1')).r.token as string;
    expect((await call(app, '/api/user/updatepassword', { oldPassword: 'demo123', password: 'Changed2026x', confirmPassword: 'Changed2026x' }, t)).code).toBe(20000);
    await db.kysely.deleteFrom('invoice_files').where('id', '=', fileId).execute();
    fs.rmSync(path.join(dataDir, 'uploads'), { recursive: true });
    expect((await login(app, 'demo1')).code).not.toBe(20000);
    await app.close();
    await db.close();
  }, 120_000);

  it('refuses a backup whose files do not match the manifest, and while a server runs', () => {
    const copy = path.join(root, 'backup-corrupt');
    fs.cpSync(backupDir, copy, { recursive: true });
    fs.appendFileSync(path.join(copy, 'files', 'uploads', 'note.txt'), 'x');
    expect(() => restoreBackup(dataDir, copy)).toThrow(/校验和不符：uploads\/note\.txt/);

    fs.writeFileSync(path.join(dataDir, pidFileName(process.pid)), `${process.pid}\n`);
    expect(() => restoreBackup(dataDir, backupDir)).toThrow(BackupError);
    expect(() => restoreBackup(dataDir, backupDir)).toThrow(/请先停止服务器/);
    fs.rmSync(path.join(dataDir, pidFileName(process.pid)));
  });

  it('restores the backup: demo1 signs in with demo123 and sees the attachment', async () => {
    const { aside } = restoreBackup(dataDir, backupDir);
    expect(aside).not.toBeNull();
    expect(fs.existsSync(path.join(aside!, DB_FILE))).toBe(true);
    expect(fs.readFileSync(path.join(dataDir, 'uploads', 'note.txt'), 'utf8')).toBe(NOTE);

    const { app, db } = await open();
    const a = await login(app, 'demo1');
    expect([a.code, a.message]).toEqual([20000, undefined]);
    const users = (await db.kysely.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n;
    expect(users).toBe(usersAtBackup);
    const link = await call(app, '/api/invoice/file-link', { fileId }, a.r.token);
    expect(link.code).toBe(20000);
    const file = await app.inject({ method: 'GET', url: link.r.url });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(SCAN)).toBe(true);
    await app.close();
    await db.close();
  }, 60_000);
});
