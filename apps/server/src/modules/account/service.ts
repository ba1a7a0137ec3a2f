/**
 * Sign-in, sign-out and the password: the rules of issue 2.
 * - Wrong name or password: 30000 用户名或密码错误 (an unknown name costs the same time as a wrong password).
 * - Five wrong passwords within 15 minutes lock the account for 15 minutes: 50011 saying until when;
 *   each attempt is counted in one statement before its password is checked, so parallel guesses lock too.
 * - Only wrong passwords count (issue 27 item 10): the attempts on one account are checked one at a
 *   time in each app server, so a right password takes its provisional count back before the next
 *   attempt is counted; twenty right sign-ins at once all succeed, limited by the per-IP rate alone.
 * - A disabled account cannot sign in.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  LOGIN_MAX_FAILURES,
  Messages,
  OperationLogType,
  ResponseCode,
  accountLockedMessage,
  type LoginResult,
  type UpdatePasswordBody,
  type UserInfo,
} from '@zhyy/shared';
import type { AuthUser } from '../../platform/context.js';
import { AppError, refuse } from '../../platform/envelope.js';
import { hashPassword, verifyAgainstDummy, verifyPassword } from '../../platform/passwords.js';
import { AccountRepo } from './repo.js';

/**
 * Runs the sign-in attempts on one account one after another (per app server): each attempt is
 * counted as a failure before its password is checked, so without this, right passwords sent at
 * once would count each other up to the lock before any of them could take its count back.
 */
class PerAccountQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key) ?? Promise.resolve();
    const result = before.then(fn, fn);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}

export class AccountService {
  private readonly repo: AccountRepo;
  private readonly attempts = new PerAccountQueue();

  constructor(private readonly app: FastifyInstance) {
    this.repo = new AccountRepo(app.db);
  }

  async login(req: FastifyRequest, name: string, password: string): Promise<LoginResult> {
    const user = await this.repo.findByLoginName(name);
    const fail = async (actor: { id: string; login_name: string; name: string } | null, why: string) => {
      await this.app.oplog.write({
        type: OperationLogType.fail,
        description: `登录失败：${name}（${why}）`,
        actor: actor ? { id: actor.id, loginName: actor.login_name, name: actor.name } : null,
        ip: req.ip,
      });
    };
    if (!user) {
      await verifyAgainstDummy(password);
      await fail(null, '用户名不存在');
      throw refuse(Messages.wrongCredentials);
    }
    return this.attempts.run(user.id, () => this.attempt(req, user, password, fail));
  }

  private async attempt(
    req: FastifyRequest,
    user: NonNullable<Awaited<ReturnType<AccountRepo['findByLoginName']>>>,
    password: string,
    fail: (actor: { id: string; login_name: string; name: string } | null, why: string) => Promise<void>,
  ): Promise<LoginResult> {
    const locked = (until: string) => new AppError(ResponseCode.passwordErrorsExceeded, accountLockedMessage(new Date(until)), 429);
    // The attempt is counted before the password is checked (see AccountRepo.claimAttempt), so
    // guesses sent all at once lock the account after the fifth like guesses sent one by one.
    let attempt = await this.repo.claimAttempt(user.id);
    if (!attempt) {
      const until = (await this.repo.lockedUntil(user.id))?.locked_until;
      if (until && Date.parse(until) > Date.now()) throw locked(until);
      // The lock was lifted between the two statements (its fifth attempt had the right password).
      attempt = await this.repo.claimAttempt(user.id);
      if (!attempt) throw locked((await this.repo.lockedUntil(user.id))?.locked_until ?? new Date().toISOString());
    }
    if (!(await verifyPassword(user.password_hash, password))) {
      if (attempt.locked_until) {
        await this.repo.keepLock(user.id);
        await fail(user, `连续${LOGIN_MAX_FAILURES}次密码错误，账号锁定`);
        throw locked(attempt.locked_until);
      }
      await fail(user, '密码错误');
      throw refuse(Messages.wrongCredentials);
    }
    if (user.status !== 1) {
      await this.repo.clearFailures(user.id);
      await fail(user, '账号已停用');
      throw refuse(Messages.accountDisabled, 403);
    }
    await this.repo.recordSuccess(user.id);
    const { token } = await this.app.sessions.create(user.id, req.ip, String(req.headers['user-agent'] ?? ''));
    await this.app.oplog.write({
      type: OperationLogType.login,
      description: '登录系统',
      actor: { id: user.id, loginName: user.login_name, name: user.name },
      ip: req.ip,
    });
    return { token, needChangePassword: user.password_is_initial === 1 };
  }

  userInfo(user: AuthUser): UserInfo {
    return {
      roles: user.roles,
      name: user.name,
      loginName: user.loginName,
      deptName: user.deptName,
      position: user.position,
      needChangePassword: user.mustChangePassword,
    };
  }

  async logout(req: FastifyRequest, user: AuthUser): Promise<void> {
    await this.app.sessions.revoke(user.sessionId, 'logout');
    await this.app.oplog.record(req, OperationLogType.logout, '退出系统');
  }

  /**
   * Checks the old password, applies SPEC section 5's rules (already enforced by the body schema),
   * clears the initial-password flag and revokes every other session of the user.
   */
  async updatePassword(req: FastifyRequest, user: AuthUser, body: UpdatePasswordBody): Promise<void> {
    if (!body.oldPassword) throw refuse('请输入原密码');
    const row = await this.repo.passwordHash(user.id);
    if (!row || !(await verifyPassword(row.password_hash, body.oldPassword))) throw refuse(Messages.oldPasswordWrong);
    if (body.password === body.oldPassword) throw refuse(Messages.samePassword);
    await this.repo.setPassword(user.id, await hashPassword(body.password), false);
    await this.app.sessions.revokeAllForUser(user.id, 'password-changed', user.sessionId);
    await this.app.oplog.record(req, OperationLogType.edit, '修改登录密码');
  }
}
