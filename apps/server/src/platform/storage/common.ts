/** What the storage drivers share: the interface, key checking, the measuring stream. */
import crypto from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import { AppError, notFound } from '../envelope.js';

export interface StoredObject {
  /** Bytes written. */
  size: number;
  /** Hex SHA-256 of the content. */
  sha256: string;
}

export interface FileStorage {
  /** Streams `body` under `key` (replacing what was there) and answers its size and hash. */
  put(key: string, body: Readable, opts?: { contentType?: string }): Promise<StoredObject>;
  /** The content under `key`; a Chinese 404 (文件不存在) when there is none. */
  open(key: string): Promise<Readable>;
  /** Removes `key`; nothing happens when it is absent. */
  remove(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
}

export const STORAGE_NOT_FOUND = '文件不存在或已被删除';
export const storageNotFound = () => notFound(STORAGE_NOT_FOUND);

const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,199}$/;

/** Refuses a key that could leave the storage root (.., absolute paths, backslashes, empty segments). */
export function checkKey(key: string): string {
  const parts = typeof key === 'string' ? key.split('/') : [];
  if (!key || key.length > 1000 || parts.some((p) => !SEGMENT.test(p) || p === '.' || p === '..')) throw new AppError(30000, '文件存储键无效', 400);
  return key;
}

/** A pass-through that counts and hashes what flows through it; `limit` bytes at most (then `tooLarge()` is thrown into the stream). */
export class Measure extends Transform {
  /** Bytes seen so far (not named `size`: lib-storage would read it as the body's length). */
  bytes = 0;
  private readonly hash = crypto.createHash('sha256');
  constructor(
    private readonly limit = Number.POSITIVE_INFINITY,
    private readonly tooLarge: () => Error = () => new Error('too large'),
  ) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null, data?: Buffer) => void): void {
    this.bytes += chunk.length;
    if (this.bytes > this.limit) return cb(this.tooLarge());
    this.hash.update(chunk);
    cb(null, chunk);
  }
  get sha256(): string {
    return this.hash.copy().digest('hex');
  }
}

export interface StorageConfig {
  driver: 'local' | 's3';
  s3?: { endpoint?: string; region: string; bucket: string; accessKeyId?: string; secretAccessKey?: string; forcePathStyle: boolean };
}

