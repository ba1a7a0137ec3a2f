/** Table types of migrations 0020_income_signing and 0040_income_sign_withdrawal (declaration merging). */
import type { Generated } from 'kysely';
import '../../../db/schema.js';

export interface IncomeSigningTable {
  id: string;
  invoice_id: string;
  doc_type: string;
  doc_no: string;
  note: string;
  state: string;
  archive_no: string;
  voucher_id: string;
  fail_reason: string;
  user_id: string | null;
  user_name: string;
  created_at: string;
  finished_at: string | null;
  /** 0040: set while the archive filing is being withdrawn (签收撤销 in progress), null otherwise. */
  revoke_started_at: string | null;
  revoke_reason: Generated<string>;
  revoke_user_id: string | null;
  revoke_user_name: Generated<string>;
}
export interface IncomeSignRevokeTable {
  id: string;
  signing_id: string;
  invoice_id: string;
  archive_no: string;
  reason: string;
  user_id: string | null;
  user_name: string;
  created_at: string;
}
export interface IncomeArchiveCounterTable {
  month: string;
  seq: number;
}
export interface IncomeInvoiceDeptTable {
  invoice_id: string;
  dept_id: string;
  updated_by_name: string;
  updated_at: string;
}
export interface IncomeAllocationTable {
  id: string;
  invoice_id: string;
  project_id: string;
  amount_excl: number;
  tax: number;
  amount_incl: number;
  created_by_name: string;
  created_at: string;
  updated_at: string;
}
export interface IncomeAllocationChangeTable {
  id: string;
  invoice_id: string;
  action: string;
  from_project_id: string | null;
  to_project_id: string | null;
  from_name: string;
  to_name: string;
  amount_incl: number;
  before: string;
  after: string;
  reason: string;
  user_id: string | null;
  user_name: string;
  created_at: string;
}

declare module '../../../db/schema.js' {
  interface Database {
    income_signings: IncomeSigningTable;
    income_sign_revokes: IncomeSignRevokeTable;
    income_archive_counters: IncomeArchiveCounterTable;
    income_invoice_depts: IncomeInvoiceDeptTable;
    income_allocations: IncomeAllocationTable;
    income_allocation_changes: IncomeAllocationChangeTable;
  }
}
