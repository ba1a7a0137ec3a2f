/**
 * Log integrity: rows a client reported itself (/syslog/add-operation-log, /syslog/add-integrated-synclog)
 * are marked, so the log screens tell them from what the server recorded.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  for (const t of ['operation_logs', 'sync_logs']) {
    await db.schema.alterTable(t).addColumn('client_reported', 'integer', (c) => c.notNull().defaultTo(sql`0`)).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['operation_logs', 'sync_logs']) await db.schema.alterTable(t).dropColumn('client_reported').execute();
}
