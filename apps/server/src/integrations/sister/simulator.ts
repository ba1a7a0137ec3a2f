/**
 * The sister systems (office automation and project management) as the platform sees them: each
 * answers GET /todo-num/{userNo} with the user's pending count. Until real ones are configured
 * (OA_API_BASE_URL, PMS_API_BASE_URL), this simulator answers from the sister_todos table, which the
 * demo company fills; its home page lists a user's pending items.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { PUBLIC } from '../../platform/access.js';
import { ok } from '../../platform/envelope.js';
import { typed } from '../../platform/route.js';

export const SISTER_SYSTEMS = { oa: 'OA办公系统', pms: '项目管理系统' } as const;
type System = keyof typeof SISTER_SYSTEMS;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export async function sisterSimulatorRoutes(app: FastifyInstance): Promise<void> {
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
        schema: { params: z.object({ userNo: z.string().min(1).max(64) }), summary: `${SISTER_SYSTEMS[system]}（模拟）待办数`, tags: ['外部系统模拟'] },
        config: { access: PUBLIC },
      },
      async (req) => {
        const row = await pending(req.params.userNo).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
        return ok(Number(row.n));
      },
    );

    r.get(
      `/sim/${system}/`,
      { schema: { querystring: z.object({ user: z.string().max(64).optional() }), hide: true }, config: { access: PUBLIC } },
      async (req, reply) => {
        const user = req.query.user ?? '';
        const rows = user ? await pending(user).select(['title', 'created_at']).orderBy('created_at', 'desc').limit(100).execute() : [];
        const items = rows.map((t) => `<li>${escapeHtml(t.title)} <small>${escapeHtml(t.created_at.slice(0, 10))}</small></li>`).join('');
        const body = user ? (items ? `<ul>${items}</ul>` : '<p>没有待办事项。</p>') : '<p>请从综合运营支撑平台的导航栏进入。</p>';
        reply.type('text/html; charset=utf-8');
        return `<!doctype html><html lang="zh-CN"><meta charset="utf-8"><title>${SISTER_SYSTEMS[system]}（模拟）</title><body style="font-family:sans-serif;margin:2rem"><h2>${SISTER_SYSTEMS[system]}（模拟）</h2><p>${escapeHtml(user)} 的待办</p>${body}</body></html>`;
      },
    );
  }
}
