/**
 * 统计报表 (issue 7, roles 1, 5): apportionment by project and month, temporary-project invoices (with
 * matching to a real project), contract statistics and temporary-contract invoices (with matching to
 * a real contract). Each list has filters, totals and chart data; each export is streamed and logged
 * (operation log type 80).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ContractStatisticsQuery, InvoiceColour, StatisticsQuery, TempMatchBody, type ContractStatisticsRow, type ProjectMonthRow, type TempInvoiceRow } from '@zhyy/shared';
import { pages } from '../../../platform/access.js';
import { ok } from '../../../platform/envelope.js';
import { offsetOf, shanghaiDay } from '../../../platform/listing.js';
import { typed } from '../../../platform/route.js';
import { batches, type XlsxColumn } from '../../../platform/xlsx.js';
import { exportXlsx } from '../../syslog/fileExports.js';
import { STATISTICS_PAGES, writeOn } from '../apportionment/routes.js';
import { yuan } from '../apportionment/rules.js';
import { ApportionmentService } from '../apportionment/service.js';
import { contractRows, contractTotals, tempContractRows, tempContractSummary } from './contracts.js';
import { projectMonthPage, projectMonthRows, tempProjectPage, tempProjectRows } from './projects.js';

const [APPORTIONMENT, TEMP_PROJECT, CONTRACT, TEMP_CONTRACT] = STATISTICS_PAGES as [string, string, string, string];
const tags = ['销项发票-统计报表'];
const money = (fen: number) => Number(yuan(fen));
const day = () => shanghaiDay().replaceAll('-', '');
const range = (f: { fromMonth?: string; toMonth?: string }) => (f.fromMonth || f.toMonth ? `（${f.fromMonth ?? '不限'} 至 ${f.toMonth ?? '不限'}）` : '');

const PROJECT_MONTH_COLUMNS: XlsxColumn<ProjectMonthRow>[] = [
  { header: '月份', width: 10, value: (r) => r.month },
  { header: '项目编号', width: 16, value: (r) => r.projectCode },
  { header: '项目名称', width: 32, value: (r) => r.projectName },
  { header: '发票张数', width: 10, value: (r) => r.invoiceCount },
  { header: '不含税金额', width: 16, value: (r) => money(r.amountExcl) },
  { header: '税额', width: 14, value: (r) => money(r.tax) },
  { header: '价税合计', width: 16, value: (r) => money(r.amountIncl) },
];

const tempColumns = (what: string): XlsxColumn<TempInvoiceRow>[] => [
  { header: '发票号码', width: 24, value: (r) => r.invoiceNo },
  { header: '开票日期', width: 12, value: (r) => r.issueDate ?? '' },
  { header: '颜色', width: 8, value: (r) => InvoiceColour.label(r.colour) },
  { header: '购方名称', width: 30, value: (r) => r.buyerName },
  { header: what, width: 30, value: (r) => r.targetName },
  { header: '发票价税合计', width: 16, value: (r) => money(r.invoiceAmountIncl) },
  { header: '未匹配不含税金额', width: 16, value: (r) => money(r.amountExcl) },
  { header: '未匹配税额', width: 14, value: (r) => money(r.tax) },
  { header: '未匹配价税合计', width: 16, value: (r) => money(r.amountIncl) },
];

const CONTRACT_COLUMNS: XlsxColumn<ContractStatisticsRow>[] = [
  { header: '合同编号', width: 18, value: (r) => r.contractCode },
  { header: '合同名称', width: 34, value: (r) => r.contractName },
  { header: '所属项目', width: 28, value: (r) => r.projectName },
  { header: '客户', width: 30, value: (r) => r.customer },
  { header: '合同金额', width: 16, value: (r) => money(r.contractAmount) },
  { header: '发票张数', width: 10, value: (r) => r.invoiceCount },
  { header: '已开票金额', width: 16, value: (r) => money(r.invoiced) },
  { header: '未开票金额', width: 16, value: (r) => money(r.remaining) },
  { header: '开票比例(%)', width: 12, value: (r) => (r.percentBp === null ? '' : r.percentBp / 100) },
];

export async function statisticsRoutes(app: FastifyInstance): Promise<void> {
  const r = typed(app);
  const db = () => app.db.kysely;
  const service = new ApportionmentService(app);
  /** One statistics export, named after its page: streamed, and logged with the months and the row count. */
  const exportStatistics = <T>(req: FastifyRequest, reply: FastifyReply, title: string, f: { fromMonth?: string; toMonth?: string }, total: number, columns: XlsxColumn<T>[], rows: (offset: number, limit: number) => Promise<T[]>) =>
    exportXlsx(app, req, reply, { category: title, description: `导出${title}${range(f)}，共 ${total} 条`, fileName: `${title}-${day()}`, sheetName: title, rowCount: total, columns, rows: batches(rows) });

  r.post('/api/invoice/apportionment-statistics', { schema: { body: StatisticsQuery, summary: '分摊统计：按项目和月份汇总项目分摊', tags }, config: { access: pages(APPORTIONMENT) } }, async (req) => ok(await projectMonthPage(db(), req.body)));
  r.post('/api/invoice/export-apportionment-statistics', { schema: { body: StatisticsQuery, summary: '导出分摊统计（Excel，流式）', tags }, config: { access: pages(APPORTIONMENT) } }, async (req, reply) => {
    const f = req.body;
    const { total } = await projectMonthPage(db(), { ...f, pageIndex: 1, pageSize: 1 });
    return exportStatistics(req, reply, '分摊统计', f, total, PROJECT_MONTH_COLUMNS, (offset, limit) => projectMonthRows(db(), f, offset, limit));
  });

  r.post('/api/invoice/temp-project', { schema: { body: StatisticsQuery, summary: '临时项目开票：仍分摊在临时项目上的发票', tags }, config: { access: pages(TEMP_PROJECT) } }, async (req) => ok(await tempProjectPage(db(), req.body)));
  r.post('/api/invoice/export-temp-project', { schema: { body: StatisticsQuery, summary: '导出临时项目开票（Excel，流式）', tags }, config: { access: pages(TEMP_PROJECT) } }, async (req, reply) => {
    const f = req.body;
    const { total } = await tempProjectPage(db(), { ...f, pageIndex: 1, pageSize: 1 });
    return exportStatistics(req, reply, '临时项目开票', f, total, tempColumns('临时项目'), (offset, limit) => tempProjectRows(db(), f, offset, limit));
  });
  r.post('/api/invoice/temp-project/match', { schema: { body: TempMatchBody, summary: '临时项目匹配正式项目（整笔分摊转入，记录变更）', tags }, config: { access: writeOn(TEMP_PROJECT) } }, async (req) => {
    await service.matchProject(req, req.body);
    return ok(undefined, '已匹配到正式项目');
  });

  r.post('/api/invoice/contract-statistics-list', { schema: { body: ContractStatisticsQuery, summary: '合同开票统计：合同金额、已开票、未开票、开票比例', tags }, config: { access: pages(CONTRACT) } }, async (req) => {
    const f = req.body;
    const [items, t, chart] = await Promise.all([contractRows(db(), f, offsetOf(f), f.pageSize), contractTotals(db(), f), contractRows(db(), f, 0, 10)]);
    return ok({ items, ...t, chart: chart.map((c) => ({ name: c.contractName, value: c.invoiced, extra: c.remaining })) });
  });
  r.post('/api/invoice/export-contract-statistics-list', { schema: { body: ContractStatisticsQuery, summary: '导出合同开票统计（Excel，流式）', tags }, config: { access: pages(CONTRACT) } }, async (req, reply) => {
    const f = req.body;
    const { total } = await contractTotals(db(), f);
    return exportStatistics(req, reply, '合同开票统计', f, total, CONTRACT_COLUMNS, (offset, limit) => contractRows(db(), f, offset, limit));
  });

  r.post('/api/invoice/temp-contract-list', { schema: { body: StatisticsQuery, summary: '临时合同开票：未全部分摊到正式合同的发票及未匹配金额', tags }, config: { access: pages(TEMP_CONTRACT) } }, async (req) => {
    const f = req.body;
    const [items, s] = await Promise.all([tempContractRows(db(), f, offsetOf(f), f.pageSize), tempContractSummary(db(), f)]);
    return ok({ items, ...s });
  });
  r.post('/api/invoice/export-temp-contract-list', { schema: { body: StatisticsQuery, summary: '导出临时合同开票（Excel，流式）', tags }, config: { access: pages(TEMP_CONTRACT) } }, async (req, reply) => {
    const f = req.body;
    const { total } = await tempContractSummary(db(), f);
    return exportStatistics(req, reply, '临时合同开票', f, total, tempColumns('所属项目'), (offset, limit) => tempContractRows(db(), f, offset, limit));
  });
  r.post('/api/invoice/temp-contract/match', { schema: { body: TempMatchBody, summary: '临时合同开票匹配正式合同（未匹配金额分摊到所选合同）', tags }, config: { access: writeOn(TEMP_CONTRACT) } }, async (req) => {
    await service.matchContract(req, req.body);
    return ok(undefined, '已匹配到合同');
  });
}
