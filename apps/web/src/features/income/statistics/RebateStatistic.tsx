/** 退税统计 (/invoice/deduction/tax-rebate/statistic, issue 14). */
import { StatPage } from './StatPage';

export default function RebateStatistic() {
  return <StatPage scope="rebate" />;
}
