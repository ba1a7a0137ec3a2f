/** /api/account/* and /api/user/updatepassword: HTTP only; the rules live in service.ts. */
import type { FastifyInstance } from 'fastify';
import { LoginBody, LogoutBody, Messages, UpdatePasswordBody, UserInfoBody } from '@zhyy/shared';
import { PUBLIC, SIGNED_IN_INITIAL_OK } from '../../platform/access.js';
import { currentUser } from '../../platform/context.js';
import { ok } from '../../platform/envelope.js';
import { typed } from '../../platform/route.js';
import { AccountService } from './service.js';

export async function accountRoutes(app: FastifyInstance): Promise<void> {
  const svc = new AccountService(app);
  const r = typed(app);
  const tags = ['账号'];

  r.post(
    '/api/account/login',
    {
      schema: { body: LoginBody, summary: '登录，返回 r.token', tags, security: [] },
      config: { access: PUBLIC, rateLimit: { name: 'login', max: app.appConfig.loginRateLimit, windowMs: 60_000 } },
    },
    async (req) => ok(await svc.login(req, req.body.name, req.body.password)),
  );

  r.post(
    '/api/account/userinfo',
    { schema: { body: UserInfoBody, summary: '当前用户信息：角色、姓名、部门、是否须修改初始密码', tags }, config: { access: SIGNED_IN_INITIAL_OK } },
    async (req) => ok(svc.userInfo(currentUser(req))),
  );

  r.post(
    '/api/account/logout',
    { schema: { body: LogoutBody, summary: '退出，吊销当前令牌', tags }, config: { access: SIGNED_IN_INITIAL_OK } },
    async (req) => {
      await svc.logout(req, currentUser(req));
      return ok();
    },
  );

  r.post(
    '/api/user/updatepassword',
    { schema: { body: UpdatePasswordBody, summary: '修改密码（校验原密码与第5节规则）', tags }, config: { access: SIGNED_IN_INITIAL_OK } },
    async (req) => {
      await svc.updatePassword(req, currentUser(req), req.body);
      return ok(undefined, Messages.passwordUpdated);
    },
  );
}
