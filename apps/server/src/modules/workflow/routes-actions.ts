/** The actions on an instance: each one refused with 30000 and a Chinese reason when not allowed. */
import type { FastifyInstance } from 'fastify';
import { AdminDeleteBody, AdminShiftBody, CcBody, PressBody, ReturnBody, SaveDraftBody, SendBody, ShiftBody, StartBody, WorkBody } from '@zhyy/shared';
import { currentUser } from '../../platform/context.js';
import { ok } from '../../platform/envelope.js';
import { typed } from '../../platform/route.js';
import { signedIn, WF, wfTags as tags } from './paths.js';
import { movedMessage, type WorkflowService } from './service.js';

export async function actionRoutes(app: FastifyInstance, svc: WorkflowService): Promise<void> {
  const r = typed(app);

  r.post(`${WF}/savedraft`, { schema: { body: SaveDraftBody, summary: '保存草稿（新建或修改自己的草稿）', tags }, config: signedIn }, async (req) =>
    ok(await svc.saveDraft(req, currentUser(req), req.body), '草稿已保存'),
  );

  r.post(`${WF}/start`, { schema: { body: StartBody, summary: '发起流程（新建，或提交自己的草稿）', tags }, config: signedIn }, async (req) => {
    const m = await svc.start(req, currentUser(req), req.body);
    return ok(m, movedMessage(m));
  });

  r.post(`${WF}/send`, { schema: { body: SendBody, summary: '同意并发送到下一节点（仅当前处理人）', tags }, config: signedIn }, async (req) => {
    const m = await svc.send(req, currentUser(req), req.body);
    return ok(m, movedMessage(m));
  });

  r.post(`${WF}/return`, { schema: { body: ReturnBody, summary: '退回到已经过的节点（仅当前处理人，须填写原因）', tags }, config: signedIn }, async (req) => {
    const m = await svc.returnTo(req, currentUser(req), req.body);
    return ok(m, `已退回至「${m.nodeName}」`);
  });

  r.post(`${WF}/shift`, { schema: { body: ShiftBody, summary: '移交给他人处理（仅当前处理人）', tags }, config: signedIn }, async (req) => {
    const m = await svc.shift(req, currentUser(req), req.body);
    return ok(m, '已移交');
  });

  r.post(`${WF}/undo`, { schema: { body: WorkBody, summary: '撤销自己最近一次发送（下一节点尚未处理时）', tags }, config: signedIn }, async (req) => {
    const m = await svc.undo(req, currentUser(req), req.body.workId);
    return ok(m, '已撤销发送');
  });

  r.post(`${WF}/withdraw`, { schema: { body: WorkBody, summary: '发起人撤回（无人处理前），流程回到草稿', tags }, config: signedIn }, async (req) => {
    const m = await svc.withdraw(req, currentUser(req), req.body.workId);
    return ok(m, '已撤回，流程已回到草稿');
  });

  r.post(`${WF}/press`, { schema: { body: PressBody, summary: '催办当前处理人（发起人，10分钟一次）', tags }, config: signedIn }, async (req) => {
    const names = await svc.press(req, currentUser(req), req.body.workId, req.body.note);
    return ok({ names }, `已催办：${names.join('、')}`);
  });

  r.post(`${WF}/cc`, { schema: { body: CcBody, summary: '抄送（发起人或处理人）', tags }, config: signedIn }, async (req) => {
    const names = await svc.cc(req, currentUser(req), req.body);
    return ok({ names }, `已抄送：${names.join('、')}`);
  });

  r.post(`${WF}/delete`, { schema: { body: WorkBody, summary: '删除自己的草稿', tags }, config: signedIn }, async (req) => {
    await svc.deleteDraft(req, currentUser(req), req.body.workId);
    return ok(undefined, '草稿已删除');
  });

  r.post(`${WF}/admin/shift`, { schema: { body: AdminShiftBody, summary: '管理员移交卡住的流程（角色1、3，须填写原因并记录日志）', tags }, config: signedIn }, async (req) => {
    const m = await svc.adminShift(req, currentUser(req), req.body);
    return ok(m, `已移交给${m.handlers.join('、')}`);
  });

  r.post(`${WF}/admin/delete`, { schema: { body: AdminDeleteBody, summary: '管理员删除流程（角色1、3，须填写原因并记录日志）', tags }, config: signedIn }, async (req) => {
    await svc.adminDelete(req, currentUser(req), req.body.workId, req.body.reason);
    return ok(undefined, '流程已删除');
  });
}
