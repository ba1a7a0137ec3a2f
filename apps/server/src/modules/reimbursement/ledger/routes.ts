/**
 * 报销台账报表 (issue 15; roles 1, 12, 16): /api/reimbursement/ledger/* (报销台账: list with the totals
 * of the filtered set, streamed export of the bills or their lines, the filters' options),
 * /api/reimbursement/summary/* (部门月度报销汇总: the pivot, the bills behind a cell, export) and
 * /api/reimbursement/laundry/* (部门月度报销流水: the pushed lines of a department and month, export).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  ReimbFlowState, ReimbLaundryExportQuery, ReimbLaundryQuery, ReimbLedgerExportQuery, ReimbLedgerQuery, ReimbState, ReimbSummaryBillsQuery, ReimbSummaryExportQuery,
  ReimbSummaryQuery, type ReimbLaundryRow, type ReimbLedgerRow, type ReimbSummaryView,
} from '@zhyy/shared';
import { pages } from '../../../platform/access.js';
import { ok, refuse } from '../../../platform/envelope.js';
import { shanghaiTime } from '../../../platform/listing.js';
import { typed } from '../../../platform/route.js';
import type { XlsxColumn } from '../../../platform/xlsx.js';
import { exportXlsx } from '../../syslog/fileExports.js';
import { access, PAGE, tags } from '../paths.js';
import { describeLedgerFilters } from './filters.js';
import { laundryBatches, laundryTotals, laundryPage } from './laundry.js';
import { exportTotals, ledgerBatches, ledgerLineBatches, type LedgerLineRow } from './export-reads.js';
import { ledgerPage, reportOptions } from './repo.js';
import { summaryBills, summaryView } from './summary.js';

/** The largest export (an Excel sheet holds 1,048,576 rows). */
export const REIMB_EXPORT_MAX_ROWS = 1_000_000;
const yuan = (fen: number | null | undefined) => (fen === null || fen === undefined ? null : fen / 100);
const reimbLabel = (v: number | null) => (v === null ? '' : ReimbState.label(v));

export const BILL_COLUMNS: XlsxColumn<ReimbLedgerRow>[] = [
  { header: '报销单号', width: 18, value: (r) => r.billNo },
  { header: '申请人', width: 10, value: (r) => r.applicantName },
  { header: '部门', width: 16, value: (r) => r.deptName },
  { header: '项目', width: 24, value: (r) => r.projectName },
  { header: '事由', width: 30, value: (r) => r.reason },
  { header: '费用期间', width: 24, value: (r) => (r.periodFrom ? `${r.periodFrom} 至 ${r.periodTo}` : '') },
  { header: '费用类别', width: 24, value: (r) => r.categories },
  { header: '审批状态', width: 10, value: (r) => (r.id ? ReimbFlowState.label(r.flowState) : '') },
  { header: '报销状态', width: 10, value: (r) => reimbLabel(r.reimbState) },
  { header: '明细行数', width: 8, value: (r) => r.lineCount },
  { header: '报销金额（元）', width: 14, value: (r) => yuan(r.amount) },
  { header: '核定金额（元）', width: 14, value: (r) => yuan(r.approvedAmount) },
  { header: '税额（元）', width: 12, value: (r) => yuan(r.tax) },
  { header: '可抵扣税额（元）', width: 14, value: (r) => yuan(r.deductibleTax) },
  { header: '凭证号', width: 16, value: (r) => r.voucherNo },
  { header: '凭证日期', width: 12, value: (r) => r.voucherDate },
  { header: '提交时间', width: 20, value: (r) => shanghaiTime(r.submittedAt) },
  { header: '审批通过时间', width: 20, value: (r) => shanghaiTime(r.approvedAt) },
  { header: '入账时间', width: 20, value: (r) => shanghaiTime(r.pushedAt) },
];

const LINE_COLUMNS: XlsxColumn<LedgerLineRow>[] = [
  { header: '报销单号', width: 18, value: (r) => r.bill.billNo },
  { header: '行号', width: 6, value: (r) => (r.bill.id ? r.lineNo : null) },
  { header: '申请人', width: 10, value: (r) => r.bill.applicantName },
  { header: '部门', width: 16, value: (r) => r.bill.deptName },
  { header: '项目', width: 24, value: (r) => r.bill.projectName },
  { header: '审批状态', width: 10, value: (r) => (r.bill.id ? ReimbFlowState.label(r.bill.flowState) : '') },
  { header: '报销状态', width: 10, value: (r) => reimbLabel(r.bill.reimbState) },
  { header: '费用类别', width: 14, value: (r) => r.categoryName },
  { header: '费用日期', width: 12, value: (r) => r.expenseDate },
  { header: '说明', width: 30, value: (r) => r.description },
  { header: '发票号码', width: 22, value: (r) => r.invoiceNumber },
  { header: '报销金额（元）', width: 14, value: (r) => yuan(r.amount) },
  { header: '核定金额（元）', width: 14, value: (r) => yuan(r.approvedAmount) },
  { header: '税率', width: 8, value: (r) => r.taxRate },
  { header: '税额（元）', width: 12, value: (r) => yuan(r.tax) },
  { header: '可抵扣税额（元）', width: 14, value: (r) => yuan(r.deductibleTax) },
  { header: '会计科目', width: 20, value: (r) => (r.subjectCode ? `${r.subjectCode} ${r.subjectName}` : '') },
  { header: '凭证号', width: 16, value: (r) => r.bill.voucherNo },
  { header: '凭证日期', width: 12, value: (r) => r.bill.voucherDate },
];

const LAUNDRY_COLUMNS: XlsxColumn<ReimbLaundryRow>[] = [
  { header: '报销单号', width: 18, value: (r) => r.billNo },
  { header: '凭证号', width: 16, value: (r) => r.voucherNo },
  { header: '凭证日期', width: 12, value: (r) => r.voucherDate },
  { header: '申请人', width: 10, value: (r) => r.applicantName },
  { header: '部门', width: 16, value: (r) => r.deptName },
  { header: '费用类别', width: 14, value: (r) => r.categoryName },
  { header: '费用日期', width: 12, value: (r) => r.expenseDate },
  { header: '说明', width: 30, value: (r) => r.description },
  { header: '发票号码', width: 22, value: (r) => r.invoiceNumber },
  { header: '报销金额（元）', width: 14, value: (r) => yuan(r.amount) },
  { header: '核定金额（元）', width: 14, value: (r) => yuan(r.approvedAmount) },
  { header: '税额（元）', width: 12, value: (r) => yuan(r.tax) },
  { header: '可抵扣税额（元）', width: 14, value: (r) => yuan(r.deductibleTax) },
  { header: '不含税净额（元）', width: 14, value: (r) => yuan(r.netAmount) },
];

/** A 合计 row for a sheet: the label in the first column, the sums, the rest blank. */
const emptyBill = (): ReimbLedgerRow => ({
  id: '', billNo: '', applicantName: '', deptId: null, deptName: '', projectName: '', reason: '', periodFrom: '', periodTo: '', flowState: 0, reimbState: null,
  amount: 0, approvedAmount: 0, tax: 0, deductibleTax: 0, lineCount: 0, categories: '', voucherNo: '', voucherDate: '', submittedAt: null, approvedAt: null, pushedAt: null,
});

/** Appends one last batch (the 合计 row) to a stream of batches. */
async function* withLast<T>(rows: AsyncIterable<T[]>, last: T): AsyncIterable<T[]> {
  for await (const b of rows) yield b;
  yield [last];
}

type PivotRow = { name: string; cells: Array<number | null>; total: number | null };

/** The summary as a sheet: a department per row, a month (or category) per column, 合计 column and row; amounts in 元, then bill (or line) counts. */
export function summarySheet(v: ReimbSummaryView, by: 'month' | 'category') {
  const heads = by === 'month' ? v.months : v.categories.map((c) => c.name);
  const pick = (r: { months: { amount: number }[]; categories: { amount: number }[] }) => (by === 'month' ? r.months : r.categories);
  const rows: PivotRow[] = v.rows.map((r) => ({ name: r.deptName, cells: pick(r).map((c) => yuan(c.amount)), total: yuan(r.total.amount) }));
  rows.push({ name: '合计', cells: (by === 'month' ? v.monthTotals : v.categoryTotals).map((c) => yuan(c.amount)), total: yuan(v.total.amount) });
  const columns: XlsxColumn<PivotRow>[] = [
    { header: '部门', width: 18, value: (r) => r.name },
    ...heads.map((h, i) => ({ header: `${h}（元）`, width: 14, value: (r: PivotRow) => r.cells[i] ?? null })),
    { header: '合计（元）', width: 16, value: (r) => r.total },
  ];
  return { columns, rows };
}

export async function ledgerRoutes(app: FastifyInstance): Promise<void> {
  const r = typed(app);
  const db = () => app.db.kysely;
  const P = '/api/reimbursement';
  const anyReport = { access: pages(PAGE.ledger, PAGE.summary, PAGE.laundry) };

  r.post(`${P}/ledger/options`, { schema: { body: z.object({}), summary: '报销台账报表的筛选项：部门与费用类别', tags }, config: anyReport }, async () => ok(await reportOptions(db())));

  r.post(`${P}/ledger/list`, { schema: { body: ReimbLedgerQuery, summary: '报销台账：已提交的报销单（不含草稿），筛选、排序、分页，含筛选结果合计', tags }, config: access.ledger }, async (req) =>
    ok(await ledgerPage(db(), req.body)),
  );

  r.post(`${P}/ledger/export`, { schema: { body: ReimbLedgerExportQuery, summary: '导出报销台账（筛选结果全部，按单据或按明细行，流式Excel）', tags }, config: access.ledger }, async (req, reply) => {
    const { withLines, ...f } = req.body;
    const totals = await exportTotals(db(), f);
    const count = withLines ? totals.lineCount : totals.count;
    if (count > REIMB_EXPORT_MAX_ROWS) throw refuse(`筛选结果 ${count} 条，超过导出上限 ${REIMB_EXPORT_MAX_ROWS} 条，请缩小筛选范围`);
    const opts = f.categoryCode || f.deptId ? await reportOptions(db()) : null;
    const what = describeLedgerFilters(f, opts?.categories.find((c) => c.code === f.categoryCode)?.name, opts?.depts.find((d) => d.id === f.deptId)?.name);
    const sum = { ...emptyBill(), billNo: '合计', amount: totals.amount, approvedAmount: totals.approvedAmount, tax: totals.tax, deductibleTax: totals.deductibleTax, lineCount: totals.lineCount };
    if (withLines) {
      return exportXlsx(app, req, reply, {
        fileName: '报销台账明细', sheetName: '报销明细', category: '报销台账', rowCount: count,
        description: `导出报销台账明细 ${count} 行（${what}）`, columns: LINE_COLUMNS,
        rows: withLast(ledgerLineBatches(db(), f), { bill: sum, lineNo: 0, categoryName: '', expenseDate: '', description: '', invoiceNumber: '', amount: totals.amount, approvedAmount: totals.approvedAmount, taxRate: '', tax: totals.tax, deductibleTax: totals.deductibleTax, subjectCode: '', subjectName: '' }),
      });
    }
    return exportXlsx(app, req, reply, {
      fileName: '报销台账', sheetName: '报销台账', category: '报销台账', rowCount: count,
      description: `导出报销台账 ${count} 条（${what}）`, columns: BILL_COLUMNS, rows: withLast(ledgerBatches(db(), f), sum),
    });
  });

  r.post(`${P}/summary/view`, { schema: { body: ReimbSummaryQuery, summary: '部门月度报销汇总：已报销单据按部门×月份（凭证日期）×费用类别的核定金额与笔数，行列合计', tags }, config: access.summary }, async (req) =>
    ok(await summaryView(db(), req.body)),
  );
  r.post(`${P}/summary/bills`, { schema: { body: ReimbSummaryBillsQuery, summary: '部门月度报销汇总的穿透：某部门、月份或费用类别背后的报销单及其金额', tags }, config: access.summary }, async (req) =>
    ok(await summaryBills(db(), req.body)),
  );
  r.post(`${P}/summary/export`, { schema: { body: ReimbSummaryExportQuery, summary: '导出部门月度报销汇总（Excel，按月份或按费用类别）', tags }, config: access.summary }, async (req, reply) => {
    const { by, ...q } = req.body;
    const v = await summaryView(db(), q);
    const sheet = summarySheet(v, by);
    return exportXlsx(app, req, reply, {
      fileName: `部门月度报销汇总${q.fromMonth}至${q.toMonth}`, sheetName: '部门月度报销汇总', category: '部门月度报销汇总', rowCount: sheet.rows.length,
      description: `导出部门月度报销汇总 ${q.fromMonth} 至 ${q.toMonth}，按${by === 'month' ? '月份' : '费用类别'}，${v.rows.length} 个部门`,
      columns: sheet.columns, rows: (async function* () { yield sheet.rows; })(),
    });
  });

  r.post(`${P}/laundry/list`, { schema: { body: ReimbLaundryQuery, summary: '部门月度报销流水：某部门某月（凭证日期）已报销单据的明细行，含合计', tags }, config: access.laundry }, async (req) =>
    ok(await laundryPage(db(), req.body)),
  );
  r.post(`${P}/laundry/export`, { schema: { body: ReimbLaundryExportQuery, summary: '导出部门月度报销流水（流式Excel）', tags }, config: access.laundry }, async (req, reply) => {
    const t = await laundryTotals(db(), req.body);
    const dept = req.body.deptId === undefined ? '全部部门' : req.body.deptId === '' ? '未分配部门' : ((await reportOptions(db())).depts.find((d) => d.id === req.body.deptId)?.name ?? '');
    const sum: ReimbLaundryRow = { id: '', billId: '', billNo: '合计', lineNo: 0, voucherNo: '', voucherDate: '', applicantName: '', deptName: '', categoryCode: '', categoryName: '', expenseDate: '', description: '', invoiceNumber: '', amount: t.amount, approvedAmount: t.approvedAmount, tax: t.tax, deductibleTax: t.deductibleTax, netAmount: t.netAmount };
    return exportXlsx(app, req, reply, {
      fileName: `部门月度报销流水${req.body.month}`, sheetName: '报销流水', category: '部门月度报销流水', rowCount: t.count,
      description: `导出部门月度报销流水 ${req.body.month} ${dept} ${t.count} 行`, columns: LAUNDRY_COLUMNS, rows: withLast(laundryBatches(db(), req.body), sum),
    });
  });
}
