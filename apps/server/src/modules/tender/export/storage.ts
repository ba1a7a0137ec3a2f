/**
 * Where finished exports are kept: the platform's storage (app.storage: the local data folder or an
 * S3-compatible store, apps/server/src/platform/storage/), of which the engine needs put and open.
 */
import type { FileStorage } from '../../../platform/storage/index.js';

export type ExportStorage = Pick<FileStorage, 'put' | 'open'>;
