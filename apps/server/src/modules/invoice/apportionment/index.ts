/** Issue 7's apportionment and statistics calls, registered after the invoice module (app.ts). */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { statisticsRoutes } from '../statistics/routes.js';
import { apportionmentRoutes } from './routes.js';

async function module(app: FastifyInstance): Promise<void> {
  await apportionmentRoutes(app);
  await statisticsRoutes(app);
}

export const invoiceApportionmentRoutes = fp(module, { name: 'invoice-apportionment', dependencies: ['invoice'] });
