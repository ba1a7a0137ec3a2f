/**
 * 0042_filing_calendars (issue 29 item 9, the filing calendar 申报日历): the years of the calendar an
 * administrator entered in 系统管理 / 申报日历, one row per year: the twelve deadlines of January … December
 * ('YYYY-MM-DD', JSON array), who entered them and when. The published years are shipped as data
 * (packages/shared filing-calendar.ts) and win over a row; a year with neither is computed.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('filing_calendars')
    .addColumn('year', 'integer', (c) => c.primaryKey())
    .addColumn('days', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('filing_calendars').execute();
}
