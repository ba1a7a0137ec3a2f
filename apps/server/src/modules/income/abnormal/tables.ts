/** Table types of migration 0029_income_abnormal (declaration merging). */
import '../../../db/schema.js';

export interface IncomeAbnormalCaseTable {
  id: string;
  invoice_id: string;
  /** IncomeAbnormalFlag: one case per (invoice, flag). */
  flag: string;
  owner_id: string | null;
  raised_at: string;
  /** 'open' | 'resolved'. */
  state: string;
  /** AbnormalAction that resolved it ('' while open). */
  action: string;
  note: string;
  /** The backing document flagged for its owner ('签收单 QS-…', '报销单 BX-…'), '' when none. */
  doc_flagged: string;
  notified_user_id: string | null;
  resolved_by: string | null;
  resolved_by_name: string;
  resolved_at: string | null;
}

export interface IncomeTransferOutTable {
  id: string;
  /** One transfer-out per invoice (unique). */
  invoice_id: string;
  case_id: string;
  idem_key: string | null;
  reason: number;
  amount: number;
  /** 'pending' (voucher not yet pushed) | 'pushed'. */
  state: string;
  voucher_no: string;
  voucher_period: string;
  attempts: number;
  last_error: string;
  next_try_at: string;
  created_by: string | null;
  created_by_name: string;
  created_at: string;
  pushed_at: string | null;
}

declare module '../../../db/schema.js' {
  interface Database {
    income_abnormal_cases: IncomeAbnormalCaseTable;
    income_transfer_outs: IncomeTransferOutTable;
  }
}
