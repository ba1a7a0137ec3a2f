/**
 * The ordered list of migrations. Later areas append theirs here (name = file name); names sort in order.
 * Migrations are in code (not read from disk) so the compiled server carries them.
 */
import type { Migration } from 'kysely';
import * as m0001 from './0001_platform.js';
import * as m0002 from './0002_system.js';
import * as m0003 from './0003_workflow.js';
import * as m0004 from './0004_invoice.js';
import * as m0005 from '../../integrations/tax/simulator/migration.js';
import * as m0006 from '../../modules/invoice/apportionment/migration.js';
import * as m0007 from '../../modules/invoice/ledger/migration.js';
import * as m0008 from './0008_sync_log_refs.js';
import * as m0009 from './0009_operation_log_records.js';

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
};
