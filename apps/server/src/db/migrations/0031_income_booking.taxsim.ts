/**
 * The booking-flag simulator's own state (part of migration 0031_income_booking): the flag per invoice
 * (taxsim_income_bookings: state, the booking day, whether it was ever booked) and a counter of calls to
 * fail (taxsim_booking_faults, the test hook `failNextBookingCalls`).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('taxsim_income_bookings')
    .addColumn('invoice_key', 'text', (c) => c.primaryKey())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('booked_at', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('ever_booked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('taxsim_booking_faults')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('remaining', 'integer', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['taxsim_booking_faults', 'taxsim_income_bookings']) await db.schema.dropTable(t).execute();
}
