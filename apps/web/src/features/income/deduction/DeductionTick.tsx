/** 抵扣勾选 (/invoice/deduction/deduction/list): ticking for deduction or as non-deduction. */
import { TickPage } from './TickPage';

export default function DeductionTick() {
  return <TickPage scope="deduction" />;
}
