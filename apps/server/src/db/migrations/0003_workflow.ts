/**
 * The workflow service's own tables (prefix wf_), so that it could later be deployed apart.
 * WorkID is an integer key: `integer primary key autoincrement` on SQLite, `serial` on PostgreSQL.
 */
import { PostgresAdapter, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;

  await db.schema
    .createTable('wf_templates')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('flow_no', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('is_current', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('record_type', 'text')
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('definition', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('wf_templates_flow_version_uq', ['flow_no', 'version'])
    .execute();
  await db.schema.createIndex('wf_templates_current_idx').on('wf_templates').columns(['is_current', 'enabled', 'category']).execute();

  let instances = db.schema.createTable('wf_instances');
  instances = postgres
    ? instances.addColumn('work_id', 'serial', (c) => c.primaryKey())
    : instances.addColumn('work_id', 'integer', (c) => c.primaryKey().autoIncrement());
  await instances
    .addColumn('template_id', 'text', (c) => c.notNull().references('wf_templates.id'))
    .addColumn('flow_no', 'text', (c) => c.notNull())
    .addColumn('flow_name', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('starter_id', 'text', (c) => c.notNull())
    .addColumn('starter_name', 'text', (c) => c.notNull())
    .addColumn('dept_id', 'text')
    .addColumn('dept_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('state', 'integer', (c) => c.notNull())
    .addColumn('node_id', 'text', (c) => c.notNull())
    .addColumn('node_name', 'text', (c) => c.notNull())
    .addColumn('handler_names', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('form_data', 'text', (c) => c.notNull())
    .addColumn('record_type', 'text')
    .addColumn('record_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema.createIndex('wf_instances_starter_idx').on('wf_instances').columns(['starter_id', 'state']).execute();
  await db.schema.createIndex('wf_instances_state_idx').on('wf_instances').columns(['state', 'updated_at']).execute();
  await db.schema.createIndex('wf_instances_flow_idx').on('wf_instances').columns(['flow_no', 'created_at']).execute();
  await db.schema.createIndex('wf_instances_dept_idx').on('wf_instances').columns(['dept_id', 'created_at']).execute();
  await db.schema.createIndex('wf_instances_created_idx').on('wf_instances').column('created_at').execute();
  await db.schema.createIndex('wf_instances_record_idx').on('wf_instances').columns(['record_type', 'record_id']).execute();

  await db.schema
    .createTable('wf_work_items')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('work_id', 'integer', (c) => c.notNull().references('wf_instances.work_id'))
    .addColumn('node_id', 'text', (c) => c.notNull())
    .addColumn('node_name', 'text', (c) => c.notNull())
    .addColumn('handler_id', 'text', (c) => c.notNull())
    .addColumn('handler_name', 'text', (c) => c.notNull())
    .addColumn('dept_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('state', 'integer', (c) => c.notNull())
    .addColumn('opinion', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('pressed_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('done_at', 'text')
    .execute();
  await db.schema.createIndex('wf_work_items_handler_idx').on('wf_work_items').columns(['handler_id', 'state', 'created_at']).execute();
  await db.schema.createIndex('wf_work_items_work_idx').on('wf_work_items').columns(['work_id', 'state']).execute();
  await db.schema.createIndex('wf_work_items_done_idx').on('wf_work_items').column('done_at').execute();

  await db.schema
    .createTable('wf_tracks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('work_id', 'integer', (c) => c.notNull().references('wf_instances.work_id'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('node_id', 'text', (c) => c.notNull())
    .addColumn('node_name', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('actor_name', 'text', (c) => c.notNull())
    .addColumn('dept_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('opinion', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('to_node_id', 'text')
    .addColumn('to_node_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('to_names', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('wf_tracks_work_seq_uq', ['work_id', 'seq'])
    .execute();
  await db.schema.createIndex('wf_tracks_actor_idx').on('wf_tracks').columns(['actor_id', 'created_at']).execute();
  await db.schema.createIndex('wf_tracks_actor_work_idx').on('wf_tracks').columns(['actor_id', 'work_id']).execute();

  await db.schema
    .createTable('wf_cc')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('work_id', 'integer', (c) => c.notNull().references('wf_instances.work_id'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('user_name', 'text', (c) => c.notNull())
    .addColumn('from_name', 'text', (c) => c.notNull())
    .addColumn('is_read', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('wf_cc_user_idx').on('wf_cc').columns(['user_id', 'work_id']).execute();

  await db.schema
    .createTable('wf_notices')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('column_name', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('state', 'integer', (c) => c.notNull())
    .addColumn('publisher_id', 'text')
    .addColumn('publisher_name', 'text', (c) => c.notNull())
    .addColumn('published_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('wf_notices_state_idx').on('wf_notices').columns(['state', 'published_at']).execute();

  await db.schema
    .createTable('wf_user_settings')
    .addColumn('user_id', 'text', (c) => c.primaryKey())
    .addColumn('default_opinion', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('wf_attachments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('mime', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('uploader_id', 'text', (c) => c.notNull())
    .addColumn('work_id', 'integer')
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('wf_attachments_work_idx').on('wf_attachments').column('work_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['wf_attachments', 'wf_user_settings', 'wf_notices', 'wf_cc', 'wf_tracks', 'wf_work_items', 'wf_instances', 'wf_templates']) {
    await db.schema.dropTable(t).execute();
  }
}
