/** Accounts, sessions, departments, logs: the platform's own tables. Portable across SQLite and PostgreSQL. */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('departments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('parent_id', 'text', (c) => c.references('departments.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('manager_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('departments_parent_idx').on('departments').column('parent_id').execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('login_name', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('dept_id', 'text', (c) => c.references('departments.id'))
    .addColumn('position', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('phone', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('email', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('password_is_initial', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('failed_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failed_since', 'text')
    .addColumn('locked_until', 'text')
    .addColumn('last_login_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('users_dept_idx').on('users').column('dept_id').execute();
  await db.schema.createIndex('users_status_idx').on('users').column('status').execute();
  await db.schema.createIndex('users_name_idx').on('users').column('name').execute();

  await db.schema
    .createTable('user_roles')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_roles_pk', ['user_id', 'role'])
    .execute();
  await db.schema.createIndex('user_roles_role_idx').on('user_roles').column('role').execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('user_agent', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .addColumn('revoked_reason', 'text')
    .execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();
  await db.schema.createIndex('sessions_seen_idx').on('sessions').column('last_seen_at').execute();

  await db.schema
    .createTable('operation_logs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text')
    .addColumn('login_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('user_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('operation_logs_time_idx').on('operation_logs').column('created_at').execute();
  await db.schema.createIndex('operation_logs_type_idx').on('operation_logs').columns(['type', 'created_at']).execute();
  await db.schema.createIndex('operation_logs_user_idx').on('operation_logs').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('sync_logs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('system', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('memo', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('request', 'text')
    .addColumn('response', 'text')
    .addColumn('duration_ms', 'integer')
    .addColumn('user_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sync_logs_time_idx').on('sync_logs').column('created_at').execute();
  await db.schema.createIndex('sync_logs_status_idx').on('sync_logs').columns(['status', 'created_at']).execute();
  await db.schema.createIndex('sync_logs_system_idx').on('sync_logs').columns(['system', 'created_at']).execute();

  await db.schema
    .createTable('sister_todos')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('system', 'text', (c) => c.notNull())
    .addColumn('login_name', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sister_todos_user_idx').on('sister_todos').columns(['system', 'login_name', 'done']).execute();

  await db.schema
    .createTable('app_meta')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['app_meta', 'sister_todos', 'sync_logs', 'operation_logs', 'sessions', 'user_roles', 'users', 'departments']) {
    await db.schema.dropTable(t).execute();
  }
}
