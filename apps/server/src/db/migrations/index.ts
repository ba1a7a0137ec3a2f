/**
 * The ordered list of migrations. Later areas append theirs here (name = file name); names sort in order.
 * Migrations are in code (not read from disk) so the compiled server carries them. Every migration is a
 * frozen file of this folder (docs/architecture.md, "Layers and the dependency check"): it imports
 * nothing from modules/ or integrations/, only kysely and its own parts (NNNN_<name>.<part>.ts). The
 * names below are the keys recorded in kysely_migration: never change one.
 */
import type { Migration } from 'kysely';
import * as m0001 from './0001_platform.js';
import * as m0002 from './0002_system.js';
import * as m0003 from './0003_workflow.js';
import * as m0004 from './0004_invoice.js';
import * as m0005 from './0005_taxsim.js';
import * as m0006 from './0006_invoice_apportionment.js';
import * as m0007 from './0007_invoice_ledger.js';
import * as m0008 from './0008_sync_log_refs.js';
import * as m0009 from './0009_operation_log_records.js';
import * as m0010 from './0010_rate_limits.js';
import * as m0011 from './0011_job_leases.js';
import * as m0012 from './0012_log_integrity.js';
import * as m0013 from './0013_search_index.js';
import * as m0015 from './0015_leave_days_derived.js';
import * as m0016 from './0016_system_actor_red_polls.js';
import * as m0017 from './0017_income.js';
import * as m0018 from './0018_taxsim_income.js';
import * as m0019 from './0019_income_intake.js';
import * as m0020 from './0020_income_signing.js';
import * as m0021 from './0021_income_pool_indexes.js';
import * as m0022 from './0022_income_collect_tasks.js';
import * as m0023 from './0023_archivesim.js';
import * as m0024 from './0024_income_pool_summary.js';
import * as m0025 from './0025_income_transport.js';
import * as m0026 from './0026_income_ticking.js';
import * as m0027 from './0027_buyer_names.js';
import * as m0028 from './0028_income_statistics.js';
import * as m0029 from './0029_income_abnormal.js';
import * as m0030 from './0030_accountingsim.js';
import * as m0031 from './0031_income_booking.js';
import * as m0032 from './0032_user_messages.js';
import * as m0033 from './0033_reimbursement.js';
import * as m0034 from './0034_cost.js';
import * as m0035 from './0035_tender_files.js';
import * as m0036 from './0036_tender_contracts.js';
import * as m0037 from './0037_tender_people.js';
import * as m0038 from './0038_tender_exports.js';
import * as m0039 from './0039_tender_renewal.js';
import * as m0040 from './0040_income_sign_withdrawal.js';
import * as m0041 from './0041_income_red_received.js';
import * as m0042 from './0042_filing_calendars.js';
import * as m0043 from './0043_tender_manager_exceptions.js';
import * as m0044 from './0044_customs_notices_exception_ends.js';
import * as m0045 from './0045_income_stat_reconcile.js';
import * as m0046 from './0046_income_status_recheck.js';
import * as m0047 from './0047_reimb_reversal.js';
import * as m0048 from './0048_reimb_duplicate_claims.js';
import * as m0049 from './0049_cost_close_digest.js';
import * as m0050 from './0050_income_seller_names.js';
import * as m0051 from './0051_reimb_summary_cells.js';
import * as m0052 from './0052_cost_summary_cells.js';
import * as m0053 from './0053_income_pool_deep.js';

export const migrations: Record<string, Migration> = {
  '0001_platform': m0001,
  '0002_system': m0002,
  '0003_workflow': m0003,
  '0004_invoice': m0004,
  '0005_taxsim': m0005,
  '0006_invoice_apportionment': m0006,
  '0007_invoice_ledger': m0007,
  '0008_sync_log_refs': m0008,
  '0009_operation_log_records': m0009,
  '0010_rate_limits': m0010,
  '0011_job_leases': m0011,
  '0012_log_integrity': m0012,
  '0013_search_index': m0013,
  '0015_leave_days_derived': m0015,
  '0016_system_actor_red_polls': m0016,
  '0017_income': m0017,
  '0018_taxsim_income': m0018,
  '0019_income_intake': m0019,
  '0020_income_signing': m0020,
  '0021_income_pool_indexes': m0021,
  '0022_income_collect_tasks': m0022,
  '0023_archivesim': m0023,
  '0024_income_pool_summary': m0024,
  '0025_income_transport': m0025,
  '0026_income_ticking': m0026,
  '0027_buyer_names': m0027,
  '0028_income_statistics': m0028,
  '0029_income_abnormal': m0029,
  '0030_accountingsim': m0030,
  '0031_income_booking': m0031,
  '0032_user_messages': m0032,
  '0033_reimbursement': m0033,
  '0034_cost': m0034,
  '0035_tender_files': m0035,
  '0036_tender_contracts': m0036,
  '0037_tender_people': m0037,
  '0038_tender_exports': m0038,
  '0039_tender_renewal': m0039,
  '0040_income_sign_withdrawal': m0040,
  '0041_income_red_received': m0041,
  '0042_filing_calendars': m0042,
  '0043_tender_manager_exceptions': m0043,
  '0044_customs_notices_exception_ends': m0044,
  '0045_income_stat_reconcile': m0045,
  '0046_income_status_recheck': m0046,
  '0047_reimb_reversal': m0047,
  '0048_reimb_duplicate_claims': m0048,
  '0049_cost_close_digest': m0049,
  '0050_income_seller_names': m0050,
  '0051_reimb_summary_cells': m0051,
  '0052_cost_summary_cells': m0052,
  '0053_income_pool_deep': m0053,
};
