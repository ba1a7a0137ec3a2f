/**
 * Request limits shared by every app server on one database. A route declares
 * `config: { rateLimit: { name, max, windowMs, key? } }`; each of its requests counts one in the row
 * (name, key) of `rate_limits` with a single upsert, so all servers see the same count. Beyond `max`
 * within the window the request is refused before its body is read: 429, 30000 请求过于频繁，请稍后再试.
 * A key's window starts at its first request and lasts windowMs; ended windows are deleted now and then.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { Messages } from '@zhyy/shared';
import type { Db } from '../db/index.js';
import { refuse } from './envelope.js';

export interface RateLimitRule {
  /** The limit's name, e.g. 'login': counts of different limits never mix. */
  name: string;
  /** Requests allowed per key within one window. */
  max: number;
  windowMs: number;
  /** Whom a request counts against; its IP unless told otherwise (e.g. the signed-in user's id). */
  key?: (req: FastifyRequest) => string;
}

export class RateLimiter {
  private nextSweep = 0;

  constructor(
    private readonly db: Db,
    private readonly sweepEveryMs = 60_000,
  ) {}

  /** Counts one request of `key` under the limit `name`: its number in the current window, and when that window ends. */
  async hit(name: string, key: string, windowMs: number, now: Date = new Date()): Promise<{ count: number; windowEndsAt: string }> {
    const at = now.toISOString();
    const running = sql<boolean>`rate_limits.window_ends_at > ${at}`;
    const row = await this.db.kysely
      .insertInto('rate_limits')
      .values({ name, key, n: 1, window_ends_at: new Date(now.getTime() + windowMs).toISOString() })
      .onConflict((oc) =>
        oc.columns(['name', 'key']).doUpdateSet({
          n: sql<number>`case when ${running} then rate_limits.n + 1 else 1 end`,
          window_ends_at: sql<string>`case when ${running} then rate_limits.window_ends_at else excluded.window_ends_at end`,
        }),
      )
      .returning(['n', 'window_ends_at'])
      .executeTakeFirstOrThrow();
    await this.sweep(now);
    return { count: row.n, windowEndsAt: row.window_ends_at };
  }

  /** At most once a minute per server: forget the windows that have ended. */
  private async sweep(now: Date): Promise<void> {
    if (now.getTime() < this.nextSweep) return;
    this.nextSweep = now.getTime() + this.sweepEveryMs;
    await this.db.kysely.deleteFrom('rate_limits').where('window_ends_at', '<=', now.toISOString()).execute();
  }
}

export function installRateLimits(app: FastifyInstance): void {
  app.decorate('rateLimiter', new RateLimiter(app.db));
  app.addHook('onRequest', async (req, reply) => {
    const rule = req.routeOptions.config?.rateLimit;
    if (!rule) return;
    const { count, windowEndsAt } = await app.rateLimiter.hit(rule.name, rule.key ? rule.key(req) : req.ip, rule.windowMs);
    if (count <= rule.max) return;
    reply.header('Retry-After', String(Math.max(1, Math.ceil((Date.parse(windowEndsAt) - Date.now()) / 1000))));
    throw refuse(Messages.tooManyRequests, 429);
  });
}
