/**
 * Archive numbers GD{yyyyMM}{seq}: seq counts per month (Asia/Shanghai), at least 4 digits, taken by one upsert
 * on the month's counter row (`insert … on conflict (month) do update set seq = seq + 1 returning seq`)
 * inside the transaction that records the successful signing. Concurrent signings queue on the row
 * (PostgreSQL row lock; SQLite serialises writers), so no two share a number; a transaction that rolls
 * back takes its increment with it, so none is skipped. A revoked signing keeps its number: the counter
 * never goes back, so a number is never given twice.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import './tables.js';

/** '202611' for an instant, in Asia/Shanghai. */
export const shanghaiMonth = (at: Date = new Date()) => new Date(at.getTime() + 8 * 3600_000).toISOString().slice(0, 7).replace('-', '');

export const formatArchiveNo = (month: string, seq: number) => `GD${month}${String(seq).padStart(4, '0')}`;

/**
 * The month's first number continues after the highest one the pool already holds for that month
 * (numbers given before this counter existed, e.g. the demo seed's); afterwards the row alone counts.
 */
export async function nextArchiveNo(trx: Kysely<Database>, at: Date = new Date()): Promise<string> {
  const month = shanghaiMonth(at);
  const prefix = `GD${month}`;
  const r = await sql<{ seq: number | string }>`
    insert into income_archive_counters (month, seq)
    select ${month}, coalesce(max(cast(substr(archive_no, 9) as integer)), 0) + 1 from income_invoices
     where archive_no like ${`${prefix}%`} and length(archive_no) between 12 and 16
    on conflict (month) do update set seq = income_archive_counters.seq + 1
    returning seq`.execute(trx);
  return formatArchiveNo(month, Number(r.rows[0]!.seq));
}
