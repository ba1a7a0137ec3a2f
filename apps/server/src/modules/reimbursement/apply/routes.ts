/**
 * 费用报销, applying (issue 15): /api/reimbursement/my/* (my bills, the editor's options),
 * /bill/* (save, submit, withdraw, delete, read, 核定), /invoice/* (the pool picker, the upload on the
 * spot, a line's invoice file), /attachment/*, /profile/*. Everyone applies (access.mine); the bill's
 * detail for the ledger readers (roles 1, 12, 16) through /reimbursement/detail/:id.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  ReimbAcceptDuplicateBody,
  ReimbApproveLineBody,
  ReimbAttachmentUploadBody,
  ReimbCandidatesBody,
  ReimbFileBody,
  ReimbIdBody,
  ReimbListQuery,
  ReimbPeerBody,
  ReimbProfileSaveBody,
  ReimbSaveBody,
  ReimbGrade,
  UPLOAD_MAX_BYTES,
  UploadRecogniseBody,
  UploadSaveBody,
} from '@zhyy/shared';
import { currentUser } from '../../../platform/context.js';
import { ok } from '../../../platform/envelope.js';
import { typed } from '../../../platform/route.js';
import { sendUserFile } from '../../../platform/userFiles.js';
import { recogniseUpload, saveUpload } from '../../income/intake/upload.js';
import { access, tags } from '../paths.js';
import { gradeOf, profileOf } from '../settings/read.js';
import { candidates } from './invoices.js';
import { applyOptions, billDetail, myBills } from './queries.js';
import { BillFiles } from './files.js';
import { acceptDuplicate, peerView } from './duplicates.js';
import { ApplyService, RECORD_TYPE } from './service.js';

const P = '/api/reimbursement';
const uploadLimit = Math.ceil(UPLOAD_MAX_BYTES * 1.4) + 65_536;
const attachmentLimit = Math.ceil(10 * 1024 * 1024 * 1.4) + 65_536;

export async function applyRoutes(app: FastifyInstance): Promise<void> {
  const svc = new ApplyService(app);
  const files = new BillFiles(app, svc);
  app.workflow.onOutcome(RECORD_TYPE, (e) => svc.onOutcome(e));
  const r = typed(app);
  const mine = access.mine;

  r.post(`${P}/my/list`, { schema: { body: ReimbListQuery, summary: '我的报销：按单号、审批状态、创建日期、金额筛选，合计筛选结果的报销金额与核定金额', tags }, config: mine }, async (req) =>
    ok(await myBills(app, currentUser(req), req.body)),
  );
  r.post(`${P}/my/options`, { schema: { body: z.object({}), summary: '填报销单所需：启用的费用类别（默认税率、差旅标准类型）、我的职级和默认收款信息', tags }, config: mine }, async (req) =>
    ok(await applyOptions(app, currentUser(req))),
  );

  r.post(`${P}/bill/save`, { schema: { body: ReimbSaveBody, summary: '保存报销单草稿（新建或修改草稿/已退回的单据）：表头、费用明细、发票占用；金额合计由系统计算', tags }, config: mine }, async (req) => {
    const a = await svc.save(req, currentUser(req), req.body);
    return ok(a, `报销单 ${a.billNo} 已保存`);
  });
  r.post(`${P}/bill/submit`, { schema: { body: ReimbIdBody, summary: '提交报销单审批（费用报销审批 FY01）：复核各行检查，重新占用发票；已退回的单据重新提交', tags }, config: mine }, async (req) => {
    const a = await svc.submit(req, currentUser(req), req.body.id);
    return ok(a, a.handlers.length ? `已提交，待${a.nodeName}（${a.handlers.join('、')}）审批` : '已提交');
  });
  r.post(`${P}/bill/withdraw`, { schema: { body: ReimbIdBody, summary: '撤回审批中的报销单（审批人处理前），发票释放', tags }, config: mine }, async (req) => {
    await svc.withdraw(req, currentUser(req), req.body.id);
    return ok(null, '报销单已撤回');
  });
  r.post(`${P}/bill/delete`, { schema: { body: ReimbIdBody, summary: '删除报销单草稿，发票释放', tags }, config: mine }, async (req) => {
    const no = await svc.remove(req, currentUser(req), req.body.id);
    return ok(null, `报销单 ${no} 已删除`);
  });
  r.post(`${P}/bill/get`, { schema: { body: ReimbIdBody, summary: '报销单详情（申请人、审批人；角色1、12、16）：表头、明细与检查、发票、附件、审批轨迹、入账记录', tags }, config: mine }, async (req) => {
    const user = currentUser(req);
    return ok(await billDetail(app, svc, user, await svc.readable(user, req.body.id)));
  });
  r.post(`${P}/bill/detail`, { schema: { body: ReimbIdBody, summary: '报销单详情（报销台账）：与申请人所见相同，另含入账记录', tags }, config: access.ledger }, async (req) => {
    const user = currentUser(req);
    return ok(await billDetail(app, svc, user, await svc.readable(user, req.body.id)));
  });
  r.post(`${P}/bill/approve-line`, { schema: { body: ReimbApproveLineBody, summary: '核定：当前审批人调减一行的核定金额（不高于报销金额，不小于0），须填写意见', tags }, config: mine }, async (req) => {
    const a = await svc.approveLine(req, currentUser(req), req.body);
    return ok(a, '核定金额已保存');
  });

  r.post(`${P}/bill/accept-duplicate`, { schema: { body: ReimbAcceptDuplicateBody, summary: '接受疑似重复报销：当前审批人核实后接受一行与另一报销单费用的匹配，须填写意见（记录在案）', tags }, config: mine }, async (req) => {
    const a = await acceptDuplicate(app, svc, req, currentUser(req), req.body);
    return ok(a, a.sameBill ? `已接受与本单第${a.otherLineNo}行的疑似重复` : `已接受与报销单 ${a.otherBillNo} 的疑似重复`);
  });
  r.post(`${P}/bill/peer`, { schema: { body: ReimbPeerBody, summary: '疑似重复报销的另一张报销单（本单审批人、角色1、12、16可见）：表头与明细，不含收款账号、文件与审批轨迹', tags }, config: mine }, async (req) =>
    ok(await peerView(app, currentUser(req), req.body.id, req.body.peerId)),
  );

  r.post(`${P}/invoice/candidates`, { schema: { body: ReimbCandidatesBody, summary: '可选发票：本人上传的发票和本人的客票（可用，或已被本单占用；不含作废、红冲）', tags }, config: mine }, async (req) => {
    const user = currentUser(req);
    let billNo: string | null = null;
    if (req.body.billId) billNo = (await svc.readable(user, req.body.billId)).bill_no;
    return ok(await candidates(app.db.kysely, user, billNo, req.body.keyword, req.body.invoiceId));
  });
  r.post(`${P}/invoice/upload-recognise`, { bodyLimit: uploadLimit, schema: { body: UploadRecogniseBody, summary: '报销时上传发票并识别（一个文件，base64）：答识别出的字段和待核对的票面', tags }, config: mine }, async (req) =>
    ok(await recogniseUpload(app, req, req.body)),
  );
  r.post(`${P}/invoice/upload-save`, { bodyLimit: uploadLimit, schema: { body: UploadSaveBody, summary: '报销时保存上传的发票：核对后的票面进入进项票池（同一发票合并），之后可选为报销依据', tags }, config: mine }, async (req) => {
    const a = await saveUpload(app, req, req.body);
    return ok(a, a.message);
  });
  r.post(`${P}/invoice/file`, { schema: { body: ReimbFileBody, summary: '报销发票的文件（本人的发票，或可查看的报销单所用发票）', tags }, config: mine }, async (req, reply) =>
    sendUserFile(reply, await files.invoiceFile(req, currentUser(req), req.body.id)),
  );

  r.post(`${P}/attachment/upload`, { bodyLimit: attachmentLimit, schema: { body: ReimbAttachmentUploadBody, summary: '上传报销单附件（base64，单个不超过10MB，每单最多20个）', tags }, config: mine }, async (req) =>
    ok(await files.uploadAttachment(req, currentUser(req), req.body), '上传成功'),
  );
  r.post(`${P}/attachment/delete`, { schema: { body: ReimbFileBody, summary: '删除报销单附件（草稿、已退回）', tags }, config: mine }, async (req) => {
    await files.deleteAttachment(req, currentUser(req), req.body.id);
    return ok(null, '附件已删除');
  });
  r.post(`${P}/attachment/download`, { schema: { body: ReimbFileBody, summary: '下载报销单附件（可查看该报销单的人）', tags }, config: mine }, async (req, reply) =>
    sendUserFile(reply, await files.attachmentFile(req, currentUser(req), req.body.id)),
  );

  r.post(`${P}/profile/get`, { schema: { body: z.object({}), summary: '我的报销资料：职级、默认收款人、开户行、账号', tags }, config: mine }, async (req) => {
    const user = currentUser(req);
    const p = await profileOf(app.db.kysely, user.id);
    const grade = await gradeOf(app.db.kysely, user.id);
    return ok({ grade, gradeName: ReimbGrade.label(grade), payeeName: p?.payee_name ?? user.name, payeeBank: p?.payee_bank ?? '', payeeAccount: p?.payee_account ?? '' });
  });
  r.post(`${P}/profile/save`, { schema: { body: ReimbProfileSaveBody, summary: '保存我的默认收款信息', tags }, config: mine }, async (req) => {
    await svc.saveProfile(app.db.kysely, currentUser(req).id, req.body);
    return ok(null, '保存成功');
  });
}
