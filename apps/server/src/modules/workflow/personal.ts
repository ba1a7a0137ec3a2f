/**
 * The signed-in user's own things: 个人设置 (phone, email, default approval opinion), the approvals
 * chart of the workbench, and form attachments (kept in the database, so any app server can serve
 * them; read by their uploader and by whoever may read the instance they belong to).
 */
import crypto from 'node:crypto';
import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import { OperationLogType, type ApprovalStats, type PersonalSaveBody, type PersonalSettings } from '@zhyy/shared';
import type { AuthUser } from '../../platform/context.js';
import type { OperationLogService } from '../../platform/oplog.js';
import { forbidden, notFound, refuse } from '../../platform/envelope.js';
import { newId } from '../../platform/ids.js';
import { checkUpload } from '../../platform/userFiles.js';
import type { WorkflowDetails } from './detail.js';
import { platformDb, type WfDb } from './tables.js';

const MAX_FILE_BYTES = 3 * 1024 * 1024;
const SHANGHAI_MS = 8 * 3600_000;
const shanghaiDay = (t: number) => new Date(t + SHANGHAI_MS).toISOString().slice(0, 10);

export class PersonalService {
  constructor(
    private readonly db: WfDb,
    private readonly oplog: OperationLogService,
  ) {}

  async get(user: AuthUser): Promise<PersonalSettings> {
    const u = await this.db.selectFrom('users').select(['phone', 'email']).where('id', '=', user.id).executeTakeFirstOrThrow();
    const s = await this.db.selectFrom('wf_user_settings').select('default_opinion').where('user_id', '=', user.id).executeTakeFirst();
    return { name: user.name, loginName: user.loginName, deptName: user.deptName, position: user.position, phone: u.phone, email: u.email, defaultOpinion: s?.default_opinion ?? '' };
  }

  async save(req: FastifyRequest, user: AuthUser, body: PersonalSaveBody): Promise<PersonalSettings> {
    const now = new Date().toISOString();
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('users').set({ phone: body.phone, email: body.email, updated_at: now }).where('id', '=', user.id).execute();
      const has = await trx.selectFrom('wf_user_settings').select('user_id').where('user_id', '=', user.id).executeTakeFirst();
      if (has) await trx.updateTable('wf_user_settings').set({ default_opinion: body.defaultOpinion, updated_at: now }).where('user_id', '=', user.id).execute();
      else await trx.insertInto('wf_user_settings').values({ user_id: user.id, default_opinion: body.defaultOpinion, updated_at: now }).execute();
      await this.oplog.record(req, OperationLogType.edit, '修改个人设置', platformDb(trx));
    });
    return this.get(user);
  }

  /** The user's approvals (send) and returns per day over the last `days` days, Asia/Shanghai days. */
  async approvals(user: AuthUser, days: number, now = new Date()): Promise<ApprovalStats> {
    const today = Date.parse(`${shanghaiDay(now.getTime())}T00:00:00+08:00`);
    const since = new Date(today - (days - 1) * 86400_000).toISOString();
    const rows = await this.db
      .selectFrom('wf_tracks')
      .select(['action', 'created_at'])
      .where('actor_id', '=', user.id)
      .where('created_at', '>=', since)
      .where('action', 'in', ['send', 'return'])
      .execute();
    const byDay = new Map<string, { send: number; return: number }>();
    for (let i = days - 1; i >= 0; i--) byDay.set(shanghaiDay(today - i * 86400_000), { send: 0, return: 0 });
    for (const r of rows) {
      const d = byDay.get(shanghaiDay(Date.parse(r.created_at)));
      if (d) d[r.action as 'send' | 'return'] += 1;
    }
    return { days: [...byDay].map(([day, c]) => ({ day, ...c })) };
  }

  async upload(req: FastifyRequest, user: AuthUser, body: { name: string; type: string; content: string }) {
    const bytes = Buffer.from(body.content, 'base64');
    if (bytes.length === 0) throw refuse('文件为空');
    if (bytes.length > MAX_FILE_BYTES) throw refuse('单个文件不能超过3MB');
    // Checked under the name it is stored as ('evil.html/' would otherwise pass and be kept as 'evil.html').
    const name = path.basename(body.name).slice(0, 200);
    if (!name) throw refuse('文件名不能为空');
    checkUpload(bytes, name);
    const sha256 = crypto.createHash('sha256').update(bytes).digest('hex');
    const id = newId();
    await this.db
      .insertInto('wf_attachments')
      .values({ id, sha256, name, mime: body.type || 'application/octet-stream', size: bytes.length, uploader_id: user.id, work_id: null, content: bytes.toString('base64'), created_at: new Date().toISOString() })
      .execute();
    await this.oplog.record(req, OperationLogType.upload, `上传流程附件：${name}`);
    return { id, name, size: bytes.length };
  }

  /** The file of an attachment for its uploader or for readers of its instance. */
  async download(req: FastifyRequest, user: AuthUser, id: string, details: WorkflowDetails) {
    const a = await this.db.selectFrom('wf_attachments').selectAll().where('id', '=', id).executeTakeFirst();
    if (!a) throw notFound('附件不存在');
    if (a.uploader_id !== user.id) {
      if (a.work_id === null) throw forbidden();
      await details.visible(Number(a.work_id), user);
    }
    await this.oplog.record(req, OperationLogType.download, `下载流程附件：${a.name}${a.work_id === null ? '' : `（流程 ${a.work_id}）`}`);
    return { name: a.name, mime: a.mime, content: Buffer.from(a.content, 'base64') };
  }
}
