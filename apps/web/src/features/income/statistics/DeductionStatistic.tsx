/** 抵扣统计 (/invoice/deduction/deduction/statistic, issue 14). */
import { StatPage } from './StatPage';

export default function DeductionStatistic() {
  return <StatPage scope="deduction" />;
}
