/** SQL of the account module: the user behind a login name, failure counters, the password. */
import type { Db } from '../../db/index.js';
import { nowIso } from '../../platform/time.js';

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

  async recordFailure(userId: string, failedCount: number, failedSince: string | null, lockedUntil: string | null): Promise<void> {
    await this.db.kysely
      .updateTable('users')
      .set({ failed_count: failedCount, failed_since: failedSince, locked_until: lockedUntil, updated_at: nowIso() })
      .where('id', '=', userId)
      .execute();
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
