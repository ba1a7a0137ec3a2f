/** 项目分摊台账 (/invoice/invoiceaccount/invoice-item-apportionment). */
import { Ledger } from './Ledger';

export default function ProjectLedger() {
  return <Ledger dim="project" />;
}
