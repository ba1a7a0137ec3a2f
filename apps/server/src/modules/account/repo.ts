/** SQL of the account module: the user behind a login name, failure counters, the password. */
import { sql } from 'kysely';
import { LOGIN_FAILURE_WINDOW_MS, LOGIN_LOCK_MS, LOGIN_MAX_FAILURES } from '@zhyy/shared';
import type { Db } from '../../db/index.js';
import { isoAfter, isoBefore, nowIso } from '../../platform/time.js';

export function normaliseLoginName(name: string): string {
  return name.trim().toLowerCase();
}

export class AccountRepo {
  constructor(private readonly db: Db) {}

  findByLoginName(loginName: string) {
    return this.db.kysely
      .selectFrom('users')
      .select(['id', 'login_name', 'name', 'password_hash', 'password_is_initial', 'status', 'failed_count', 'failed_since', 'locked_until'])
      .where('login_name', '=', normaliseLoginName(loginName))
      .executeTakeFirst();
  }

  passwordHash(userId: string) {
    return this.db.kysely.selectFrom('users').select(['password_hash']).where('id', '=', userId).executeTakeFirst();
  }

  /**
   * Counts a sign-in attempt as a failure before its password is checked, in one statement, so
   * concurrent attempts cannot all read the same count. The attempt that makes the count reach
   * LOGIN_MAX_FAILURES within the window also sets the lock (a right password then lifts it again).
   * Returns nothing when the account is locked: that attempt is refused without a check.
   */
  async claimAttempt(userId: string, now: Date = new Date()) {
    const at = now.toISOString();
    const inWindow = sql<boolean>`failed_since is not null and failed_since > ${isoBefore(LOGIN_FAILURE_WINDOW_MS, now)}`;
    const count = sql<number>`case when ${inWindow} then failed_count + 1 else 1 end`;
    return this.db.kysely
      .updateTable('users')
      .set({
        failed_count: count,
        failed_since: sql<string>`case when ${inWindow} then failed_since else ${at} end`,
        locked_until: sql<string | null>`case when ${count} >= ${LOGIN_MAX_FAILURES} then ${isoAfter(LOGIN_LOCK_MS, now)} else null end`,
      })
      .where('id', '=', userId)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', at)]))
      .returning(['failed_count', 'locked_until'])
      .executeTakeFirst();
  }

  lockedUntil(userId: string) {
    return this.db.kysely.selectFrom('users').select(['locked_until']).where('id', '=', userId).executeTakeFirst();
  }

  /** The attempt that set the lock was wrong: the lock stays, the count starts afresh after it. */
  async keepLock(userId: string): Promise<void> {
    await this.db.kysely.updateTable('users').set({ failed_count: 0, failed_since: null }).where('id', '=', userId).execute();
  }

  /** A right password: the attempt counted by claimAttempt (and any lock it set) is taken back. */
  async clearFailures(userId: string): Promise<void> {
    await this.db.kysely.updateTable('users').set({ failed_count: 0, failed_since: null, locked_until: null }).where('id', '=', userId).execute();
  }

  async recordSuccess(userId: string): Promise<void> {
    const now = nowIso();
    await this.db.kysely
      .updateTable('users')
      .set({ failed_count: 0, failed_since: null, locked_until: null, last_login_at: now })
      .where('id', '=', userId)
      .execute();
  }

  async setPassword(userId: string, hash: string, initial: boolean): Promise<void> {
    await this.db.kysely
      .updateTable('users')
      .set({ password_hash: hash, password_is_initial: initial ? 1 : 0, failed_count: 0, failed_since: null, locked_until: null, updated_at: nowIso() })
      .where('id', '=', userId)
      .execute();
  }
}
