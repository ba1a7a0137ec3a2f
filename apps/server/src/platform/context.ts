/** What the platform adds to Fastify's types: the app's services and the signed-in user on a request. */
import type { Config } from '../config.js';
import type { Db } from '../db/index.js';
import type { Access } from './access.js';
import type { OperationLogService } from './oplog.js';
import type { RateLimiter, RateLimitRule } from './rate-limit.js';
import type { SessionService } from './sessions.js';
import type { FileStorage } from './storage/index.js';
import type { SyncLogService } from './synclog.js';
import type { UserRecords } from './user-records.js';
import type { AuthUser } from './auth-user.js';

export type { AuthUser } from './auth-user.js';

export interface RouteCatalogEntry {
  method: string;
  url: string;
  access: Access;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** A limit shared by all app servers (platform/rate-limit.ts). */
    rateLimit?: RateLimitRule;
  }
  interface FastifyRequest {
    user: AuthUser | null;
  }
  interface FastifyInstance {
    db: Db;
    appConfig: Config;
    sessions: SessionService;
    oplog: OperationLogService;
    synclog: SyncLogService;
    rateLimiter: RateLimiter;
    /** What each area holds about a user (asked before deleting one). */
    userRecords: UserRecords;
    /** Attachments and exports (platform/storage: the data folder or an S3-compatible store). */
    storage: FileStorage;
    /** Every registered route with its access rule (the permission test walks it). */
    routeCatalog: RouteCatalogEntry[];
    buildId: string;
  }
}

/** The signed-in user of a request behind a non-public route (the guard guarantees it). */
export function currentUser(req: { user: AuthUser | null }): AuthUser {
  if (!req.user) throw new Error('currentUser() on a public route');
  return req.user;
}
