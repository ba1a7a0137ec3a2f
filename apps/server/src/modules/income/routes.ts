/**
 * Incoming invoices (issue 13 and on): the module's entry, registered by app.ts. Each capability has its
 * own routes file, registered here: pool/ (the pool lists, export and detail), intake/ (采集, 上传识别,
 * 查验, 手工录入), files/ (an invoice's files), signing/ (发票签收), transport/, deduction/, statistics/,
 * booking/ and abnormal/. docs/income.md, "Where things are", maps each folder to its capability.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { InvoiceSettings } from '../invoice/settings/service.js';
import { poolRoutes } from './pool/routes.js';
import { incomeFileRoutes } from './files/routes.js';
import { intakeRoutes } from './intake/routes.js';
import { incomeSignRoutes } from './signing/routes.js';
import { incomeDeductionRoutes } from './deduction/routes.js';
import { incomeBookingRoutes } from './booking/routes.js';
import { incomeTransportRoutes } from './transport/routes.js';
import { incomeStatisticsRoutes } from './statistics/routes.js';
import { incomeAbnormalRoutes } from './abnormal/routes.js';

async function incomePoolModule(app: FastifyInstance): Promise<void> {
  await poolRoutes(app);
  // The invoice settings hold the company (the arrival checks' buyer), the tax gateway and the file-link key.
  const settings = new InvoiceSettings(app);
  await intakeRoutes(app, settings);
  await incomeFileRoutes(app, settings);
  await app.register(incomeSignRoutes);
  await app.register(incomeTransportRoutes);
  await app.register(incomeDeductionRoutes);
  await app.register(incomeStatisticsRoutes);
  await app.register(incomeBookingRoutes);
  await app.register(incomeAbnormalRoutes);
}

export const incomePoolRoutes = fp(incomePoolModule, { name: 'income-pool' });
