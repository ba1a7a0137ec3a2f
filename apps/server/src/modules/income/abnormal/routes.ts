/**
 * The abnormal worklist (issue 14): /api/income/abnormal/{list,export,history,confirm,correct,reject,
 * untick,transfer-out} for /income/invoicePool/abnormal (roles 1, 13; others 权限不足; history also from
 * the pool detail), transfer-proposal (issue 32: the status re-check's proposal into a voucher). The retry job
 * (job.ts, app.incomeAbnormalJob) and the status re-check (recheck.ts, app.incomeRecheckJob) start when the server is ready.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  AbnormalAction, AbnormalCaseBody, AbnormalCaseExportQuery, AbnormalCaseQuery, AbnormalCaseState, AbnormalConfirmBody, AbnormalCorrectBody, AbnormalInvoiceBody, AbnormalRejectBody,
  IncomeAbnormalFlag, OperationLogType, TransferOutBody, TransferOutReason, TransferProposalBody, TransferOutState, type AbnormalActionAnswer, type AbnormalCaseRow,
} from '@zhyy/shared';
import { accountingConfigFromEnv } from '../../../integrations/accounting/index.js';
import { currentUser } from '../../../platform/context.js';
import { ok } from '../../../platform/envelope.js';
import { shanghaiTime } from '../../../platform/listing.js';
import { typed } from '../../../platform/route.js';
import { exportXlsx } from '../../syslog/fileExports.js';
import { InvoiceSettings } from '../../invoice/settings/service.js';
import { Ticking } from '../deduction/service.js';
import { access } from '../pool/access.js';
import { confirmCase, correctCase, rejectCase, untickCase } from './actions.js';
import { AbnormalJob } from './job.js';
import { caseBatches, caseCount, caseHistory, casePage } from './queries.js';
import { accountingGatewayOf, acceptProposal, transferOut } from './transfer.js';
import { RecheckJob, recheckOne } from './recheck.js';

const tags = ['异常票池'];
/** 只看我负责的: the owner is the signed-in user. */
const mineOf = <T extends { mine?: boolean; ownerId?: string }>(req: FastifyRequest, f: T): T => (f.mine ? { ...f, ownerId: currentUser(req).id } : f);
const yuan = (fen: number | null) => (fen === null ? '' : fen / 100);

const COLUMNS = [
  { header: '发票号码', width: 22, value: (r: AbnormalCaseRow) => r.invoiceNumber },
  { header: '开票日期', width: 12, value: (r: AbnormalCaseRow) => r.issueDate },
  { header: '销方名称', width: 32, value: (r: AbnormalCaseRow) => r.sellerName },
  { header: '价税合计（元）', width: 14, value: (r: AbnormalCaseRow) => yuan(r.amountIncl) },
  { header: '税额（元）', width: 12, value: (r: AbnormalCaseRow) => yuan(r.tax) },
  { header: '异常类型', width: 12, value: (r: AbnormalCaseRow) => IncomeAbnormalFlag.label(r.flag) },
  { header: '负责人', width: 10, value: (r: AbnormalCaseRow) => r.ownerName },
  { header: '发现时间', width: 20, value: (r: AbnormalCaseRow) => shanghaiTime(r.raisedAt) },
  { header: '天数', width: 6, value: (r: AbnormalCaseRow) => r.ageDays },
  { header: '处理状态', width: 8, value: (r: AbnormalCaseRow) => AbnormalCaseState.label(r.state) },
  { header: '处理方式', width: 10, value: (r: AbnormalCaseRow) => (r.action ? AbnormalAction.label(r.action) : '') },
  { header: '说明', width: 30, value: (r: AbnormalCaseRow) => r.note },
  { header: '关联单据', width: 22, value: (r: AbnormalCaseRow) => r.docFlagged },
  { header: '转出原因', width: 16, value: (r: AbnormalCaseRow) => (r.transferOut ? TransferOutReason.label(r.transferOut.reason) : '') },
  { header: '转出税额（元）', width: 12, value: (r: AbnormalCaseRow) => (r.transferOut ? yuan(r.transferOut.amount) : '') },
  { header: '凭证', width: 12, value: (r: AbnormalCaseRow) => (r.transferOut ? r.transferOut.voucherNo || TransferOutState.label(r.transferOut.state) : '') },
  { header: '处理人', width: 10, value: (r: AbnormalCaseRow) => r.resolvedByName },
  { header: '处理时间', width: 20, value: (r: AbnormalCaseRow) => shanghaiTime(r.resolvedAt) },
];

async function abnormalModule(app: FastifyInstance): Promise<void> {
  const r = typed(app);
  const db = () => app.db.kysely;
  const P = '/api/income/abnormal';
  const config = accountingConfigFromEnv();
  const gateway = () => accountingGatewayOf(app, config);
  const ticking = new Ticking(app, new InvoiceSettings(app));
  const job = new AbnormalJob({ db: app.db, log: app.log, gateway });
  app.decorate('incomeAbnormalJob', job);
  app.addHook('onReady', async () => job.start());
  app.addHook('onClose', async () => job.stop());
  const settings = new InvoiceSettings(app);
  const recheck = new RecheckJob({ db: app.db, log: app.log, gateway: () => settings.gateway() });
  app.decorate('incomeRecheckJob', recheck);
  app.addHook('onReady', async () => recheck.start());
  app.addHook('onClose', async () => recheck.stop());
  const cfg = access.abnormal;
  /** Each action is one operation log entry with the case's answer. */
  const logged = async (req: FastifyRequest, a: AbnormalActionAnswer) => {
    await app.oplog.record(req, OperationLogType.edit, `异常处理：${a.message}`);
    return ok(a, a.message);
  };

  r.post(`${P}/list`, { schema: { body: AbnormalCaseQuery, summary: '异常处理：每张发票每种异常一条（负责人、天数、状态），按异常类型、负责人、状态、天数筛选，分页', tags }, config: cfg }, async (req) => ok(await casePage(db(), mineOf(req, req.body))));
  r.post(`${P}/export`, { schema: { body: AbnormalCaseExportQuery, summary: '导出异常处理记录（筛选结果全部）', tags }, config: cfg }, async (req, reply) => {
    const rowCount = await caseCount(db(), mineOf(req, req.body));
    return exportXlsx(app, req, reply, { fileName: '异常处理', sheetName: '异常处理', category: '异常票池', description: `导出异常处理记录 ${rowCount} 条`, rowCount, columns: COLUMNS, rows: caseBatches(db(), mineOf(req, req.body)) });
  });
  r.post(`${P}/history`, { schema: { body: AbnormalInvoiceBody, summary: '一张发票的异常记录（票池详情）', tags }, config: access.detail }, async (req) => ok(await caseHistory(db(), req.body.invoiceId)));
  r.post(`${P}/confirm`, { schema: { body: AbnormalConfirmBody, summary: '确认无误（未勾选的发票；已勾选的须撤销勾选或进项转出）', tags }, config: cfg }, async (req) => {
    const a = await confirmCase(db(), req, req.body.caseId, req.body.note);
    return logged(req, a);
  });
  r.post(`${P}/correct`, { schema: { body: AbnormalCorrectBody, summary: '更正（购方非本公司、疑似重复、查验不一致）：更正一个字段并填写说明', tags }, config: cfg }, async (req) => {
    const a = await correctCase(db(), req, req.body);
    return logged(req, a);
  });
  r.post(`${P}/reject`, { schema: { body: AbnormalRejectBody, summary: '驳回（购方非本公司、疑似重复、查验不一致）：须填写说明（2至200字）', tags }, config: cfg }, async (req) => {
    const a = await rejectCase(db(), req, req.body.caseId, req.body.note);
    return logged(req, a);
  });
  r.post(`${P}/untick`, { schema: { body: AbnormalCaseBody, summary: '撤销勾选（作废、已红冲、红字确认中且已勾选的发票）', tags }, config: cfg }, async (req) => {
    const a = await untickCase(db(), req, req.body.caseId, ticking);
    return logged(req, a);
  });
  r.post(`${P}/transfer-out`, { schema: { body: TransferOutBody, summary: '进项转出：已勾选抵扣的异常凭证、失控（或作废、红冲）发票，选择原因并填写转出税额，生成凭证推送会计系统；重复请求只生成一条记录和一张凭证', tags }, config: cfg }, async (req) => {
    const a = await transferOut(db(), req, req.body, gateway());
    return logged(req, a);
  });
  r.post(`${P}/recheck`, { schema: { body: AbnormalInvoiceBody, summary: '立即核查：向税务端查询一张发票当前的发票状态和风险等级（作废、红冲、失控、异常凭证、疑点发票），有变化时更新发票并生成异常处理记录', tags }, config: cfg }, async (req) => {
    const a = await recheckOne(db(), await settings.gateway(), req.body.invoiceId, currentUser(req).name);
    await app.oplog.record(req, OperationLogType.edit, `发票状态核查：${a.message}`);
    return ok(a, a.message);
  });
  r.post(`${P}/transfer-proposal`, { schema: { body: TransferProposalBody, summary: '确认转出建议：发票状态核查发现作废、红冲、失控、异常凭证的已抵扣发票，按建议的转出税额、原因和所属期生成进项转出凭证；重复请求只生成一条记录和一张凭证', tags }, config: cfg }, async (req) => {
    const a = await acceptProposal(db(), req, req.body, gateway());
    return logged(req, a);
  });
}

export const incomeAbnormalRoutes = fp(abnormalModule, { name: 'income-abnormal' });

declare module 'fastify' {
  interface FastifyInstance {
    /** Pushes pending 进项转出 vouchers again and raises missed cases (abnormal/job.ts). */
    incomeAbnormalJob: AbnormalJob;
    /** The status re-check of the last 180 days' invoices, twice a day (abnormal/recheck.ts). */
    incomeRecheckJob: RecheckJob;
  }
}
