/**
 * The tender file export engine on the app (app.tenderExports): the jobs service, the runner and the
 * storage of finished exports. The runner starts once a kind of export has a resolver (the contract and
 * certificate areas register theirs with `app.tenderExports.register(kind, resolve)`) and stops with the
 * server; jobs of a kind without a resolver wait queued. HTTP calls for the file/ pages come with them.
 */
import type { FastifyInstance } from 'fastify';
import { TenderExportRunner, TenderExports, type ExportResolver } from './jobs.js';
import type { ExportStorage } from './storage.js';
import type { TenderExportKind } from './tables.js';

export interface TenderExportEngine {
  storage: ExportStorage;
  exports: TenderExports;
  runner: TenderExportRunner;
  /** Plugs in the sections of one kind of export and starts the runner (when the server is ready). */
  register(kind: TenderExportKind, resolve: ExportResolver): void;
}

export async function tenderExportRoutes(app: FastifyInstance): Promise<void> {
  const storage: ExportStorage = app.storage;
  const exports = new TenderExports(app.db, storage, app.oplog);
  const runner = new TenderExportRunner({ db: app.db, log: app.log, storage, oplog: app.oplog });
  let ready = false;
  let wanted = false;
  app.decorate('tenderExports', {
    storage,
    exports,
    runner,
    register(kind, resolve) {
      runner.register(kind, resolve);
      wanted = true;
      if (ready) runner.start();
    },
  } satisfies TenderExportEngine);
  app.addHook('onReady', async () => {
    ready = true;
    if (wanted) runner.start();
  });
  app.addHook('onClose', async () => runner.stop());
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Tender file exports: jobs, runner and storage (modules/tender/export). */
    tenderExports: TenderExportEngine;
  }
}
