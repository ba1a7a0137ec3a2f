/** Table types of migration 0026_income_ticking (the tick log; the tick facts are on IncomeInvoiceTable). */
import '../../../db/schema.js';

export interface TickLogTable {
  id: string;
  batch_id: string;
  invoice_id: string | null;
  invoice_number: string;
  kind: string;
  issue_date: string;
  seller_name: string;
  action: string;
  vat_usage: number;
  deduct_reason: number | null;
  tax: number;
  effective_tax: number;
  period: string;
  result: number;
  message: string;
  user_id: string | null;
  user_name: string;
  created_at: string;
}

declare module '../../../db/schema.js' {
  interface Database {
    income_tick_logs: TickLogTable;
  }
}
