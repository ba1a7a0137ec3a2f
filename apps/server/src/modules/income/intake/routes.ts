/**
 * Incoming invoices, intake (issue 13): 采集 on demand (/api/income/pool/collect) and the collection
 * job (app.incomeJob), 上传识别 (/upload-recognise, one file a call; /upload-save), 手工录入 (/save), 查验
 * (/verify, /verify-history). Collection and verification from the pool pages (roles 1, 13); upload also from
 * the 进项发票编辑 page (/invoice-entry/edit/:id, roles 1, 13, 14, 16).
 */
import type { FastifyInstance } from 'fastify';
import { CollectBody, CollectMessages, CollectProgressBody, OperationLogType, PoolEntryBody, PoolIdBody, UPLOAD_MAX_BYTES, UploadRecogniseBody, UploadSaveBody, VerifyBody } from '@zhyy/shared';
import { pages } from '../../../platform/access.js';
import { currentUser } from '../../../platform/context.js';
import { ok } from '../../../platform/envelope.js';
import { typed } from '../../../platform/route.js';
import type { InvoiceSettings } from '../../invoice/settings/service.js';
import { CollectTasks } from './collect-task.js';
import { saveManual } from './entry.js';
import { IncomeJob } from './job.js';
import { access, POOL, tags } from '../pool/access.js';
import { recogniseUpload, saveUpload } from './upload.js';
import { verifyHistory, verifyInvoices } from './verify.js';

/** Upload: from the pool list and from the incoming-invoice edit page. */
const uploadAccess = { access: pages(POOL.list, '/invoice-entry/edit/:id') };
const uploadLimit = Math.ceil(UPLOAD_MAX_BYTES * 1.4) + 65_536;

export async function intakeRoutes(app: FastifyInstance, settings: InvoiceSettings): Promise<void> {
  const job = new IncomeJob({ db: app.db, log: app.log, settings });
  app.decorate('incomeJob', job);
  app.addHook('onReady', async () => job.start());
  app.addHook('onClose', async () => job.stop());
  const tasks = new CollectTasks({ db: app.db, log: app.log, settings });
  app.decorate('incomeCollectTasks', tasks);
  // A task left running by a server that stopped without finishing it is reported 已中断.
  app.addHook('onReady', async () => {
    await tasks.sweep();
  });
  app.addHook('onClose', async () => tasks.stop());

  const r = typed(app);
  const P = '/api/income/pool';
  r.post(`${P}/collect`, { schema: { body: CollectBody, summary: '采集：在后台从税务数字账户采集开票日期区间内的进项发票（每次不超过366天），立即答任务；同一时间只有一个采集（含定时采集）', tags }, config: access.list }, async (req) => {
    const user = currentUser(req);
    const task = await tasks.start(req.body.from, req.body.to, { id: user.id, name: user.name });
    await app.oplog.record(req, OperationLogType.add, `进项发票采集 ${req.body.from} 至 ${req.body.to}：任务已开始`);
    return ok(task, CollectMessages.started);
  });
  r.post(`${P}/collect-progress`, { schema: { body: CollectProgressBody, summary: '采集进度：已完成的页数、已处理/新增/合并/标记异常/未入池的张数，是否结束及结果', tags }, config: access.list }, async (req) =>
    ok(await tasks.progress(req.body.taskId)),
  );
  r.post(`${P}/upload-recognise`, { bodyLimit: uploadLimit, schema: { body: UploadRecogniseBody, summary: '上传识别：一个文件（PDF、OFD、XML、JPG、PNG，base64），答识别出的字段及其来源、提示和待核对的表单', tags }, config: uploadAccess }, async (req) =>
    ok(await recogniseUpload(app, req, req.body)),
  );
  r.post(`${P}/upload-save`, { bodyLimit: uploadLimit, schema: { body: UploadSaveBody, summary: '保存上传的发票：核对后的票面与同一文件再次发送，进入票池（同一发票再次保存时合并）', tags }, config: uploadAccess }, async (req) => {
    const a = await saveUpload(app, req, req.body);
    return ok(a, a.message);
  });
  r.post(`${P}/save`, { bodyLimit: uploadLimit, schema: { body: PoolEntryBody, summary: '手工录入纸质发票（与采集、上传同样的校验；同一发票再次录入时合并；文件合计10MB以内）', tags }, config: access.entry }, async (req) => {
    const a = await saveManual(app, req, req.body);
    return ok(a, a.message);
  });
  r.post(`${P}/verify`, { schema: { body: VerifyBody, summary: '查验：一张或多张发票经税务端查验，逐张答结果；失败的可直接重试', tags }, config: access.detail }, async (req) => {
    const a = await verifyInvoices(app, settings, req, req.body.ids);
    await app.oplog.record(req, OperationLogType.edit, `进项发票查验 ${a.results.length} 张：一致 ${a.matched} 张，不一致 ${a.mismatched} 张，失败 ${a.failed} 张`);
    const one = a.results.length === 1 ? a.results[0]!.message : `查验 ${a.results.length} 张：一致 ${a.matched} 张，不一致 ${a.mismatched} 张${a.failed ? `，失败 ${a.failed} 张` : ''}`;
    return ok(a, one);
  });
  r.post(`${P}/verify-history`, { schema: { body: PoolIdBody, summary: '一张发票的查验记录（每次查验：时间、查验人、结果、不一致的字段）', tags }, config: access.detail }, async (req) => ok(await verifyHistory(app.db.kysely, req.body.id)));
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The incoming-invoice collection job (modules/income/intake/job.ts). */
    incomeJob: IncomeJob;
    /** 采集 on demand in the background (modules/income/intake/collect-task.ts). */
    incomeCollectTasks: CollectTasks;
  }
}
