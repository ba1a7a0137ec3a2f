/**
 * The sister systems (office automation and project management) as the platform sees them: each
 * answers GET /todo-num/{userNo} with the user's pending count. Until real ones are configured
 * (OA_API_BASE_URL, PMS_API_BASE_URL), this simulator answers from the sister_todos table, which the
 * demo company fills.
 *
 * The count is read with the platform's session (the web client sends X-Token to a same-origin base
 * URL) and only for the caller's own login name. The simulator is served only when switched on
 * (SISTER_SIMULATOR; by default on when the database holds the demo company, off without); when it is off, base URLs
 * that still point at it are reported to the client as not configured (see `sisterLinks`).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { text } from '@zhyy/shared';
import type { Config } from '../../config.js';
import type { Db } from '../../db/index.js';
import { PUBLIC, SIGNED_IN } from '../../platform/access.js';
import { currentUser } from '../../platform/context.js';
import { forbidden, ok } from '../../platform/envelope.js';
import { typed } from '../../platform/route.js';

const SIM_PREFIX = '/sim/';

/**
 * The sister-system addresses the web client is given: those pointing at the simulator are blanked
 * when it is off, so the navbar shows 未接入 instead of asking a route that is not there.
 */
export function sisterLinks(c: Config): Pick<Config, 'oaApiBaseUrl' | 'pmsApiBaseUrl' | 'oaUrl' | 'pmsUrl'> {
  const keep = (u: string) => (c.sisterSimulator || !u.startsWith(SIM_PREFIX) ? u : '');
  return { oaApiBaseUrl: keep(c.oaApiBaseUrl), pmsApiBaseUrl: keep(c.pmsApiBaseUrl), oaUrl: keep(c.oaUrl), pmsUrl: keep(c.pmsUrl) };
}

/**
 * Whether the simulator serves: SISTER_SIMULATOR when set, else whether the database holds the demo
 * company (its app_meta row), whatever flag this start was given: a production database first set up
 * with --no-demo keeps it off when later started with plain `npm start`.
 */
export async function simulatorWanted(config: Config, db: Db): Promise<boolean> {
  if (config.sisterSimulator !== undefined) return config.sisterSimulator;
  const row = await db.kysely.selectFrom('app_meta').select('key').where('key', '=', 'demo').executeTakeFirst();
  return !!row;
}

export const SISTER_SYSTEMS = { oa: 'OA办公系统', pms: '项目管理系统' } as const;
type System = keyof typeof SISTER_SYSTEMS;

export async function sisterSimulatorRoutes(app: FastifyInstance): Promise<void> {
  if (!app.appConfig.sisterSimulator) return;
  const r = typed(app);
  for (const system of Object.keys(SISTER_SYSTEMS) as System[]) {
    const pending = (login: string) =>
      app.db.kysely
        .selectFrom('sister_todos')
        .where('system', '=', system)
        .where('login_name', '=', login.toLowerCase())
        .where('done', '=', 0);

    r.get(
      `/sim/${system}/todo-num/:userNo`,
      {
        schema: { params: z.object({ userNo: text().min(1).max(64) }), summary: `${SISTER_SYSTEMS[system]}（模拟）本人的待办数`, tags: ['外部系统模拟'] },
        config: { access: SIGNED_IN },
      },
      async (req) => {
        // Each user reads their own count, as the navbar asks it; another user's number is refused.
        if (req.params.userNo.toLowerCase() !== currentUser(req).loginName.toLowerCase()) throw forbidden();
        const row = await pending(req.params.userNo).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
        return ok(Number(row.n));
      },
    );

    // A page the navbar's link opens (a navigation carries no X-Token), so it names nobody's items.
    r.get(`/sim/${system}/`, { schema: { hide: true }, config: { access: PUBLIC } }, async (_req, reply) => {
      reply.type('text/html; charset=utf-8');
      return `<!doctype html><html lang="zh-CN"><meta charset="utf-8"><title>${SISTER_SYSTEMS[system]}（模拟）</title><body style="font-family:sans-serif;margin:2rem"><h2>${SISTER_SYSTEMS[system]}（模拟）</h2><p>这是演示用的模拟系统。本人的待办数显示在综合运营支撑平台的导航栏中。</p></body></html>`;
    });
  }
}
