/**
 * Request limits shared by every app server on the database (platform/rate-limit.ts): one row per
 * limit name and key (e.g. 'login' + IP) holding the count of the current window and when it ends.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('rate_limits')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addColumn('window_ends_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_limits_pk', ['name', 'key'])
    .execute();
  await db.schema.createIndex('rate_limits_ends_idx').on('rate_limits').column('window_ends_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('rate_limits').execute();
}
