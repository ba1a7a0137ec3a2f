/** Table type of migration 0025_income_transport (declaration merging, as ../tables.ts does). */
import '../../../db/schema.js';

/** One row per passenger transport document of the pool (facts.ts). Money in 分. */
export interface IncomeTransportTable {
  invoice_id: string;
  /** air, rail, road, einvoice (packages/shared TransportKind). */
  transport_kind: string;
  passenger_name: string;
  travel_date: string;
  international: number;
  fare: number;
  fuel: number;
  basis: number;
  formula_tax: number;
}

declare module '../../../db/schema.js' {
  interface Database {
    income_transport: IncomeTransportTable;
  }
}
