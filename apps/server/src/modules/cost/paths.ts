/**
 * The pages of the /cost group (SPEC section 2) and the access rule of each call: a call names the pages
 * that use it, so the route table's roles decide (ledger and summary 1, 16–19; the audit queue 1, 17,
 * 20–22; the settings 1, 17). Entering orders (1, 16, 17) is narrower than reading the ledger: see
 * `ENTRY_ROLES`.
 */
import { pages } from '../../platform/access.js';

export const PAGE = {
  ledger: '/cost-management/account',
  examine: '/cost-management/examine',
  summary: '/cost-management/summary',
  setting: '/costmanagement/setting',
} as const;

/** Roles that enter, import, copy, re-price and sync orders on the ledger page (issue 16). */
export const ENTRY_ROLES = ['1', '16', '17'] as const;

export const access = {
  /** 成本单台账 (1, 16, 17, 18, 19): the list, detail, export; entry further limited to ENTRY_ROLES. */
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
};

export const tags = ['成本管理'];
