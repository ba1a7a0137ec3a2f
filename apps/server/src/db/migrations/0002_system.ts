/**
 * System administration (issue 4): sign-in locations, AI recognition calls, file exports and
 * downloads, and the indexes the system screens filter on. Portable across SQLite and PostgreSQL.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // One row per sign-in (session), resolved from its IP with the offline IP database.
  await db.schema
    .createTable('sign_in_locations')
    .addColumn('session_id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('country', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('province', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('city', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('isp', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('location', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('new_city', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('signed_in_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sign_in_locations_time_idx').on('sign_in_locations').column('signed_in_at').execute();
  await db.schema.createIndex('sign_in_locations_user_idx').on('sign_in_locations').columns(['user_id', 'signed_in_at']).execute();
  await db.schema.createIndex('sign_in_locations_user_city_idx').on('sign_in_locations').columns(['user_id', 'location']).execute();
  await db.schema.createIndex('sign_in_locations_province_idx').on('sign_in_locations').columns(['province', 'signed_in_at']).execute();
  await db.schema.createIndex('sign_in_locations_new_idx').on('sign_in_locations').columns(['new_city', 'signed_in_at']).execute();

  // Calls of the recognition service (written by recordAiCall()).
  await db.schema
    .createTable('ai_call_logs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('interface_code', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('login_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('user_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('success', 'integer', (c) => c.notNull())
    .addColumn('duration_ms', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('file_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ai_call_logs_time_idx').on('ai_call_logs').column('created_at').execute();
  await db.schema.createIndex('ai_call_logs_interface_idx').on('ai_call_logs').columns(['interface_code', 'created_at']).execute();
  await db.schema.createIndex('ai_call_logs_user_idx').on('ai_call_logs').columns(['login_name', 'created_at']).execute();
  await db.schema.createIndex('ai_call_logs_day_idx').on('ai_call_logs').column('day').execute();

  // File exports (Excel, tender files) and downloads.
  await db.schema
    .createTable('file_export_logs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('row_count', 'integer')
    .addColumn('user_id', 'text')
    .addColumn('login_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('user_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('dept_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('file_export_logs_time_idx').on('file_export_logs').column('created_at').execute();
  await db.schema.createIndex('file_export_logs_user_idx').on('file_export_logs').columns(['login_name', 'created_at']).execute();
  await db.schema.createIndex('file_export_logs_category_idx').on('file_export_logs').columns(['category', 'created_at']).execute();
  await db.schema.createIndex('file_export_logs_kind_idx').on('file_export_logs').columns(['kind', 'created_at']).execute();

  // Filters of the system screens on the platform's tables.
  await db.schema.createIndex('sessions_created_idx').on('sessions').column('created_at').execute();
  await db.schema.createIndex('sync_logs_type_idx').on('sync_logs').columns(['type', 'created_at']).execute();
  await db.schema.createIndex('operation_logs_login_idx').on('operation_logs').columns(['login_name', 'created_at']).execute();
  await db.schema.createIndex('user_roles_user_idx').on('user_roles').column('user_id').execute();
  await db.schema.createIndex('departments_manager_idx').on('departments').column('manager_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const i of ['sessions_created_idx', 'sync_logs_type_idx', 'operation_logs_login_idx', 'user_roles_user_idx', 'departments_manager_idx']) {
    await db.schema.dropIndex(i).execute();
  }
  for (const t of ['file_export_logs', 'ai_call_logs', 'sign_in_locations']) await db.schema.dropTable(t).execute();
}
