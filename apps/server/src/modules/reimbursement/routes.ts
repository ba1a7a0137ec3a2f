/**
 * 费用报销 (issue 15): /api/reimbursement/*. Each capability registers its own calls:
 * apply/ (my bills, lines, the invoice lock, the checks, the 费用报销审批 flow, 核定),
 * accounting/ (一键报销, edit, revoke, the sync log, the badge count),
 * ledger/ (报销台账, detail, 部门月度报销汇总, 部门月度报销流水, exports),
 * settings/ (报销设置). docs/reimbursement.md describes the area.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { accountingRoutes } from './accounting/routes.js';
import { applyRoutes } from './apply/routes.js';
import { ledgerRoutes } from './ledger/routes.js';
import { settingRoutes } from './settings/routes.js';
import './tables.js';

async function reimbursementModule(app: FastifyInstance): Promise<void> {
  await settingRoutes(app);
  await applyRoutes(app);
  await accountingRoutes(app);
  await ledgerRoutes(app);
}

export const reimbursementRoutes = fp(reimbursementModule, { name: 'reimbursement', dependencies: ['workflow'] });
