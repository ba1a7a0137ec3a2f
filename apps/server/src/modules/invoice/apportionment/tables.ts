/** Table types of migration 0006_invoice_apportionment (declaration merging into Database). */
import '../../../db/schema.js';

export interface AllocationTable {
  id: string;
  invoice_id: string;
  /** 'project' | 'contract' */
  dim: string;
  target_id: string;
  amount_excl: number;
  tax: number;
  amount_incl: number;
  issue_date: string | null;
  created_by: string | null;
  created_by_name: string;
  created_at: string;
  updated_at: string;
}

export interface AllocationChangeTable {
  id: string;
  invoice_id: string;
  dim: string;
  /** default | set | move | match */
  action: string;
  from_target_id: string | null;
  to_target_id: string | null;
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
    invoice_allocations: AllocationTable;
    invoice_allocation_changes: AllocationChangeTable;
  }
}
