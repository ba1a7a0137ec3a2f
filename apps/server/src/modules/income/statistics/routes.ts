/**
 * Period statistics (issue 14): /api/income/statistics/{deduction|rebate}/… — view (the period, state and
 * figures; the transport line on 抵扣统计), apply, confirm, revoke-apply, revoke-confirm, export (the
 * figures as Excel). Access from the route table's 抵扣统计 / 退税统计 pages (roles 1, 13).
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { StatAction, StatActionBody, StatAdoptBody, StatOutsideTickBody, StatViewBody, type StatActionCode, type StatView } from '@zhyy/shared';
import { ok } from '../../../platform/envelope.js';
import { typed } from '../../../platform/route.js';
import { InvoiceSettings } from '../../invoice/settings/service.js';
import { exportXlsx } from '../../syslog/fileExports.js';
import { access, tags } from './access.js';
import { Statistics } from './service.js';

type Line = { name: string; count: number | null; amount: number | null; tax: number | null; effectiveTax: number | null };
const yuan = (v: number | null) => (v === null ? null : v / 100);
const COLUMNS = [
  { header: '发票类型', width: 30, value: (l: Line) => l.name },
  { header: '份数', width: 8, value: (l: Line) => l.count },
  { header: '金额（元）', width: 16, value: (l: Line) => yuan(l.amount) },
  { header: '税额（元）', width: 16, value: (l: Line) => yuan(l.tax) },
  { header: '有效税额（元）', width: 16, value: (l: Line) => yuan(l.effectiveTax) },
];

/** The export's lines: one per kind, 合计, and on 抵扣统计 the transport line and the deductible total. */
export function exportLines(v: StatView): Line[] {
  const lines: Line[] = v.rows.map((r) => ({ name: r.kindLabel, count: r.count, amount: r.amountExcludingTax, tax: r.tax, effectiveTax: r.effectiveTax }));
  lines.push({ name: '合计', count: v.totals.count, amount: v.totals.amountExcludingTax, tax: v.totals.tax, effectiveTax: v.totals.effectiveTax });
  if (v.transport) {
    lines.push({ name: '旅客运输服务（计算抵扣）', count: v.transport.count, amount: v.transport.basis, tax: v.transport.tax, effectiveTax: v.transport.tax });
    lines.push({ name: '本期可抵扣税额合计', count: null, amount: null, tax: null, effectiveTax: v.deductibleTotal });
  }
  return lines;
}

async function statisticsModule(app: FastifyInstance): Promise<void> {
  const r = typed(app);
  const stats = new Statistics(app, new InvoiceSettings(app));
  const P = '/api/income/statistics';
  const ACTIONS: Array<[string, StatActionCode]> = [['apply', 'apply'], ['confirm', 'confirm'], ['revoke-apply', 'revokeApply'], ['revoke-confirm', 'revokeConfirm']];

  for (const scope of ['deduction', 'rebate'] as const) {
    const cfg = access[scope];
    const name = scope === 'deduction' ? '抵扣统计' : '退税统计';
    r.post(`${P}/${scope}/view`, { schema: { body: StatViewBody, summary: `${name}：税款所属期、统计状态、按发票类型的份数金额税额及合计${scope === 'deduction' ? '、旅客运输服务计算抵扣' : ''}`, tags }, config: cfg }, async (req) =>
      ok(await stats.view(req, scope, req.body.period)),
    );
    for (const [path, action] of ACTIONS) {
      r.post(`${P}/${scope}/${path}`, { schema: { body: StatActionBody, summary: `${name}：${StatAction.label(action)}（税务端拒绝时返回其原因）`, tags }, config: cfg }, async (req) =>
        ok(await stats.act(req, scope, action, req.body.period, req.body.reason ?? ''), `${StatAction.label(action)}成功`),
      );
    }
    r.post(`${P}/${scope}/adopt`, { schema: { body: StatAdoptBody, summary: `${name}：统计对比中采纳税务端的勾选状态（所选差异或全部可采纳的差异；记入勾选日志）`, tags }, config: cfg }, async (req) => {
      const a = await stats.adopt(req, scope, req.body.period, req.body.keys);
      return ok(a.view, `已采纳税务端勾选状态${a.adopted}张`);
    });
    r.post(`${P}/${scope}/sim-outside-tick`, { schema: { body: StatOutsideTickBody, summary: '模拟税务端操作：在税务端平台（本系统之外）勾选或撤销勾选发票（仅模拟模式，演示和测试用）', tags }, config: cfg }, async (req) => {
      const a = await stats.outsideTick(req, req.body);
      return ok(a, `模拟税务端：${req.body.action === 'tick' ? '勾选' : '撤销勾选'}成功${a.accepted}张${a.accepted < a.outcomes.length ? `，拒绝${a.outcomes.length - a.accepted}张` : ''}`);
    });
    r.post(`${P}/${scope}/export`, { schema: { body: StatViewBody, summary: `导出${name}（Excel）`, tags }, config: cfg }, async (req, reply) => {
      const v = await stats.view(req, scope, req.body.period);
      const lines = exportLines(v);
      return exportXlsx(app, req, reply, {
        fileName: `${name}${v.period}`, sheetName: name, category: name, rowCount: lines.length, description: `导出${name} 税款所属期${v.period}`, columns: COLUMNS,
        rows: (async function* () { yield lines; })(),
      });
    });
  }
}

export const incomeStatisticsRoutes = fp(statisticsModule, { name: 'income-statistics' });
