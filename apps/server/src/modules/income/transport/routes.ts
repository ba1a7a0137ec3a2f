/**
 * 计算抵扣 (issue 14, page /invoice/calc-deduction/statistic, roles 1 and 13 by the route table):
 * /api/income/transport/{list,summary,export}. Registered from the income pool routes.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { TransportExportQuery, TransportQuery, TransportSummaryQuery } from '@zhyy/shared';
import { pages } from '../../../platform/access.js';
import { ok } from '../../../platform/envelope.js';
import { typed } from '../../../platform/route.js';
import { exportTransport } from './export.js';
import { transportPage, transportSummary } from './repo.js';

export const TRANSPORT_PAGE = '/invoice/calc-deduction/statistic';
const access = { access: pages(TRANSPORT_PAGE) };
const tags = ['旅客运输计算抵扣'];

async function transportModule(app: FastifyInstance): Promise<void> {
  const r = typed(app);
  const db = () => app.db.kysely;
  const P = '/api/income/transport';
  r.post(`${P}/list`, { schema: { body: TransportQuery, summary: '旅客运输计算抵扣：所属期的旅客运输票据，逐张的计算依据和可抵扣税额，合计与按种类合计', tags }, config: access }, async (req) => ok(await transportPage(db(), req.body)));
  r.post(`${P}/summary`, { schema: { body: TransportSummaryQuery, summary: '旅客运输计算抵扣：所属期范围内按月、按种类的可抵扣税额', tags }, config: access }, async (req) => ok(await transportSummary(db(), req.body)));
  r.post(`${P}/export`, { schema: { body: TransportExportQuery, summary: '导出所属期的旅客运输计算抵扣（筛选结果全部，流式Excel）', tags }, config: access }, async (req, reply) => exportTransport(app, req, reply, req.body));
}

export const incomeTransportRoutes = fp(transportModule, { name: 'income-transport' });
