/**
 * The pages of the /cost group (SPEC section 2) and the access rule of each call: a call names the pages
 * that use it, so the route table's roles decide (ledger and summary 1, 16–19; the audit queue 1, 17,
 * 20–22; the settings 1, 17). Entering orders (1, 16, 17: COST_ENTRY_ROLES) is narrower than reading the ledger and no page rule,
 * so it is a check in the handler (`assertEntry`, as 发票签收's assertWriter): 403 权限不足.
 */
import type { FastifyRequest } from 'fastify';
import { canEnterCostOrders } from '@zhyy/shared';
import { pages } from '../../platform/access.js';
import { forbidden } from '../../platform/envelope.js';

export const PAGE = {
  ledger: '/cost-management/account',
  examine: '/cost-management/examine',
  summary: '/cost-management/summary',
  setting: '/costmanagement/setting',
} as const;


export const access = {
  /** 成本单台账 (1, 16, 17, 18, 19): the list, detail, export; entry further limited by assertEntry. */
  ledger: { access: pages(PAGE.ledger) },
  /** The detail is read from the ledger and the audit queue. */
  detail: { access: pages(PAGE.ledger, PAGE.examine) },
  /** 待审核成本单 (1, 17, 20, 21, 22): the queue, audit, invalidate, the badge count. */
  audit: { access: pages(PAGE.examine) },
  /** 月度成本汇总 (1, 16–19). */
  summary: { access: pages(PAGE.summary) },
  /** 成本设置 (1, 17): prices, auditors, closing, the PMS interface. */
  setting: { access: pages(PAGE.setting) },
  /** The price choices of the order editor (ledger entry) and the list in settings. */
  prices: { access: pages(PAGE.ledger, PAGE.setting) },
  /** The project choices of every cost page's filters and the order editor (no other project lookup is open to 16–22). */
  projects: { access: pages(PAGE.ledger, PAGE.examine, PAGE.summary, PAGE.setting) },
};

export const tags = ['成本管理'];

/** Create, edit, copy, re-price, import, sync: roles 1, 16, 17 (admin); 18 and 19 read the ledger only. */
export function assertEntry(req: FastifyRequest): void {
  if (!canEnterCostOrders(req.user?.roles ?? [])) throw forbidden();
}
