/** Table types of migration 0017_income (declaration merging, as the invoice module's tables.ts does). */
import '../../../db/schema.js';

export interface IncomeInvoiceTable {
  id: string;
  ident: string;
  kind: string;
  invoice_code: string;
  invoice_no: string;
  digital_no: string;
  issue_date: string;
  seller_name: string;
  seller_tax_no: string;
  buyer_name: string;
  buyer_tax_no: string;
  amount_excl: number;
  tax: number;
  amount_incl: number;
  check_code: string;
  invoice_state: number;
  red_pending: number;
  risk_level: string;
  verify_state: number;
  verified_at: string | null;
  sign_state: number;
  archive_no: string;
  booking_state: string;
  source: number;
  usage: number;
  use_kind: string;
  doc_no: string;
  buyer_mismatch: number;
  duplicate_of: string | null;
  arrivals: number;
  remark: string;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  /** 0026 (deduction/; optional: the rows written before it, and the seeds, take the defaults): 0 none, 1 抵扣, 2 出口退税, 3 代办退税, 4 不抵扣. */
  vat_usage?: number;
  /** 0 未勾选, 1 已勾选. */
  tick_state?: number;
  /** 分; null while not ticked. */
  effective_tax?: number | null;
  deduct_reason?: number | null;
  /** 'YYYYMM'; '' while not ticked. */
  tick_period?: string;
  ticked_at?: string | null;
  ticked_by?: string;
  /** 0031 (booking/): when the invoice was booked (02 / 03); null otherwise. */
  booked_at?: string | null;
  /** 0041: a red invoice's 对应蓝字发票号码 ('' otherwise) and the pool's blue invoice of that number, once both are in. */
  blue_no?: string;
  blue_id?: string | null;
  /** 0046 (abnormal/recheck.ts): when the status re-check last asked the tax service (null: never); 1 it knew the invoice, 0 not. */
  status_checked_at?: string | null;
  status_found?: number | null;
}

export interface IncomeLineTable {
  id: string;
  invoice_id: string;
  line_no: number;
  name: string;
  spec: string;
  unit: string;
  quantity: string;
  unit_price: string;
  amount: number;
  tax_rate: string;
  tax: number;
}

export interface IncomeFileTable {
  id: string;
  invoice_id: string;
  format: string;
  name: string;
  size: number;
  sha256: string;
  created_by: string | null;
  created_at: string;
}

export interface IncomeEventTable {
  id: string;
  invoice_id: string;
  kind: string;
  message: string;
  user_name: string;
  created_at: string;
}

export interface IncomeLockTable {
  id: string;
  invoice_id: string;
  use_kind: string;
  doc_no: string;
  state: string;
  active: number | null;
  created_at: string;
  ended_at: string | null;
}

/** income_pool_days (0024): the pool's count and sums per key (db/migrations/0024_income_pool_summary.ts). */
export interface IncomePoolDayTable {
  issue_date: string;
  kind: string;
  invoice_state: number;
  sign_state: number;
  usage: number;
  buyer_mismatch: number;
  n: number;
  amount_excl: number;
  tax: number;
  amount_incl: number;
}

/** income_pool_sellers (0050): the pool's count and sums per seller name and 0024's keys but the day (db/migrations/0050_income_seller_names.ts). */
export interface IncomePoolSellerTable {
  seller_name: string;
  kind: string;
  invoice_state: number;
  sign_state: number;
  usage: number;
  buyer_mismatch: number;
  n: number;
  amount_excl: number;
  tax: number;
  amount_incl: number;
}

/** income_pool_amounts (0053): the pool's count per amount bucket and kind (db/migrations/0053_income_pool_deep.ts, pool/amounts.ts). */
export interface IncomePoolAmountTable {
  amount_key: number;
  kind: string;
  n: number;
}

/** 采集's cursor and the 查验 log (migration 0019_income_intake). */
export interface IncomeCollectCursorTable {
  name: string;
  last_day: string;
  updated_at: string;
}

export interface IncomeVerificationTable {
  id: string;
  invoice_id: string;
  outcome: string;
  message: string;
  fields: string;
  checks_today: number;
  user_id: string | null;
  user_name: string;
  created_at: string;
}

/** 采集 tasks run in the background (migration 0022_income_collect_tasks). */
export interface IncomeCollectTaskTable {
  id: string;
  from_day: string;
  to_day: string;
  state: string;
  holder: string;
  pages: number;
  total: number;
  seen: number;
  created: number;
  merged: number;
  flagged: number;
  state_changed: number;
  failed: number;
  failures: string;
  message: string;
  user_id: string | null;
  user_name: string;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

declare module '../../../db/schema.js' {
  interface Database {
    income_invoices: IncomeInvoiceTable;
    income_invoice_lines: IncomeLineTable;
    income_files: IncomeFileTable;
    income_events: IncomeEventTable;
    income_locks: IncomeLockTable;
    income_pool_days: IncomePoolDayTable;
    income_pool_sellers: IncomePoolSellerTable;
    income_pool_amounts: IncomePoolAmountTable;
    income_collect_cursor: IncomeCollectCursorTable;
    income_verifications: IncomeVerificationTable;
    income_collect_tasks: IncomeCollectTaskTable;
  }
}
