/**
 * buildApp(config, db): the whole server as a Fastify instance, without listening.
 * Tests call it and use inject(); main.ts calls it and listens.
 */
import crypto from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import type { Db } from './db/index.js';
import { installBodyParsing } from './platform/body.js';
import './platform/context.js';
import { answerFrameworkError, installErrorHandling } from './platform/errors.js';
import { installGuard } from './platform/guard.js';
import { installDocs, installWebClient, readBuildId } from './platform/http.js';
import { installInputGuard } from './platform/input.js';
import { installSecurityHeaders } from './platform/security-headers.js';
import { OperationLogService } from './platform/oplog.js';
import { installRateLimits } from './platform/rate-limit.js';
import { SessionService } from './platform/sessions.js';
import { SyncLogService } from './platform/synclog.js';
import { createStorage, sweepStorageParts } from './platform/storage/index.js';
import { UserRecords } from './platform/user-records.js';
import { accountRoutes } from './modules/account/routes.js';
import { onlineRoutes } from './modules/online/routes.js';
import { messageRoutes } from './modules/messages/routes.js';
import { publicRoutes } from './modules/public/routes.js';
import { syslogRoutes } from './modules/syslog/routes.js';
import { systemRoutes } from './modules/system/routes.js';
import { workflowRoutes } from './modules/workflow/routes.js';
import { invoiceRoutes } from './modules/invoice/routes.js';
import { invoiceApportionmentRoutes } from './modules/invoice/apportionment/index.js';
import { invoiceLedgerRoutes } from './modules/invoice/ledger/routes.js';
import { incomePoolRoutes } from './modules/income/routes.js';
import { reimbursementRoutes } from './modules/reimbursement/routes.js';
import { costRoutes } from './modules/cost/routes.js';
import { tenderRoutes } from './modules/tender/routes.js';
import { simulatorWanted, sisterSimulatorRoutes } from './integrations/sister/simulator.js';

/** The business areas, each registering its own routes. Later areas add theirs here. */
const modules: RouteModule[] = [accountRoutes, syslogRoutes, onlineRoutes, messageRoutes, publicRoutes, sisterSimulatorRoutes, systemRoutes, workflowRoutes, invoiceRoutes, invoiceLedgerRoutes, invoiceApportionmentRoutes, incomePoolRoutes, reimbursementRoutes, costRoutes, tenderRoutes];

export type RouteModule = (app: FastifyInstance) => Promise<void>;

/** Fastify's typings expect Ajv's compiler factories; zod's compilers take the same arguments at run time. */
const zodCompilers = { buildValidator: () => validatorCompiler, buildSerializer: () => serializerCompiler } as unknown as NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;

export async function buildApp(config: Config, db: Db, opts: { extraModules?: RouteModule[] } = {}): Promise<FastifyInstance> {
  config = { ...config, sisterSimulator: await simulatorWanted(config, db) };
  const app = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : { level: config.logLevel, redact: ['req.headers["x-token"]', 'req.headers.authorization', 'req.headers.cookie'] },
    genReqId: () => crypto.randomUUID(),
    requestIdHeader: false,
    trustProxy: config.trustProxy,
    bodyLimit: 5 * 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors: answerFrameworkError,
    // Every route validates and serializes with zod: given as the factories, Fastify does not load
    // Ajv and fast-json-stringify (about 35 ms of start) to build compilers nobody uses (issue 30).
    schemaController: { compilersFactory: zodCompilers },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onSend', async (req, reply) => {
    // Every answer names its request for the logs, except a hashed web file served whole (cached for a
    // year, logged by URL; 60-odd of them in a first load: issue 11).
    if (reply.statusCode === 200 && String(reply.getHeader('cache-control') ?? '').includes('immutable')) return;
    reply.header('X-Request-Id', req.id);
  });

  app.decorate('db', db);
  app.decorate('appConfig', config);
  app.decorate('buildId', readBuildId(config.webDist));
  app.decorate('sessions', new SessionService(db));
  // The presence touches still waiting for their batch are written before the database closes.
  app.addHook('onClose', async () => app.sessions.flushTouches());
  app.decorate('oplog', new OperationLogService(db));
  app.decorate('synclog', new SyncLogService(db));
  app.decorate('userRecords', new UserRecords());
  app.decorate('storage', createStorage(config));
  sweepStorageParts(app);

  // First of all hooks, so that refusals by the guard carry the security headers too.
  installSecurityHeaders(app, config);
  installGuard(app);
  installRateLimits(app);
  installErrorHandling(app);
  installBodyParsing(app);
  installInputGuard(app);
  await installDocs(app);
  for (const register of [...modules, ...(opts.extraModules ?? [])]) await app.register(register);
  await installWebClient(app, config);
  await app.ready();
  return app;
}
