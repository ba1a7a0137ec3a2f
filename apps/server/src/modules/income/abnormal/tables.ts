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
  /** 0046 (recheck.ts): the 进项转出 proposal of a case whose invoice is ticked for 抵扣 (amount 分, null: none), and its note. */
  proposed_amount?: number | null;
  proposed_reason?: number | null;
  proposed_period?: string;
  proposal_note?: string;
  /** 0046: the document the case names: 'reimbursement' (doc_id the bill) or 'project' (doc_id the project); '' otherwise. */
  doc_kind?: string;
  doc_id?: string | null;
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
  /** 0046: the voucher's period as proposed ('YYYYMM'; '' = the day it is made). */
  period?: string;
}

declare module '../../../db/schema.js' {
  interface Database {
    income_abnormal_cases: IncomeAbnormalCaseTable;
    income_transfer_outs: IncomeTransferOutTable;
  }
}
