/**
 * Public notices (通知公告): roles 1 and 3 write, publish, edit and withdraw them; every signed-in
 * user reads the published ones (the todo call with {newPublic:true}, and the notice detail).
 */
import type { FastifyRequest } from 'fastify';
import { OperationLogType, isWorkflowAdmin, type NoticeDetail, type NoticeItem, type NoticeSaveBody, type PageResult } from '@zhyy/shared';
import type { AuthUser } from '../../platform/context.js';
import type { OperationLogService } from '../../platform/oplog.js';
import { forbidden, notFound } from '../../platform/envelope.js';
import { newId } from '../../platform/ids.js';
import { platformDb, type WfDb, type WfNoticeTable } from './tables.js';
import type { Selectable } from 'kysely';

export const NOTICE_PUBLISHED = 1;
export const NOTICE_WITHDRAWN = 0;
/** How many notices the todo call returns. */
const PUBLIC_LIMIT = 20;

const item = (n: Selectable<WfNoticeTable>): NoticeItem => ({
  id: n.id,
  title: n.title,
  infoColumnName: n.column_name,
  publishedAt: n.published_at,
  publisherName: n.publisher_name,
});
const detail = (n: Selectable<WfNoticeTable>): NoticeDetail => ({ ...item(n), content: n.content, state: n.state, updatedAt: n.updated_at });

export class NoticeService {
  constructor(
    private readonly db: WfDb,
    private readonly oplog: OperationLogService,
  ) {}

  private requireAdmin(user: AuthUser): void {
    if (!isWorkflowAdmin(user.roles)) throw forbidden();
  }

  async published(): Promise<NoticeItem[]> {
    const rows = await this.db.selectFrom('wf_notices').selectAll().where('state', '=', NOTICE_PUBLISHED).orderBy('published_at', 'desc').limit(PUBLIC_LIMIT).execute();
    return rows.map(item);
  }

  /** One notice: published ones for everyone, any for roles 1 and 3. */
  async get(id: string, user: AuthUser): Promise<NoticeDetail> {
    const n = await this.db.selectFrom('wf_notices').selectAll().where('id', '=', id).executeTakeFirst();
    if (!n || (n.state !== NOTICE_PUBLISHED && !isWorkflowAdmin(user.roles))) throw notFound('公告不存在或已撤回');
    return detail(n);
  }

  async manage(user: AuthUser, q: { pageIndex: number; pageSize: number; keyword?: string; state?: number }): Promise<PageResult<NoticeDetail>> {
    this.requireAdmin(user);
    let base = this.db.selectFrom('wf_notices');
    if (q.keyword) base = base.where((eb) => eb.or([eb('title', 'like', `%${q.keyword}%`), eb('column_name', 'like', `%${q.keyword}%`)]));
    if (q.state !== undefined) base = base.where('state', '=', q.state);
    const total = Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
    const rows = await base.selectAll().orderBy('updated_at', 'desc').limit(q.pageSize).offset((q.pageIndex - 1) * q.pageSize).execute();
    return { total, items: rows.map(detail) };
  }

  /** Creates and publishes a notice, or edits one (an edit keeps its state). */
  async save(req: FastifyRequest, user: AuthUser, body: NoticeSaveBody): Promise<NoticeDetail> {
    this.requireAdmin(user);
    const now = new Date().toISOString();
    return this.db.transaction().execute(async (trx) => {
      if (body.id) {
        const found = await trx.selectFrom('wf_notices').select('id').where('id', '=', body.id).executeTakeFirst();
        if (!found) throw notFound('公告不存在');
        await trx.updateTable('wf_notices').set({ title: body.title, column_name: body.infoColumnName, content: body.content, updated_at: now }).where('id', '=', body.id).execute();
        await this.oplog.record(req, OperationLogType.edit, `修改公告：${body.title}`, platformDb(trx));
      } else {
        body = { ...body, id: newId() };
        await trx
          .insertInto('wf_notices')
          .values({ id: body.id!, title: body.title, column_name: body.infoColumnName, content: body.content, state: NOTICE_PUBLISHED, publisher_id: user.id, publisher_name: user.name, published_at: now, created_at: now, updated_at: now })
          .execute();
        await this.oplog.record(req, OperationLogType.add, `发布公告：${body.title}`, platformDb(trx));
      }
      return detail(await trx.selectFrom('wf_notices').selectAll().where('id', '=', body.id!).executeTakeFirstOrThrow());
    });
  }

  /** Publishes (again) or withdraws a notice. */
  async setState(req: FastifyRequest, user: AuthUser, id: string, state: number): Promise<void> {
    this.requireAdmin(user);
    const now = new Date().toISOString();
    await this.db.transaction().execute(async (trx) => {
      const n = await trx.selectFrom('wf_notices').select(['title', 'state']).where('id', '=', id).executeTakeFirst();
      if (!n) throw notFound('公告不存在');
      const set = state === NOTICE_PUBLISHED ? { state, published_at: now, publisher_id: user.id, publisher_name: user.name, updated_at: now } : { state, updated_at: now };
      await trx.updateTable('wf_notices').set(set).where('id', '=', id).execute();
      await this.oplog.record(req, OperationLogType.edit, `${state === NOTICE_PUBLISHED ? '发布' : '撤回'}公告：${n.title}`, platformDb(trx));
    });
  }
}
