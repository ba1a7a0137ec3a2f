/** 临时合同开票 (/invoice/invoicestatistics/temp-contract-invoice). */
import { TempInvoices } from './TempInvoices';

export default function TempContractInvoice() {
  return <TempInvoices dim="contract" />;
}
