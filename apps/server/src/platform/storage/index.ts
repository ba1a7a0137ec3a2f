/**
 * File storage for attachments and exports (scans, tender PDFs and zips): one interface, two drivers.
 * - `local` (default): files under DATA_DIR/storage, each written to a temporary file and renamed into
 *   place, so a reader never sees half a file.
 * - `s3`: any S3-compatible object store (STORAGE_DRIVER=s3 with S3_ENDPOINT, S3_REGION, S3_BUCKET,
 *   S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_FORCE_PATH_STYLE); several app servers on one PostgreSQL
 *   share their files through it.
 * Bodies are streamed both ways: no driver holds a whole file in memory. Keys are relative paths of
 * letters, digits, '.', '_' and '-' segments joined by '/' (checkKey); anything else is refused.
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import { SWEEP_INTERVAL_MS } from '../tempFiles.js';
import { LocalStorage } from './local.js';
import { S3Storage } from './s3.js';
import type { FileStorage } from './common.js';

export function createStorage(config: Pick<Config, 'dataDir' | 'storage'>): FileStorage {
  const s = config.storage;
  if (s.driver === 's3') {
    if (!s.s3) throw new Error('STORAGE_DRIVER=s3 needs S3_BUCKET');
    return new S3Storage(s.s3);
  }
  return new LocalStorage(`${config.dataDir}/storage`);
}

export * from './common.js';
export { LocalStorage } from './local.js';
export { S3Storage } from './s3.js';

/**
 * The local driver's leftovers of a crash (`.part` files) are swept at start and hourly while the server
 * runs (issue 30); an object store keeps no parts of ours.
 */
export function sweepStorageParts(app: FastifyInstance): void {
  const storage = app.storage;
  if (!(storage instanceof LocalStorage)) return;
  const sweep = () =>
    void storage
      .sweepParts()
      .then((gone) => gone.length && app.log.info({ removed: gone.length }, 'storage: removed unfinished parts left by a crash'))
      .catch((err: unknown) => app.log.warn({ err }, 'storage: could not sweep unfinished parts'));
  sweep();
  const timer = setInterval(sweep, SWEEP_INTERVAL_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}
