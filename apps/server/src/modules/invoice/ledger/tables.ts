/** Table types of migration 0007_invoice_ledger (declaration merging, as ../tables.ts does). */
import '../../../db/schema.js';

export interface LedgerDayTable {
  issue_date: string;
  kind: number;
  colour: number;
  status: number;
  source: number;
  n: number;
  amount_excl: number;
  tax: number;
  amount_incl: number;
}

declare module '../../../db/schema.js' {
  interface Database {
    invoice_ledger_days: LedgerDayTable;
  }
}
