/** 临时项目开票 (/invoice/invoicestatistics/temp-project-invoice). */
import { TempInvoices } from './TempInvoices';

export default function TempProjectInvoice() {
  return <TempInvoices dim="project" />;
}
