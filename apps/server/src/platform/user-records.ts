/**
 * What other areas hold about a user (flows started or handled, invoices entered…). Each area
 * registers a counter when it loads; the user administration asks them all before deleting a user,
 * so a user with records anywhere can only be disabled.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** Describes a user's records in one area, e.g. "3个流程", or null when there are none. */
export type UserRecordCounter = (db: Kysely<Database>, userId: string) => Promise<string | null>;

export class UserRecords {
  private readonly counters: UserRecordCounter[] = [];

  register(counter: UserRecordCounter): void {
    this.counters.push(counter);
  }

  async describe(db: Kysely<Database>, userId: string): Promise<string[]> {
    const found = await Promise.all(this.counters.map((c) => c(db, userId)));
    return found.filter((x): x is string => !!x);
  }
}

type CountRow = { n: number | string | bigint } | undefined;

/** The number a count(*) query answered (drivers differ: number, string or bigint). */
export const countOf = (row: CountRow): number => Number(row?.n ?? 0);

/** "发起3个流程、2条流程抄送" from counted rows and their wording; null when every count is 0. */
export function describeCounts(parts: ReadonlyArray<readonly [CountRow, (n: number) => string]>): string | null {
  const said = parts.filter(([row]) => countOf(row) > 0).map(([row, say]) => say(countOf(row)));
  return said.length ? said.join('、') : null;
}
