/** Sessions live in the database, so any number of app servers can serve one user. */
import { Messages, ONLINE_WINDOW_MS, SESSION_TTL_MS } from '@zhyy/shared';
import type { Db } from '../db/index.js';
import type { AuthUser } from './auth-user.js';
import { newId } from './ids.js';
import { isoAfter, isoBefore, nowIso } from './time.js';
import { hashToken, newToken } from './tokens.js';

/**
 * A session's last_seen_at is written at most this often, by whichever signed-in call comes first
 * (the heartbeat included): presence needs a 2-minute precision, not a write on every beat.
 */
const TOUCH_EVERY_MS = 30_000;

/**
 * The touches a server has due are written together, one UPDATE this often, not one UPDATE (and on
 * PostgreSQL one commit) per session: under 200 polling users the touches falling due at once held
 * the pool's connections and the badge calls queued behind them for seconds (issue 11). A session
 * that does not count as online yet is touched at once, so presence is never wrong by more than this.
 */
const TOUCH_FLUSH_MS = 2_000;

/** What the sign-in page says after each revocation reason (users.service REVOKE_REASON keys). */
const REVOKED_MESSAGES: Record<string, string> = {
  forced: Messages.sessionForcedOut,
  'password-reset': Messages.sessionPasswordReset,
  'password-changed': Messages.sessionPasswordChanged,
  disabled: Messages.accountDisabled,
};

export class SessionService {
  /** Sessions seen since their last_seen_at was written, waiting for the next flush. */
  private readonly dueTouches = new Set<string>();
  private flushTimer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly db: Db) {}

  /** Opens a session and returns the token (the only time it exists outside the client). */
  async create(userId: string, ip: string, userAgent: string): Promise<{ token: string; sessionId: string }> {
    const token = newToken();
    const now = nowIso();
    const id = newId();
    await this.db.kysely
      .insertInto('sessions')
      .values({
        id,
        token_hash: hashToken(token),
        user_id: userId,
        ip,
        user_agent: userAgent.slice(0, 400),
        created_at: now,
        expires_at: isoAfter(SESSION_TTL_MS),
        last_seen_at: now,
        revoked_at: null,
        revoked_reason: null,
      })
      .execute();
    return { token, sessionId: id };
  }

  /** The user behind a token, or null when it is unknown, expired, revoked or its user is disabled. */
  async resolve(token: string | undefined): Promise<AuthUser | null> {
    if (!token || token.length > 200) return null;
    const now = nowIso();
    const rows = await this.db.kysely
      .selectFrom('sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .leftJoin('departments as d', 'd.id', 'u.dept_id')
      // The roles in the same round trip: one row per role (one row with a null role when none).
      .leftJoin('user_roles as r', 'r.user_id', 'u.id')
      .select([
        's.id as sessionId',
        's.last_seen_at',
        'u.id',
        'u.login_name',
        'u.name',
        'u.dept_id',
        'd.name as dept_name',
        'u.position',
        'u.password_is_initial',
        'r.role',
      ])
      .where('s.token_hash', '=', hashToken(token))
      .where('s.revoked_at', 'is', null)
      .where('s.expires_at', '>', now)
      .where('u.status', '=', 1)
      .execute();
    const row = rows[0];
    if (!row) return null;
    const roles = rows.flatMap((r) => (r.role === null ? [] : [r.role]));
    const seen = Date.parse(row.last_seen_at);
    if (seen < Date.now() - ONLINE_WINDOW_MS + TOUCH_FLUSH_MS) await this.touch(row.sessionId);
    else if (seen < Date.now() - TOUCH_EVERY_MS) this.touchSoon(row.sessionId);
    return {
      id: row.id,
      sessionId: row.sessionId,
      loginName: row.login_name,
      name: row.name,
      roles: roles.sort((a, b) => Number(a) - Number(b) || a.localeCompare(b)),
      deptId: row.dept_id,
      deptName: row.dept_name ?? '',
      position: row.position,
      mustChangePassword: row.password_is_initial === 1,
    };
  }

  /**
   * Why a token is no longer accepted, in words for the sign-in page: forced out by an administrator,
   * expired, ended by a password reset or change, the account disabled; else the plain 50008 message.
   * Asked only after `resolve` refused the token.
   */
  async rejection(token: string | undefined): Promise<string> {
    if (!token || token.length > 200) return Messages.tokenInvalid;
    const row = await this.db.kysely
      .selectFrom('sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select(['s.revoked_at', 's.revoked_reason', 's.expires_at', 'u.status'])
      .where('s.token_hash', '=', hashToken(token))
      .executeTakeFirst();
    if (!row) return Messages.tokenInvalid;
    if (row.revoked_at) return REVOKED_MESSAGES[row.revoked_reason ?? ''] ?? Messages.tokenInvalid;
    if (row.status !== 1) return Messages.accountDisabled;
    if (row.expires_at <= nowIso()) return Messages.sessionExpired;
    return Messages.tokenInvalid;
  }

  async touch(sessionId: string): Promise<void> {
    this.dueTouches.delete(sessionId);
    await this.db.kysely.updateTable('sessions').set({ last_seen_at: nowIso() }).where('id', '=', sessionId).execute();
  }

  private touchSoon(sessionId: string): void {
    this.dueTouches.add(sessionId);
    if (this.flushTimer) return;
    this.flushTimer = setTimeout(() => void this.flushTouches(), TOUCH_FLUSH_MS);
    this.flushTimer.unref();
  }

  /** Writes the due touches now (the timer does it every 2 s; the server's close and tests call it). */
  async flushTouches(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    const ids = [...this.dueTouches];
    this.dueTouches.clear();
    const now = nowIso();
    const run = async () => {
      for (let i = 0; i < ids.length; i += 500) {
        await this.db.kysely.updateTable('sessions').set({ last_seen_at: now }).where('id', 'in', ids.slice(i, i + 500)).where('last_seen_at', '<', now).execute();
      }
    };
    // Presence is best effort: a failed write leaves last_seen_at as it was, and the session's next call queues it again.
    this.flushing = this.flushing.then(run).catch(() => undefined);
    await this.flushing;
  }

  async revoke(sessionId: string, reason: string): Promise<void> {
    await this.db.kysely
      .updateTable('sessions')
      .set({ revoked_at: nowIso(), revoked_reason: reason })
      .where('id', '=', sessionId)
      .where('revoked_at', 'is', null)
      .execute();
  }

  /** Revokes every live session of a user, except one (the caller's own, after a password change). */
  async revokeAllForUser(userId: string, reason: string, exceptSessionId?: string): Promise<number> {
    let q = this.db.kysely
      .updateTable('sessions')
      .set({ revoked_at: nowIso(), revoked_reason: reason })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null);
    if (exceptSessionId) q = q.where('id', '!=', exceptSessionId);
    const res = await q.executeTakeFirst();
    return Number(res.numUpdatedRows);
  }

  /** Sessions seen within the last 2 minutes. */
  async onlineCount(): Promise<number> {
    const now = nowIso();
    const row = await this.db.kysely
      .selectFrom('sessions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .where('last_seen_at', '>=', isoBefore(ONLINE_WINDOW_MS))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
