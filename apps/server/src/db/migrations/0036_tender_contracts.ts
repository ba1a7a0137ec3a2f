/**
 * 0036_tender_contracts (issue 17): projects and contracts, created by 0004 for invoicing, gain what the
 * tender area needs — nullable or defaulted columns only, so invoicing's inserts keep working.
 * - projects: location, start/end dates, state (ProjectState, default 在建), manager (users.id) and whether
 *   the manager is a registered constructor. A registered manager leads at most one active (在建 or 停工)
 *   project: a partial unique index, whatever the service does (two concurrent assignments: one wins).
 * - contracts: signed_on, work_from/work_to (工期), accepted_on (竣工验收), manager, parent_id (an order's
 *   frame contract), remark, updated_by. Completeness is not stored: it is derived from tender_attachments when read.
 * Indexes on what the lists filter and join on.
 */
import { sql, type Kysely } from 'kysely';

export const MANAGER_INDEX = 'projects_registered_manager_active';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('projects').addColumn('location', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('projects').addColumn('start_date', 'text').execute();
  await db.schema.alterTable('projects').addColumn('end_date', 'text').execute();
  await db.schema.alterTable('projects').addColumn('state', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await db.schema.alterTable('projects').addColumn('manager_id', 'text').execute();
  await db.schema.alterTable('projects').addColumn('manager_registered', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('projects').addColumn('updated_by', 'text', (c) => c.notNull().defaultTo('')).execute();
  await sql`create unique index ${sql.raw(MANAGER_INDEX)} on projects (manager_id) where manager_registered = 1 and state in (1, 2) and manager_id is not null`.execute(db);
  await db.schema.createIndex('projects_state_idx').on('projects').columns(['state', 'code']).execute();
  await db.schema.createIndex('projects_manager_idx').on('projects').column('manager_id').execute();
  await db.schema.createIndex('projects_customer_idx').on('projects').column('customer').execute();

  await db.schema.alterTable('contracts').addColumn('parent_id', 'text').execute();
  await db.schema.alterTable('contracts').addColumn('signed_on', 'text').execute();
  await db.schema.alterTable('contracts').addColumn('work_from', 'text').execute();
  await db.schema.alterTable('contracts').addColumn('work_to', 'text').execute();
  await db.schema.alterTable('contracts').addColumn('accepted_on', 'text').execute();
  await db.schema.alterTable('contracts').addColumn('manager_id', 'text').execute();
  await db.schema.alterTable('contracts').addColumn('remark', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('contracts').addColumn('updated_by', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.createIndex('contracts_parent_idx').on('contracts').column('parent_id').execute();
  await db.schema.createIndex('contracts_type_signed_idx').on('contracts').columns(['contract_type', 'signed_on']).execute();
  await db.schema.createIndex('contracts_accepted_idx').on('contracts').column('accepted_on').execute();
  await db.schema.createIndex('contracts_customer_idx').on('contracts').column('customer').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const i of ['contracts_parent_idx', 'contracts_type_signed_idx', 'contracts_accepted_idx', 'contracts_customer_idx', 'projects_state_idx', 'projects_manager_idx', 'projects_customer_idx', MANAGER_INDEX]) {
    await db.schema.dropIndex(i).ifExists().execute();
  }
  for (const c of ['parent_id', 'signed_on', 'work_from', 'work_to', 'accepted_on', 'manager_id', 'remark', 'updated_by']) await db.schema.alterTable('contracts').dropColumn(c).execute();
  for (const c of ['location', 'start_date', 'end_date', 'state', 'manager_id', 'manager_registered', 'updated_by']) await db.schema.alterTable('projects').dropColumn(c).execute();
}
