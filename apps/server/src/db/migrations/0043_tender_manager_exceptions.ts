/**
 * 0043_tender_manager_exceptions (issue 29 item 11): the lawful exceptions to the registered-manager rule
 * (注册建造师执业管理办法（试行）, 建市〔2008〕48号, 第九条; docs/tender.md "Registered builders' exceptions").
 *
 * - `tender_manager_exceptions`: one row per (manager, project, other project): the project the manager may
 *   lead in addition to `other_project_id` they already lead, the ground (1 停工120天以上（含）且经建设单位同意,
 *   2 同一工程相邻分段发包, 3 同一发包人分期施工), the days it holds (valid_from, valid_to or open), the stop day
 *   of the stopped project (ground 1 only), a remark, who recorded it and when. The evidence is a tender
 *   attachment of owner kind 'manager-exception'.
 * - `projects.manager_exception_id`: the exception a project's hold of its manager rests on (set by the
 *   service when the project is saved or an exception recorded or removed).
 * - The partial unique index of 0036 (one active registered project per manager) is recreated to leave out
 *   the projects resting on an exception: it still guards the ordinary case against two saves at once.
 *
 * Self-contained (frozen): the index name is written out, not imported.
 */
import { sql, type Kysely } from 'kysely';

const INDEX = 'projects_registered_manager_active';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('tender_manager_exceptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('manager_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('other_project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('ground', 'integer', (c) => c.notNull())
    .addColumn('valid_from', 'text', (c) => c.notNull())
    .addColumn('valid_to', 'text')
    .addColumn('stop_date', 'text')
    .addColumn('remark', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_by', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tender_manager_exceptions_pair').unique().on('tender_manager_exceptions').columns(['manager_id', 'project_id', 'other_project_id']).execute();
  await db.schema.createIndex('tender_manager_exceptions_project').on('tender_manager_exceptions').column('project_id').execute();
  await db.schema.createIndex('tender_manager_exceptions_other').on('tender_manager_exceptions').column('other_project_id').execute();

  await db.schema.alterTable('projects').addColumn('manager_exception_id', 'text').execute();
  await sql`drop index ${sql.raw(INDEX)}`.execute(db);
  await sql`create unique index ${sql.raw(INDEX)} on projects (manager_id) where manager_registered = 1 and state in (1, 2) and manager_id is not null and manager_exception_id is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index ${sql.raw(INDEX)}`.execute(db);
  await sql`create unique index ${sql.raw(INDEX)} on projects (manager_id) where manager_registered = 1 and state in (1, 2) and manager_id is not null`.execute(db);
  await db.schema.alterTable('projects').dropColumn('manager_exception_id').execute();
  await db.schema.dropTable('tender_manager_exceptions').execute();
}
