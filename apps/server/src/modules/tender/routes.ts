/**
 * 投标管理 (issue 17): /api/tender/*. Each capability registers its own calls in its folder (see
 * docs/tender.md): storage-backed attachments and settings, contracts and projects, people and their
 * certificates, tender file exports.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { tenderContractRoutes } from './contracts/routes.js';
import { tenderExportRoutes } from './export/module.js';
import { tenderExportStatRoutes } from './export/statRoutes.js';
import { tenderExportHttpRoutes } from './export/routes.js';
import { tenderFileRoutes } from './files/routes.js';
import { peopleRoutes } from './people/routes.js';

async function tenderModule(app: FastifyInstance): Promise<void> {
  await tenderFileRoutes(app);
  await tenderContractRoutes(app);
  await peopleRoutes(app);
  await tenderExportRoutes(app);
  await tenderExportStatRoutes(app);
  await tenderExportHttpRoutes(app);
}

export const tenderRoutes = fp(tenderModule, { name: 'tender' });
