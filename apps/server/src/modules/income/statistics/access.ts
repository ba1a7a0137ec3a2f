/** The statistics calls' access: the 发票抵扣 pages 抵扣统计 and 退税统计 of the shared route table (roles 1, 13; 14 and 16 are refused 权限不足). */
import { pages } from '../../../platform/access.js';

export const STATISTICS = {
  deduction: '/invoice/deduction/deduction/statistic',
  rebate: '/invoice/deduction/tax-rebate/statistic',
} as const;

export const access = {
  deduction: { access: pages(STATISTICS.deduction) },
  rebate: { access: pages(STATISTICS.rebate) },
};

export const tags = ['抵扣统计'];
