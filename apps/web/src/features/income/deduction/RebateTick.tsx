/** 退税勾选 (/invoice/tax-rebate/list): ticking for export rebate or agent rebate. */
import { TickPage } from './TickPage';

export default function RebateTick() {
  return <TickPage scope="rebate" />;
}
