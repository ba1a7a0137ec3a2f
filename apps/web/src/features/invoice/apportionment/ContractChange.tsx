/** 订单变更 (/invoice/invoiceaccount/contract-change). */
import { ChangePage } from './ChangePage';

export default function ContractChange() {
  return <ChangePage dim="contract" />;
}
