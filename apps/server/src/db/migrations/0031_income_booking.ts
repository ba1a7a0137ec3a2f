/**
 * 0031_income_booking (issue 14, 入账标识): income_invoices.booked_at (when the invoice was booked, 02 or 03;
 * null otherwise — the pool's "booked state and date"), the deliveries of the flag to the tax service
 * (income_booking_deliveries: one row per state change to send, with its attempts, the next attempt, the
 * last error, who holds it while an attempt runs, and its status pending / sent / failed), and the
 * booking-flag simulator's tables (0031_income_booking.taxsim.ts).
 */
import type { Kysely } from 'kysely';
import * as sim from './0031_income_booking.taxsim.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('income_invoices').addColumn('booked_at', 'text').execute();
  await db.schema
    .createTable('income_booking_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('invoice_id', 'text', (c) => c.notNull().references('income_invoices.id').onDelete('cascade'))
    // 02, 03, 06
    .addColumn('state', 'text', (c) => c.notNull())
    // manual, contract, reimbursement
    .addColumn('source_type', 'text', (c) => c.notNull())
    .addColumn('source_no', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('requested_by', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text')
    .addColumn('last_error', 'text', (c) => c.notNull().defaultTo(''))
    // pending, sent, failed
    .addColumn('status', 'text', (c) => c.notNull())
    // The attempt in progress: who (a server's holder id) and until when (a crashed attempt is taken over after it).
    .addColumn('claimed_by', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('claimed_until', 'text')
    .addColumn('sent_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // The job's due list (status, next attempt) and one invoice's deliveries (the pool detail, the order of sending).
  await db.schema.createIndex('income_booking_deliveries_due_idx').on('income_booking_deliveries').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('income_booking_deliveries_invoice_idx').on('income_booking_deliveries').columns(['invoice_id', 'created_at']).execute();
  await sim.up(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sim.down(db);
  await db.schema.dropTable('income_booking_deliveries').execute();
  await db.schema.alterTable('income_invoices').dropColumn('booked_at').execute();
}
