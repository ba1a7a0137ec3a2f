/**
 * /api/useronline/*: presence. heartBeat answers how many are online (the session is marked seen by
 * resolving its token, at most every 30 s: platform/sessions.ts);
 * list shows who is online now (role 1) and force-logout revokes a session's token at once.
 */
import type { FastifyInstance } from 'fastify';
import { ForceLogoutBody, ONLINE_WINDOW_MS, OnlineListQuery, OperationLogType, type HeartBeatResult, type OnlineSession, type PageResult } from '@zhyy/shared';
import { SIGNED_IN, pages } from '../../platform/access.js';
import { currentUser } from '../../platform/context.js';
import { notFound, ok, refuse } from '../../platform/envelope.js';
import { contains, offsetOf } from '../../platform/listing.js';
import { typed } from '../../platform/route.js';
import { isoBefore, nowIso } from '../../platform/time.js';
import { describeAgent } from '../system/agent.js';
import { locateIp } from '../system/geoip.js';

const ONLINE_PAGE = pages('/system/useronline/list');

export async function onlineRoutes(app: FastifyInstance): Promise<void> {
  const r = typed(app);
  const tags = ['在线用户'];

  r.post(
    '/api/useronline/heartBeat',
    { schema: { summary: '心跳：标记会话在线，返回 r.onlineCount（2分钟内活跃的会话数）', tags }, config: { access: SIGNED_IN } },
    async (req) => {
      const result: HeartBeatResult = { onlineCount: await app.sessions.onlineCount() };
      return ok(result);
    },
  );

  r.post('/api/useronline/list', { schema: { body: OnlineListQuery, summary: '在线用户：2分钟内有心跳的会话', tags }, config: { access: ONLINE_PAGE } }, async (req) => {
    const q = req.body;
    const me = currentUser(req);
    let base = app.db.kysely
      .selectFrom('sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .leftJoin('departments as d', 'd.id', 'u.dept_id')
      .where('s.revoked_at', 'is', null)
      .where('s.expires_at', '>', nowIso())
      .where('s.last_seen_at', '>=', isoBefore(ONLINE_WINDOW_MS))
      .where('u.status', '=', 1);
    if (q.keyword) {
      const k = q.keyword;
      base = base.where(({ or, ref }) => or([contains(ref('u.name'), k), contains(ref('u.login_name'), k), contains(ref('s.ip'), k)]));
    }
    const total = Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const rows = await base
      .select(['s.id', 's.user_id', 's.ip', 's.user_agent', 's.created_at', 's.last_seen_at', 'u.login_name', 'u.name', 'd.name as dept_name'])
      .orderBy('s.last_seen_at', 'desc')
      .orderBy('s.id')
      .limit(q.pageSize)
      .offset(offsetOf(q))
      .execute();
    const items: OnlineSession[] = rows.map((s) => {
      const agent = describeAgent(s.user_agent);
      return {
        sessionId: s.id,
        userId: s.user_id,
        loginName: s.login_name,
        name: s.name,
        deptName: s.dept_name ?? '',
        ip: s.ip,
        location: locateIp(s.ip).location,
        browser: agent.browser,
        os: agent.os,
        signedInAt: s.created_at,
        lastSeenAt: s.last_seen_at,
        isSelf: s.id === me.sessionId,
      };
    });
    const result: PageResult<OnlineSession> = { items, total };
    return ok(result);
  });

  r.post('/api/useronline/force-logout', { schema: { body: ForceLogoutBody, summary: '强制下线：立即吊销该会话的令牌', tags }, config: { access: ONLINE_PAGE } }, async (req) => {
    const me = currentUser(req);
    if (req.body.sessionId === me.sessionId) throw refuse('不能强制下线当前会话，请使用“退出登录”');
    const s = await app.db.kysely
      .selectFrom('sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select(['s.id', 's.ip', 's.revoked_at', 'u.name', 'u.login_name'])
      .where('s.id', '=', req.body.sessionId)
      .executeTakeFirst();
    if (!s) throw notFound('会话不存在');
    if (s.revoked_at) throw refuse('该会话已经结束');
    await app.sessions.revoke(s.id, 'forced');
    await app.oplog.record(req, OperationLogType.logout, `强制用户 ${s.name}（${s.login_name}）下线，IP ${s.ip || '未知'}`);
    return ok(undefined, `已强制 ${s.name} 下线`);
  });
}
