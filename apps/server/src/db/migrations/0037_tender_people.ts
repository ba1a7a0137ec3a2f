/**
 * 0037_tender_people: 投标管理 — people and certificates (issue 17). Personnel facts of system users
 * (tender_personnel, one row per user), professional titles (tender_titles), certificate kinds
 * (tender_cert_kinds, managed in 投标设置), qualification certificates (tender_certificates) and the
 * expiry reminders sent (tender_cert_reminders). Days 'YYYY-MM-DD'; timestamps ISO UTC text.
 *
 * Enforced by the database: one personnel row per user; a kind's name once; a certificate number once
 * per kind; a reminder once per certificate, end day and mark (so two servers never send it twice).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('tender_personnel')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id'))
    .addColumn('id_card', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('gender', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('birth_date', 'text')
    .addColumn('education', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('school', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('major', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('graduation_date', 'text')
    .addColumn('hire_date', 'text')
    .addColumn('remark', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('updated_by', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tender_personnel_education_idx').on('tender_personnel').column('education').execute();

  await db.schema
    .createTable('tender_cert_kinds')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    // JSON array of level names, in order.
    .addColumn('levels', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('has_speciality', 'integer', (c) => c.notNull().defaultTo(0))
    // null: open-ended.
    .addColumn('valid_years', 'integer')
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_by', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('tender_titles')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('level', 'integer', (c) => c.notNull())
    .addColumn('title_name', 'text', (c) => c.notNull())
    .addColumn('speciality', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('cert_no', 'text', (c) => c.notNull())
    .addColumn('issuer', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('issue_date', 'text', (c) => c.notNull())
    .addColumn('remark', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('updated_by', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tender_titles_user_idx').on('tender_titles').columns(['user_id', 'level']).execute();
  await db.schema.createIndex('tender_titles_level_idx').on('tender_titles').columns(['level', 'issue_date']).execute();
  await db.schema.createIndex('tender_titles_cert_no_uq').on('tender_titles').column('cert_no').unique().execute();

  await db.schema
    .createTable('tender_certificates')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('kind_id', 'text', (c) => c.notNull().references('tender_cert_kinds.id'))
    .addColumn('level', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('speciality', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('cert_no', 'text', (c) => c.notNull())
    .addColumn('issuer', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('valid_from', 'text', (c) => c.notNull())
    // null: open-ended.
    .addColumn('valid_to', 'text')
    .addColumn('company', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('remark', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('updated_by', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tender_certificates_no_uq').on('tender_certificates').columns(['kind_id', 'cert_no']).unique().execute();
  await db.schema.createIndex('tender_certificates_user_idx').on('tender_certificates').column('user_id').execute();
  await db.schema.createIndex('tender_certificates_kind_idx').on('tender_certificates').columns(['kind_id', 'level']).execute();
  await db.schema.createIndex('tender_certificates_valid_to_idx').on('tender_certificates').column('valid_to').execute();

  await db.schema
    .createTable('tender_cert_reminders')
    .addColumn('cert_id', 'text', (c) => c.notNull().references('tender_certificates.id').onDelete('cascade'))
    // The end day reminded of: a renewed certificate (a later end day) is reminded again.
    .addColumn('valid_to', 'text', (c) => c.notNull())
    .addColumn('mark', 'integer', (c) => c.notNull())
    .addColumn('sent_on', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('tender_cert_reminders_pk', ['cert_id', 'valid_to', 'mark'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['tender_cert_reminders', 'tender_certificates', 'tender_titles', 'tender_cert_kinds', 'tender_personnel']) await db.schema.dropTable(t).ifExists().execute();
}
