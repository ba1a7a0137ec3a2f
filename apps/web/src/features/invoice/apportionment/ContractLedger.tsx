/** 订单分摊台账 (/invoice/invoiceaccount/contract-apportionment). */
import { Ledger } from './Ledger';

export default function ContractLedger() {
  return <Ledger dim="contract" />;
}
