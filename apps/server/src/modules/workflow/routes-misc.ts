/** Notices, personal settings, the approvals chart and form attachments. */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AttachmentIdBody, NoticeIdBody, NoticeListBody, NoticeSaveBody, PersonalSaveBody, StatsBody, UploadBody } from '@zhyy/shared';
import { currentUser } from '../../platform/context.js';
import { ok } from '../../platform/envelope.js';
import { typed } from '../../platform/route.js';
import { sendUserFile } from '../../platform/userFiles.js';
import { NOTICE_PUBLISHED, NOTICE_WITHDRAWN } from './notices.js';
import { signedIn, WF, wfTags as tags } from './paths.js';
import type { WorkflowService } from './service.js';

export async function noticeAndPersonalRoutes(app: FastifyInstance, svc: WorkflowService): Promise<void> {
  const r = typed(app);

  r.post(`${WF}/notice/detail`, { schema: { body: NoticeIdBody, summary: '公告详情', tags }, config: signedIn }, async (req) => ok(await svc.notices.get(req.body.id, currentUser(req))));

  r.post(`${WF}/notice/list`, { schema: { body: NoticeListBody, summary: '公告管理列表（角色1、3）', tags }, config: signedIn }, async (req) =>
    ok(await svc.notices.manage(currentUser(req), req.body)),
  );

  r.post(`${WF}/notice/save`, { schema: { body: NoticeSaveBody, summary: '发布新公告或修改公告（角色1、3）', tags }, config: signedIn }, async (req) =>
    ok(await svc.notices.save(req, currentUser(req), req.body), req.body.id ? '公告已修改' : '公告已发布'),
  );

  r.post(`${WF}/notice/publish`, { schema: { body: NoticeIdBody, summary: '重新发布公告（角色1、3）', tags }, config: signedIn }, async (req) => {
    await svc.notices.setState(req, currentUser(req), req.body.id, NOTICE_PUBLISHED);
    return ok(undefined, '公告已发布');
  });

  r.post(`${WF}/notice/withdraw`, { schema: { body: NoticeIdBody, summary: '撤回公告（角色1、3）', tags }, config: signedIn }, async (req) => {
    await svc.notices.setState(req, currentUser(req), req.body.id, NOTICE_WITHDRAWN);
    return ok(undefined, '公告已撤回');
  });

  r.post(`${WF}/personal/get`, { schema: { body: z.object({}), summary: '个人设置', tags }, config: signedIn }, async (req) => ok(await svc.personal.get(currentUser(req))));

  r.post(`${WF}/personal/save`, { schema: { body: PersonalSaveBody, summary: '保存个人设置（手机、邮箱、默认审批意见）', tags }, config: signedIn }, async (req) =>
    ok(await svc.personal.save(req, currentUser(req), req.body), '保存成功'),
  );

  r.post(`${WF}/stats/approvals`, { schema: { body: StatsBody, summary: '我近N天每天的审批数量', tags }, config: signedIn }, async (req) =>
    ok(await svc.personal.approvals(currentUser(req), req.body.days)),
  );

  r.post(`${WF}/attachment/upload`, { schema: { body: UploadBody, summary: '上传表单附件（base64，单个不超过3MB）', tags }, config: signedIn }, async (req) =>
    ok(await svc.personal.upload(req, currentUser(req), req.body), '上传成功'),
  );

  r.post(`${WF}/attachment/download`, { schema: { body: AttachmentIdBody, summary: '下载表单附件', tags }, config: signedIn }, async (req, reply) => {
    const file = await svc.personal.download(req, currentUser(req), req.body.id, svc.details);
    return sendUserFile(reply, file);
  });
}
