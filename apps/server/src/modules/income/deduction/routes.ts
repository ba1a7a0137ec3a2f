/**
 * Ticking (issue 14): /api/income/deduction/… — the period, the candidates of 抵扣勾选 and 退税勾选,
 * their Excel exports (issue 31 #11), tick / untick (ids or the filter), import from Excel, the tick log and its export, the setting
 * 先入账后勾选. Access from the route table's 发票抵扣 pages (roles 1, 13).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import {
  CandidateFilter, CandidateQuery, IncomeInvoiceState, IncomeKind, NonDeductReason, TickState, OperationLogType, ResponseCode, TICK_CONFIRM_MESSAGE, TickAction, TickBody, TickImportBody, TickLogExportQuery, TickLogQuery, TickResult, TickSettingBody, TickUsage, UntickBody,
  tickAnswerMessage, type CandidateRow, type TickAnswer, type TickLogRow,
} from '@zhyy/shared';
import { ok, refuse } from '../../../platform/envelope.js';
import { shanghaiTime } from '../../../platform/listing.js';
import { typed } from '../../../platform/route.js';
import { nowIso } from '../../../platform/time.js';
import { InvoiceSettings, SETTINGS_ID } from '../../invoice/settings/service.js';
import { exportXlsx } from '../../syslog/fileExports.js';
import { access, tags } from './access.js';
import { candidateBatches, candidateCount, candidatePage, logBatches, logCount, logPage } from './queries.js';
import type { TickScope } from './rules.js';
import { Ticking } from './service.js';

/** The import file as base64: 5 MB of .xlsx. */
const IMPORT_BODY_LIMIT = 7_500_000;
export const LOG_EXPORT_MAX_ROWS = 200_000;
const ScopeBody = z.object({ scope: z.enum(['deduction', 'rebate'], { message: '范围不正确（抵扣或退税）' }).default('deduction') });

const LOG_COLUMNS = [
  { header: '操作时间', width: 20, value: (r: TickLogRow) => shanghaiTime(r.createdAt) },
  { header: '操作人', width: 10, value: (r: TickLogRow) => r.userName },
  { header: '操作', width: 10, value: (r: TickLogRow) => TickAction.label(r.action) },
  { header: '发票号码', width: 24, value: (r: TickLogRow) => r.invoiceNumber },
  { header: '开票日期', width: 12, value: (r: TickLogRow) => r.issueDate },
  { header: '销方名称', width: 30, value: (r: TickLogRow) => r.sellerName },
  { header: '用途', width: 10, value: (r: TickLogRow) => TickUsage.label(r.vatUsage) },
  { header: '不抵扣原因', width: 16, value: (r: TickLogRow) => (r.deductReason ? NonDeductReason.label(r.deductReason) : '') },
  { header: '税额（元）', width: 12, value: (r: TickLogRow) => r.tax / 100 },
  { header: '有效税额（元）', width: 14, value: (r: TickLogRow) => r.effectiveTax / 100 },
  { header: '税款所属期', width: 10, value: (r: TickLogRow) => r.period },
  { header: '结果', width: 8, value: (r: TickLogRow) => TickResult.label(r.result) },
  { header: '说明', width: 40, value: (r: TickLogRow) => r.message },
  { header: '批次', width: 38, value: (r: TickLogRow) => r.batchId },
];

export const CANDIDATE_EXPORT_MAX_ROWS = 200_000;
const usageText = (r: CandidateRow) => (r.vatUsage ? TickUsage.label(r.vatUsage) : '');
/** The columns 抵扣勾选 / 退税勾选 show, money in 元. */
export const CANDIDATE_COLUMNS = [
  { header: '开票日期', width: 12, value: (r: CandidateRow) => r.issueDate },
  { header: '发票代码', width: 14, value: (r: CandidateRow) => r.invoiceCode },
  { header: '发票号码', width: 24, value: (r: CandidateRow) => r.digitalNo || r.invoiceNo },
  { header: '金额（元）', width: 14, value: (r: CandidateRow) => r.amountExcl / 100 },
  { header: '税额（元）', width: 12, value: (r: CandidateRow) => r.tax / 100 },
  { header: '价税合计（元）', width: 14, value: (r: CandidateRow) => r.amountIncl / 100 },
  { header: '种类', width: 26, value: (r: CandidateRow) => IncomeKind.label(r.kind) },
  { header: '状态', width: 10, value: (r: CandidateRow) => IncomeInvoiceState.label(r.invoiceState) },
  { header: '销方名称', width: 30, value: (r: CandidateRow) => r.sellerName },
  { header: '勾选状态', width: 10, value: (r: CandidateRow) => TickState.label(r.tickState) },
  { header: '用途', width: 10, value: usageText },
  { header: '不抵扣原因', width: 16, value: (r: CandidateRow) => (r.deductReason ? NonDeductReason.label(r.deductReason) : '') },
  { header: '有效税额（元）', width: 14, value: (r: CandidateRow) => (r.effectiveTax === null ? '' : r.effectiveTax / 100) },
  { header: '所属期', width: 10, value: (r: CandidateRow) => r.tickPeriod },
  { header: '疑点', width: 8, value: (r: CandidateRow) => (r.needsConfirm ? '是' : '') },
];

/**
 * A batch nothing of which was recorded is a refusal: 30000 (HTTP 400) with the batch's words, and the answer
 * (each invoice's outcome) as `r` so that the page can list the reasons (issue 27: never 20000 for a refusal).
 */
function refusedWith<T>(reply: FastifyReply, message: string, r: T) {
  return reply.code(400).send({ code: ResponseCode.businessError, message, r });
}

/** A tick or undo answer: 20000 when recorded (or the 疑点 question), else the refusal with the outcomes. */
function answer(reply: FastifyReply, a: TickAnswer, action: 'tick' | 'untick') {
  const message = tickAnswerMessage(a, action);
  return a.done || a.needConfirm ? ok(a, message) : refusedWith(reply, message, a);
}

async function deductionModule(app: FastifyInstance): Promise<void> {
  const r = typed(app);
  const settings = new InvoiceSettings(app);
  const ticking = new Ticking(app, settings);
  const db = () => app.db.kysely;
  const P = '/api/income/deduction';

  r.post(`${P}/period`, { schema: { body: ScopeBody, summary: '当前税款所属期：截止时间、可勾选开票日期范围、统计状态，本期已勾选税额与全部候选发票税额', tags }, config: access.either }, async (req) =>
    ok(await ticking.periodInfo(req, req.body.scope as TickScope)),
  );

  const pageRoutes = (scope: TickScope, prefix: string, cfg: typeof access.deduction, name: string) => {
    r.post(`${P}/${prefix}list`, { schema: { body: CandidateQuery, summary: `${name}：可勾选的发票（专票、数电专票，本期开票日期范围内、已查验、未用于其他用途），按票池各字段筛选，含合计`, tags }, config: cfg }, async (req) =>
      ok(await candidatePage(db(), req.body, scope, await ticking.windowForList(req))),
    );
    r.post(`${P}/${prefix}export`, { schema: { body: CandidateFilter, summary: `导出${name}的发票（筛选结果全部，流式Excel）`, tags }, config: cfg }, async (req, reply) => {
      const w = await ticking.windowForList(req);
      const count = await candidateCount(db(), req.body, scope, w);
      if (count > CANDIDATE_EXPORT_MAX_ROWS) throw refuse(`筛选结果 ${count} 条，超过导出上限 ${CANDIDATE_EXPORT_MAX_ROWS} 条，请缩小筛选范围`);
      return exportXlsx(app, req, reply, { fileName: name, sheetName: name, category: name, rowCount: count, description: `导出${name}发票 ${count} 条`, columns: CANDIDATE_COLUMNS, rows: candidateBatches(db(), req.body, scope, w) });
    });
    r.post(`${P}/${prefix}tick`, { schema: { body: TickBody, summary: `${name}：勾选（所选发票或筛选结果全部；全部成功才记录，任何一张被拒绝则全部不勾选，以30000答复并逐张说明）`, tags }, config: cfg }, async (req, reply) =>
      answer(reply, await ticking.tick(req, scope, req.body), 'tick'),
    );
    r.post(`${P}/${prefix}untick`, { schema: { body: UntickBody, summary: `${name}：撤销勾选（所选发票或筛选结果中已勾选的全部；全部成功才记录，否则以30000答复并逐张说明）`, tags }, config: cfg }, async (req, reply) =>
      answer(reply, await ticking.untick(req, scope, req.body), 'untick'),
    );
    r.post(`${P}/${prefix}import`, { bodyLimit: IMPORT_BODY_LIMIT, schema: { body: TickImportBody, summary: `${name}：从Excel导入勾选（发票代码、发票号码或数电号码、有效税额），逐行结果（未勾选时以30000答复）`, tags }, config: cfg }, async (req, reply) => {
      const a = await ticking.importTicks(req, scope, req.body);
      if (a.done) return ok(a, `导入勾选成功${a.count}张${a.unchanged ? `，${a.unchanged}张已按此勾选（无变化）` : ''}`);
      if (a.needConfirm) return ok(a, TICK_CONFIRM_MESSAGE);
      return refusedWith(reply, '导入未勾选：请按逐行结果修改后重新导入', a);
    });
  };
  pageRoutes('deduction', '', access.deduction, '抵扣勾选');
  pageRoutes('rebate', 'rebate-', access.rebate, '退税勾选');

  r.post(`${P}/log`, { schema: { body: TickLogQuery, summary: '勾选日志：每次勾选、撤销的每张发票（操作人、时间、发票、用途、有效税额、结果），筛选、分页', tags }, config: access.log }, async (req) => ok(await logPage(db(), req.body)));
  r.post(`${P}/log-export`, { schema: { body: TickLogExportQuery, summary: '导出勾选日志（筛选结果全部，流式Excel）', tags }, config: access.log }, async (req, reply) => {
    const count = await logCount(db(), req.body);
    if (count > LOG_EXPORT_MAX_ROWS) throw refuse(`筛选结果 ${count} 条，超过导出上限 ${LOG_EXPORT_MAX_ROWS} 条，请缩小筛选范围`);
    return exportXlsx(app, req, reply, { fileName: '勾选日志', sheetName: '勾选日志', category: '勾选日志', rowCount: count, description: `导出勾选日志 ${count} 条`, columns: LOG_COLUMNS, rows: logBatches(db(), req.body) });
  });

  r.post(`${P}/setting`, { schema: { body: z.object({}), summary: '勾选设置：先入账后勾选', tags }, config: access.either }, async () => ok({ tickBookedOnly: await ticking.bookedOnly() }));
  r.post(`${P}/setting-save`, { schema: { body: TickSettingBody, summary: '保存勾选设置：先入账后勾选（开启后只能勾选已入账的发票）', tags }, config: access.either }, async (req) => {
    await settings.row();
    await app.db.kysely.transaction().execute(async (trx) => {
      await trx.updateTable('invoice_settings').set({ tick_booked_only: req.body.tickBookedOnly ? 1 : 0, updated_by: req.user!.name, updated_at: nowIso() }).where('id', '=', SETTINGS_ID).execute();
      await app.oplog.record(req, OperationLogType.edit, `修改勾选设置：先入账后勾选${req.body.tickBookedOnly ? '开启' : '关闭'}`, trx);
    });
    return ok({ tickBookedOnly: req.body.tickBookedOnly }, '保存成功');
  });
}

export const incomeDeductionRoutes = fp(deductionModule, { name: 'income-deduction' });
