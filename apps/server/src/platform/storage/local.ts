/** The local driver of FileStorage: files under a root folder (DATA_DIR/storage), written to a temporary file then renamed. */
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sweepFiles } from '../tempFiles.js';
import { checkKey, Measure, storageNotFound, type FileStorage, type StoredObject } from './common.js';

/** How long a `.part` file stays untouched before a sweep takes it for a crash's leftover. */
export const PART_IDLE_MS = 60 * 60 * 1000;

export class LocalStorage implements FileStorage {
  readonly root: string;
  constructor(root: string) {
    this.root = path.resolve(root);
  }

  /** The file of a key, checked to stay inside the root. */
  pathOf(key: string): string {
    const p = path.resolve(this.root, ...checkKey(key).split('/'));
    if (!p.startsWith(this.root + path.sep)) throw storageNotFound();
    return p;
  }

  async put(key: string, body: Readable): Promise<StoredObject> {
    const target = this.pathOf(key);
    const tmpDir = path.join(this.root, '.tmp');
    await fsp.mkdir(tmpDir, { recursive: true });
    await fsp.mkdir(path.dirname(target), { recursive: true });
    const tmp = path.join(tmpDir, `${crypto.randomUUID()}.part`);
    const m = new Measure();
    try {
      await pipeline(body, m, fs.createWriteStream(tmp, { flags: 'wx' }));
      await fsp.rename(tmp, target);
    } catch (e) {
      await fsp.rm(tmp, { force: true });
      throw e;
    }
    return { size: m.bytes, sha256: m.sha256 };
  }

  /**
   * Removes the `.part` files a crash left in the temporary folder (a write in progress renames its part
   * within the request that writes it; one untouched for an hour is nobody's): at start and hourly
   * (app.ts). The names removed.
   */
  sweepParts(now = Date.now()): Promise<string[]> {
    return sweepFiles(path.join(this.root, '.tmp'), { match: /^[0-9a-f-]{36}\.part$/, olderThanMs: PART_IDLE_MS, now });
  }

  async open(key: string): Promise<Readable> {
    let fh: fsp.FileHandle;
    try {
      fh = await fsp.open(this.pathOf(key), 'r');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'EISDIR') throw storageNotFound();
      throw e;
    }
    return fh.createReadStream();
  }

  async remove(key: string): Promise<void> {
    await fsp.rm(this.pathOf(key), { force: true });
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await fsp.stat(this.pathOf(key))).isFile();
    } catch {
      return false;
    }
  }
}
