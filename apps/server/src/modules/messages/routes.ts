/** /api/messages/*: every signed-in user, own messages only (service.ts). */
import type { FastifyInstance } from 'fastify';
import { MessageListQuery, MessageReadBody, type MessageUnreadCount } from '@zhyy/shared';
import { SIGNED_IN } from '../../platform/access.js';
import { currentUser } from '../../platform/context.js';
import { ok } from '../../platform/envelope.js';
import { typed } from '../../platform/route.js';
import { listMessages, readAll, readMessage, unreadCount } from './service.js';

export async function messageRoutes(app: FastifyInstance): Promise<void> {
  const r = typed(app);
  const tags = ['站内消息'];
  const db = app.db.kysely;

  r.post('/api/messages/list', { schema: { body: MessageListQuery, summary: '我的消息：未读在前，新的在前', tags }, config: { access: SIGNED_IN } }, async (req) =>
    ok(await listMessages(db, currentUser(req).id, req.body)),
  );

  r.post('/api/messages/unread-count', { schema: { summary: '我的未读消息数', tags }, config: { access: SIGNED_IN } }, async (req) => {
    const result: MessageUnreadCount = { unread: await unreadCount(db, currentUser(req).id) };
    return ok(result);
  });

  r.post('/api/messages/read', { schema: { body: MessageReadBody, summary: '标记一条消息已读', tags }, config: { access: SIGNED_IN } }, async (req) => {
    await readMessage(db, currentUser(req).id, req.body.id);
    return ok(undefined, '已读');
  });

  r.post('/api/messages/read-all', { schema: { summary: '全部标记已读', tags }, config: { access: SIGNED_IN } }, async (req) => {
    const n = await readAll(db, currentUser(req).id);
    return ok({ count: n }, n ? `已将${n}条消息标记为已读` : '没有未读消息');
  });
}
