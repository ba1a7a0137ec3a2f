/** platform/storage: the local driver (temp file then rename, keys that cannot leave the root) and the s3 driver against a fake S3 server (single PUT and multipart). */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { checkKey, createStorage, LocalStorage, S3Storage, STORAGE_NOT_FOUND, type FileStorage } from '../src/platform/storage/index.js';
import { s3Env, startFakeS3, type FakeS3 } from './fake-s3.js';

async function readAll(r: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of r) parts.push(Buffer.from(c));
  return Buffer.concat(parts);
}

/** A stream of `size` pseudo-random bytes produced in 64 KiB chunks (never one buffer). */
function generated(size: number, seed = 1): { stream: Readable; sha256: string } {
  const hash = crypto.createHash('sha256');
  const chunks: Buffer[] = [];
  let left = size;
  let n = seed;
  while (left > 0) {
    const len = Math.min(65536, left);
    const c = Buffer.alloc(len, n++ % 251);
    hash.update(c);
    chunks.push(c);
    left -= len;
  }
  let i = 0;
  return { stream: new Readable({ read() { this.push(i < chunks.length ? chunks[i++] : null); } }), sha256: hash.digest('hex') };
}

function behaves(name: string, make: () => FileStorage) {
  describe(`${name}: put, open, exists, remove`, () => {
    it('stores a stream and answers its size and hash; reads it back', async () => {
      const s = make();
      const body = Buffer.from('%PDF-1.4 hello 你好');
      const r = await s.put('a/b/one.pdf', Readable.from([body]), { contentType: 'application/pdf' });
      expect(r).toEqual({ size: body.length, sha256: crypto.createHash('sha256').update(body).digest('hex') });
      expect(await s.exists('a/b/one.pdf')).toBe(true);
      expect(await readAll(await s.open('a/b/one.pdf'))).toEqual(body);
      await s.put('a/b/one.pdf', Readable.from([Buffer.from('replaced')]));
      expect(String(await readAll(await s.open('a/b/one.pdf')))).toBe('replaced');
      await s.remove('a/b/one.pdf');
      expect(await s.exists('a/b/one.pdf')).toBe(false);
      await expect(s.open('a/b/one.pdf')).rejects.toMatchObject({ message: STORAGE_NOT_FOUND, status: 404 });
      await s.remove('a/b/one.pdf'); // absent: nothing happens
    });

    it('a file of several MiB (larger than one multipart part) round-trips', async () => {
      const s = make();
      const g = generated(12 * 1024 * 1024 + 12345);
      const r = await s.put('big/file.bin', g.stream);
      expect(r.size).toBe(12 * 1024 * 1024 + 12345);
      expect(r.sha256).toBe(g.sha256);
      const back = crypto.createHash('sha256');
      let size = 0;
      for await (const c of await s.open('big/file.bin')) {
        back.update(c);
        size += c.length;
      }
      expect(size).toBe(r.size);
      expect(back.digest('hex')).toBe(g.sha256);
      await s.remove('big/file.bin');
    });

    it('a failing source stores nothing', async () => {
      const s = make();
      const bad = new Readable({ read() { this.destroy(new Error('boom')); } });
      await expect(s.put('x/failed.bin', bad)).rejects.toThrow();
      expect(await s.exists('x/failed.bin')).toBe(false);
    });

    it('refuses keys that could leave the store', async () => {
      const s = make();
      for (const k of ['../x', 'a/../../x', '/etc/passwd', 'a//b', 'a\\..\\b', '.hidden', '', 'a/./b', 'a/b/..']) {
        await expect(s.put(k, Readable.from([Buffer.from('x')]))).rejects.toMatchObject({ message: '文件存储键无效' });
        await expect(s.open(k)).rejects.toMatchObject({ message: '文件存储键无效' });
      }
    });
  });
}

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'zhyy-storage-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

behaves('local', () => new LocalStorage(root));

describe('local driver specifics', () => {
  it('writes through a temporary file and leaves none behind', async () => {
    const s = new LocalStorage(root);
    await s.put('t/one.txt', Readable.from([Buffer.from('x')]));
    expect(fs.readFileSync(path.join(root, 't', 'one.txt'), 'utf8')).toBe('x');
    expect(fs.readdirSync(path.join(root, '.tmp'))).toEqual([]);
  });
  it('checkKey accepts plain relative keys only', () => {
    expect(checkKey('tender/2026/11/0193-abc.pdf')).toBe('tender/2026/11/0193-abc.pdf');
    expect(() => checkKey('tender/../x')).toThrow('文件存储键无效');
  });
  it('the default driver is local under DATA_DIR/storage', () => {
    const s = createStorage(loadConfig({ DATA_DIR: root }, []));
    expect(s).toBeInstanceOf(LocalStorage);
    expect((s as LocalStorage).root).toBe(path.join(root, 'storage'));
  });
});

describe('s3', () => {
  let s3: FakeS3;
  beforeAll(async () => {
    s3 = await startFakeS3();
  });
  afterAll(() => s3.close());

  behaves('s3', () => createStorage(loadConfig({ DATA_DIR: root, ...s3Env(s3) }, [])));

  it('is chosen by STORAGE_DRIVER=s3; a large file goes up in parts, a small one in one PUT', async () => {
    const s = createStorage(loadConfig({ DATA_DIR: root, ...s3Env(s3) }, []));
    expect(s).toBeInstanceOf(S3Storage);
    const before = { ...s3.stats };
    await s.put('m/small.txt', Readable.from([Buffer.from('small')]), { contentType: 'text/plain' });
    expect(s3.stats.put).toBe(before.put + 1);
    expect(s3.objects.get('m/small.txt')?.contentType).toBe('text/plain');
    await s.put('m/large.bin', generated(11 * 1024 * 1024).stream);
    expect(s3.stats.create).toBe(before.create + 1);
    expect(s3.stats.part).toBeGreaterThanOrEqual(before.part + 3);
    expect(s3.stats.complete).toBe(before.complete + 1);
    expect(s3.objects.get('m/large.bin')?.body.length).toBe(11 * 1024 * 1024);
  });

  it('STORAGE_DRIVER=s3 without a bucket is a configuration error', () => {
    expect(() => loadConfig({ STORAGE_DRIVER: 's3' }, [])).toThrow(/S3_BUCKET/);
  });
});
