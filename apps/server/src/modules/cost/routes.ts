/**
 * 成本管理 (issue 16): /api/cost-price/*, /api/cost-order/*, /api/cost-setting/*. Each capability
 * registers its own calls: price/ (the price list, its timeline, import and export), order/ (entry,
 * copy, re-price, import, the project-management sync, the ledger, detail, export), audit/ (the queue,
 * audit and invalidate, the badge count), summary/ (月度成本汇总 and its export), settings/ (auditors,
 * month closing, the project-management interface). docs/cost.md describes the area.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { auditRoutes } from './audit/routes.js';
import { orderEntryRoutes } from './order/routes.js';
import { priceRoutes } from './price/routes.js';
import { settingRoutes } from './settings/routes.js';
import { summaryRoutes } from './summary/routes.js';
import './tables.js';

async function costModule(app: FastifyInstance): Promise<void> {
  await priceRoutes(app);
  await settingRoutes(app);
  await orderEntryRoutes(app);
  await auditRoutes(app);
  await summaryRoutes(app);
}

export const costRoutes = fp(costModule, { name: 'cost' });
