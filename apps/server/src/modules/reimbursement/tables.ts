/** Table types of migration 0033_reimbursement (declaration merging, as the other areas' tables.ts do). */
import '../../db/schema.js';

export interface ReimbBillTable {
  id: string;
  bill_no: string;
  applicant_id: string;
  applicant_name: string;
  dept_id: string | null;
  dept_name: string;
  project_id: string | null;
  project_name: string;
  contract_no: string;
  period_from: string;
  period_to: string;
  reason: string;
  payee_name: string;
  payee_bank: string;
  payee_account: string;
  /** ReimbFlowState: 0 草稿, 1 审批中, 2 已退回, 3 已通过. */
  flow_state: number;
  work_id: number | null;
  /** ReimbState once approved: 0 未报销, -1 报销中, 1 已报销, 2 报销失败; null before. */
  reimb_state: number | null;
  amount: number;
  approved_amount: number;
  tax: number;
  deductible_tax: number;
  line_count: number;
  acct_summary: string;
  cost_centre_code: string;
  cost_centre_name: string;
  voucher_id: string;
  voucher_no: string;
  voucher_period: string;
  voucher_date: string;
  push_message: string;
  push_claimed_until: string | null;
  /** The lease of a 红字冲销 in progress (0047); null otherwise. */
  reverse_claimed_until: string | null;
  pushed_at: string | null;
  pushed_by: string;
  submitted_at: string | null;
  approved_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface ReimbLineTable {
  id: string;
  bill_id: string;
  line_no: number;
  category_code: string;
  category_name: string;
  expense_date: string;
  description: string;
  city: string;
  nights: number | null;
  seat_class: string;
  amount: number;
  tax_rate: string;
  tax: number;
  approved_amount: number | null;
  approve_note: string;
  approved_by: string;
  deductible_tax: number;
  invoice_id: string | null;
  invoice_number: string;
  subject_code: string;
  subject_name: string;
  /** JSON array of ReimbCheck. */
  checks: string;
  /**
   * The seller (the invoice's, else the 收款方 typed) and its normalised key (sellerKey; '' unknown), migration 0048.
   * Optional in the type only (the columns are NOT NULL DEFAULT ''), so rows written by other parts need not name them.
   */
  seller_name?: string;
  seller_key?: string;
}

/** An approver's acceptance of one 疑似重复报销 match (migration 0048). */
export interface ReimbDupAcceptTable {
  id: string;
  line_id: string;
  bill_id: string;
  other_line_id: string;
  other_bill_id: string;
  other_bill_no: string;
  opinion: string;
  user_id: string;
  user_name: string;
  created_at: string;
}

export interface ReimbAttachmentTable {
  id: string;
  bill_id: string;
  name: string;
  size: number;
  sha256: string;
  created_by: string | null;
  created_at: string;
}

export interface ReimbPushTable {
  id: string;
  bill_id: string;
  /** push | revoke */
  action: string;
  ok: number;
  voucher_no: string;
  message: string;
  user_name: string;
  created_at: string;
}

export interface ReimbRevocationTable {
  id: string;
  bill_id: string;
  bill_no: string;
  voucher_no: string;
  voucher_period: string;
  reason: string;
  /** 0 冲销中, 1 已撤销, 2 被拒绝. */
  state: number;
  message: string;
  requested_by: string | null;
  requested_by_name: string;
  created_at: string;
  /** 0047: 'delete' (the voucher deleted in the accounting system first) or 'reverse' (红字冲销). */
  method: string;
  reversal_voucher_no: string;
  reversal_period: string;
}

export interface ReimbCategoryTable {
  code: string;
  name: string;
  /** hotel | transport | allowance | '' */
  travel_kind: string;
  subject_code: string;
  subject_name: string;
  default_tax_rate: string;
  sort: number;
  enabled: number;
  updated_at: string;
}

export interface ReimbCostCentreTable {
  dept_id: string;
  centre_code: string;
  centre_name: string;
  updated_at: string;
}

export interface ReimbTravelStandardTable {
  grade: string;
  city_tier: number;
  hotel_per_night: number;
  /** Comma-separated seat classes allowed (e.g. 二等座,经济舱). */
  seat_classes: string;
  allowance_per_day: number;
  updated_at: string;
}

export interface ReimbCityTierTable {
  city: string;
  tier: number;
}

export interface ReimbProfileTable {
  user_id: string;
  grade: string;
  payee_name: string;
  payee_bank: string;
  payee_account: string;
  updated_at: string;
}

export interface ReimbSettingTable {
  key: string;
  value: string;
}

/** 0051: the pushed bills' lines per department ('' none) × voucher month × category, kept by triggers. */
export interface ReimbSummaryCellTable {
  dept_key: string;
  month: string;
  category_code: string;
  category_name: string;
  amount: number;
  lines: number;
}

/** 0051: the pushed bills per department ('' none) × voucher month × the bills' department name, kept by triggers. */
export interface ReimbSummaryBillTable {
  dept_key: string;
  month: string;
  dept_name: string;
  bills: number;
}

export interface ReimbCounterTable {
  month: string;
  seq: number;
}

declare module '../../db/schema.js' {
  interface Database {
    reimb_bills: ReimbBillTable;
    reimb_lines: ReimbLineTable;
    reimb_summary_cells: ReimbSummaryCellTable;
    reimb_summary_bills: ReimbSummaryBillTable;
    reimb_dup_accepts: ReimbDupAcceptTable;
    reimb_attachments: ReimbAttachmentTable;
    reimb_pushes: ReimbPushTable;
    reimb_revocations: ReimbRevocationTable;
    reimb_categories: ReimbCategoryTable;
    reimb_cost_centres: ReimbCostCentreTable;
    reimb_travel_standards: ReimbTravelStandardTable;
    reimb_city_tiers: ReimbCityTierTable;
    reimb_profiles: ReimbProfileTable;
    reimb_settings: ReimbSettingTable;
    reimb_counters: ReimbCounterTable;
  }
}
