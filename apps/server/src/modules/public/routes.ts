/** GET /api/public/config: what the web client needs before sign-in (service base URLs, sister-system links). */
import type { FastifyInstance } from 'fastify';
import type { PublicConfig } from '@zhyy/shared';
import { PUBLIC } from '../../platform/access.js';
import { ok } from '../../platform/envelope.js';
import { sisterLinks } from '../../integrations/sister/simulator.js';


export async function publicRoutes(app: FastifyInstance): Promise<void> {
  app.get('/api/public/config', { config: { access: PUBLIC }, schema: { summary: '客户端启动配置', tags: ['公共'], security: [] } }, async () => {
    const c = app.appConfig;
    const r: PublicConfig = {
      workflowBaseUrl: c.workflowBaseUrl,
      ...sisterLinks(c),
      oaName: 'OA办公系统',
      pmsName: '项目管理系统',
      version: app.buildId,
    };
    return ok(r);
  });
}
