/** The ticking calls' access: the 发票抵扣 pages of the shared route table (roles 1, 13; 14 and 16 are refused 权限不足). */
import { pages } from '../../../platform/access.js';

export const DEDUCTION = {
  deduction: '/invoice/deduction/deduction/list',
  rebate: '/invoice/tax-rebate/list',
  log: '/income/invoice/log',
} as const;

export const access = {
  deduction: { access: pages(DEDUCTION.deduction) },
  rebate: { access: pages(DEDUCTION.rebate) },
  /** The period and the setting: either ticking page. */
  either: { access: pages(DEDUCTION.deduction, DEDUCTION.rebate) },
  log: { access: pages(DEDUCTION.log) },
};

export const tags = ['发票勾选'];
