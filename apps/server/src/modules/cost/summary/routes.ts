/**
 * 月度成本汇总 (issue 16; roles 1, 16–19): /api/cost-order/summary (a page of department-months, the
 * trend, the composition and the totals; issue 30), /api/cost-order/summary-projects (a department-month's
 * projects and their categories, paged), /api/cost-order/export-cost-summary (every cell month × department
 * × project × category as a row, streamed batch by batch, a 合计 row), /api/cost-order/close-check (a closed
 * month's digest recomputed and compared, issue 32 item 5). The drill-down to orders is the ledger's list
 * filtered by month, department and project.
 */
import type { FastifyInstance } from 'fastify';
import { CostCategory, CostCloseCheckQuery, CostSummaryPageQuery, CostSummaryProjectsQuery, CostSummaryQuery, monthLabel, type CostSummaryCell } from '@zhyy/shared';
import { typed } from '../../../platform/route.js';
import { ok } from '../../../platform/envelope.js';
import type { XlsxColumn } from '../../../platform/xlsx.js';
import { exportXlsx } from '../../syslog/fileExports.js';
import { access, tags } from '../paths.js';
import { CostSettingService } from '../settings/service.js';
import { costSummary, costSummaryCells, costSummaryExportPlan, costSummaryProjects } from './repo.js';

const yuan = (fen: number) => Math.round(fen) / 100;

export const SUMMARY_COLUMNS: XlsxColumn<CostSummaryCell>[] = [
  { header: '月份', width: 9, value: (r) => r.month },
  { header: '部门', width: 16, value: (r) => r.deptName },
  { header: '项目编码', width: 14, value: (r) => r.projectCode },
  { header: '项目名称', width: 26, value: (r) => r.projectName },
  { header: '费用类别', width: 12, value: (r) => (r.deptId ? CostCategory.label(r.category) : '') },
  { header: '成本单数', width: 9, value: (r) => r.orderCount },
  { header: '不含税金额（元）', width: 15, value: (r) => yuan(r.amount) },
  { header: '税额（元）', width: 13, value: (r) => yuan(r.tax) },
  { header: '价税合计（元）', width: 15, value: (r) => yuan(r.amount + r.tax) },
];

export async function summaryRoutes(app: FastifyInstance): Promise<void> {
  const r = typed(app);
  const db = () => app.db.kysely;
  const P = '/api/cost-order';

  r.post(`${P}/summary`, { schema: { body: CostSummaryPageQuery, summary: '月度成本汇总：待审核与已审核成本单（不含已作废）按月份×部门汇总并分页，月度趋势、类别构成与全部行的合计', tags }, config: access.summary }, async (req) =>
    ok(await costSummary(db(), req.body)),
  );
  r.post(`${P}/summary-projects`, { schema: { body: CostSummaryProjectsQuery, summary: '月度成本汇总下钻：某部门某月的项目（分页）及各费用类别金额', tags }, config: access.summary }, async (req) =>
    ok(await costSummaryProjects(db(), req.body)),
  );

  // One month at a time (the page asks for the month shown): the digest is recomputed from the month's orders.
  const settings = new CostSettingService(app);
  r.post(`${P}/close-check`, { schema: { body: CostCloseCheckQuery, summary: '结账核验：重新计算某月（或某部门该月）已结账数据的摘要，与结账时保存的摘要比对（已核验/已变更，变更时列出不同的成本单）', tags }, config: access.summary }, async (req) =>
    ok(await settings.closeChecks(req.body.month, req.body.deptId)),
  );

  r.post(`${P}/export-cost-summary`, { schema: { body: CostSummaryQuery, summary: '导出月度成本汇总（Excel，每格一行，末行合计）', tags }, config: access.summary }, async (req, reply) => {
    const q = req.body;
    const plan = await costSummaryExportPlan(db(), q);
    const sum = plan.months.reduce((t, m) => ({ amount: t.amount + m.amount, tax: t.tax + m.tax, orders: t.orders + m.orderCount }), { amount: 0, tax: 0, orders: 0 });
    const last: CostSummaryCell = { month: '合计', deptId: '', deptName: '', projectId: '', projectCode: '', projectName: '', category: '', amount: sum.amount, tax: sum.tax, orderCount: sum.orders };
    const [dept, project] = await Promise.all([
      q.deptId ? db().selectFrom('departments').select('name').where('id', '=', q.deptId).executeTakeFirst() : undefined,
      q.projectId ? db().selectFrom('projects').select(['code', 'name']).where('id', '=', q.projectId).executeTakeFirst() : undefined,
    ]);
    const what = [
      `${monthLabel(q.monthFrom)} 至 ${monthLabel(q.monthTo)}`,
      q.deptId ? `部门 ${dept?.name ?? q.deptId}` : '',
      q.projectId ? `项目 ${project ? `${project.code} ${project.name}` : q.projectId}` : '',
      q.category !== undefined ? `费用类别 ${CostCategory.label(q.category)}` : '',
    ].filter(Boolean).join('，');
    return exportXlsx(app, req, reply, {
      fileName: `月度成本汇总${q.monthFrom}至${q.monthTo}`, sheetName: '月度成本汇总', category: '月度成本汇总', rowCount: plan.cells + 1,
      description: `导出月度成本汇总 ${plan.cells} 行（${what}）`, columns: SUMMARY_COLUMNS,
      rows: (async function* () {
        yield* costSummaryCells(db(), q, plan.months);
        yield [last];
      })(),
    });
  });
}
