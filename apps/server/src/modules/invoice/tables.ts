/**
 * Table types of migration 0004_invoice, added to the platform's Database type by declaration merging
 * (as the system module does). Money columns are BIGINT 分 (numbers in JS on both engines).
 */
import type { ColumnType, Generated } from 'kysely';
import '../../db/schema.js';
import type { ContractTable, ProjectTable } from '../tender/tables.js';

/** Projects and contracts belong to the tender area (issue 17), which extends them; invoicing keeps using them. */
export type { ContractTable, ProjectTable } from '../tender/tables.js';

export interface BuyerTable {
  id: string;
  name: string;
  tax_no: string | null;
  address: string;
  phone: string;
  bank: string;
  account: string;
  email: string;
  mobile: string;
  default_kind: number;
  remark: string;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface InvoiceSettingTable {
  id: string;
  seller_name: string;
  seller_tax_no: string;
  seller_address: string;
  seller_phone: string;
  seller_bank: string;
  seller_account: string;
  clerk: string;
  payee: string;
  checker: string;
  default_kind: number;
  gateway_mode: string;
  app_key: string;
  app_secret: string;
  gateway_tax_no: string;
  nuonuo_url: string;
  simulator_delay_ms: number;
  simulator_failure_rate: string;
  file_key: string;
  red_refreshed_at: string | null;
  /** 0026: 先入账后勾选 (1: only booked incoming invoices may be ticked); optional for the rows and defaults written before it. */
  tick_booked_only?: number;
  updated_by: string;
  updated_at: string | null;
}

export interface TaxCodeTable {
  code: string;
  name: string;
  short_name: string;
  tax_rate: string;
  policy: number;
  sort: number;
}

export interface InvoiceTable {
  id: string;
  order_no: string;
  serial_no: string | null;
  kind: number;
  colour: number;
  status: number;
  source: number;
  request_work_id: number | null;
  project_id: string | null;
  contract_id: string | null;
  buyer_id: string | null;
  buyer_name: string;
  buyer_tax_no: string;
  buyer_address: string;
  buyer_phone: string;
  buyer_bank: string;
  buyer_account: string;
  buyer_email: string;
  buyer_mobile: string;
  seller_name: string;
  seller_tax_no: string;
  seller_address: string;
  seller_phone: string;
  seller_bank: string;
  seller_account: string;
  remark: string;
  clerk: string;
  payee: string;
  checker: string;
  special_factor: number;
  construction_site: string;
  construction_project: string;
  red_reason: number | null;
  blue_invoice_id: string | null;
  blue_invoice_no: string;
  red_confirm_id: number | null;
  invoice_no: string;
  invoice_code: string;
  digital_no: string;
  issued_at: string | null;
  /** Asia/Shanghai day of issued_at, YYYY-MM-DD. */
  issue_date: string | null;
  amount_excl: number;
  tax: number;
  amount_incl: number;
  failure_cause: string;
  status_message: string;
  invalid: number;
  invalid_reason: string;
  retry_count: number;
  /** When the tax service accepted the request (a serial number came back); null while not yet confirmed. */
  submitted_at: string | null;
  next_poll_at: string | null;
  poll_count: number;
  created_by: string | null;
  created_by_name: string;
  updated_by_name: string;
  created_at: string;
  updated_at: string;
}

export interface InvoiceLineTable {
  id: string;
  invoice_id: string;
  line_no: number;
  goods_name: string;
  tax_code: string;
  spec: string;
  unit: string;
  quantity: string;
  unit_price: string;
  price_includes_tax: number;
  tax_rate: string;
  policy: number;
  line_property: number;
  amount_excl: number;
  tax: number;
  amount_incl: number;
}

export interface InvoiceBlobTable {
  sha256: string;
  size: number;
  content: Buffer;
  created_at: string;
}

export interface InvoiceFileTable {
  id: string;
  invoice_id: string;
  /** AttachmentType: 1000 PDF/OFD/XML of the tax service, 1010 scan, 1011 screenshot. */
  type: number;
  format: string;
  name: string;
  mime: string;
  size: number;
  sha256: string;
  created_by: string | null;
  created_at: string;
}

export interface RedConfirmTable {
  id: Generated<number>;
  bill_id: string | null;
  bill_no: string | null;
  confirm_no: string;
  direction: string;
  state: string;
  blue_invoice_id: string | null;
  blue_invoice_no: string;
  blue_issue_date: string;
  blue_kind: number;
  buyer_name: string;
  buyer_tax_no: string;
  red_reason: number;
  vat_usage: number;
  amount_excl: number;
  tax: number;
  amount_incl: number;
  /** JSON: RedLine[] (the blue line number, goods, rate, negative amounts). */
  lines: string;
  red_order_no: string;
  red_serial_no: string | null;
  red_invoice_id: string | null;
  message: string;
  created_by: string | null;
  created_by_name: string;
  created_at: string;
  updated_at: string;
  /** When the tax service is next asked about it after a submission (null: left to the periodic refresh). */
  next_poll_at: ColumnType<string | null, string | null | undefined, string | null>;
  poll_count: ColumnType<number, number | undefined, number>;
}

export interface CancellationTable {
  id: string;
  invoice_id: string;
  state: number;
  reason: string;
  message: string;
  user_id: string | null;
  user_name: string;
  created_at: string;
  finished_at: string | null;
}

declare module '../../db/schema.js' {
  interface Database {
    projects: ProjectTable;
    contracts: ContractTable;
    invoice_buyers: BuyerTable;
    invoice_settings: InvoiceSettingTable;
    invoice_tax_codes: TaxCodeTable;
    invoices: InvoiceTable;
    invoice_lines: InvoiceLineTable;
    invoice_blobs: InvoiceBlobTable;
    invoice_files: InvoiceFileTable;
    invoice_red_confirms: RedConfirmTable;
    invoice_cancellations: CancellationTable;
  }
}
