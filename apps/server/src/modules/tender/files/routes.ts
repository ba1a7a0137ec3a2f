/** Files and settings (docs/tender.md): the attachment calls and 投标设置. */
import type { FastifyInstance } from 'fastify';
import { attachmentRoutes } from '../attachment/routes.js';
import { settingRoutes } from '../setting/routes.js';
import './tables.js';

export async function tenderFileRoutes(app: FastifyInstance): Promise<void> {
  await attachmentRoutes(app);
  await settingRoutes(app);
}
