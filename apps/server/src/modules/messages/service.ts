/**
 * Per-user messages (站内消息): notifyUser writes one (inside the caller's transaction when given one);
 * the rest read and mark a user's own messages. Another user's message answers 消息不存在.
 */
import type { Kysely } from 'kysely';
import { isAppPath, type MessageListQuery, type PageResult, type UserMessage } from '@zhyy/shared';
import type { Database } from '../../db/schema.js';
import { notFound } from '../../platform/envelope.js';
import { newId } from '../../platform/ids.js';
import { offsetOf } from '../../platform/listing.js';
import { nowIso } from '../../platform/time.js';
import './tables.js';

type Db = Kysely<Database>;

export interface MessageInput {
  title: string;
  content: string;
  /** A relative app path; anything else is dropped. */
  link?: string;
}

export async function notifyUser(db: Db, userId: string, m: MessageInput): Promise<string> {
  const id = newId();
  const link = m.link && isAppPath(m.link) ? m.link : '';
  await db.insertInto('user_messages').values({ id, user_id: userId, title: m.title.slice(0, 200), content: m.content.slice(0, 2000), link, created_at: nowIso(), read_at: null }).execute();
  return id;
}

export async function listMessages(db: Db, userId: string, q: MessageListQuery): Promise<PageResult<UserMessage>> {
  let base = db.selectFrom('user_messages').where('user_id', '=', userId);
  if (q.unreadOnly) base = base.where('read_at', 'is', null);
  const total = Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const rows = await base
    .selectAll()
    .orderBy((eb) => eb.case().when('read_at', 'is', null).then(0).else(1).end())
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(q.pageSize)
    .offset(offsetOf(q))
    .execute();
  return { total, items: rows.map((r) => ({ id: r.id, title: r.title, content: r.content, link: r.link, createdAt: r.created_at, readAt: r.read_at })) };
}

export async function unreadCount(db: Db, userId: string): Promise<number> {
  const r = await db.selectFrom('user_messages').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).where('read_at', 'is', null).executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Marks one of the user's messages read (again is a no-op); 消息不存在 for another user's or none. */
export async function readMessage(db: Db, userId: string, id: string): Promise<void> {
  const m = await db.selectFrom('user_messages').select(['id', 'read_at']).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (!m) throw notFound('消息不存在');
  if (!m.read_at) await db.updateTable('user_messages').set({ read_at: nowIso() }).where('id', '=', id).where('user_id', '=', userId).where('read_at', 'is', null).execute();
}

/** Marks all of the user's unread messages read; answers how many. */
export async function readAll(db: Db, userId: string): Promise<number> {
  const u = await db.updateTable('user_messages').set({ read_at: nowIso() }).where('user_id', '=', userId).where('read_at', 'is', null).executeTakeFirst();
  return Number(u.numUpdatedRows);
}
