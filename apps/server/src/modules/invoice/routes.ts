/**
 * Outgoing invoices (issue 6): the module's plugin. It builds the services and the background job
 * (started when the server is ready, stopped when it closes: app.invoiceJob), turns an approved 开票申请
 * into a request, answers the reads every screen uses (/api/invoice/detail, the sidebar badge counts) and
 * registers each capability's routes: issuing/, cancellation/, synclog/, buyers/, settings/, redletter/
 * and the files (routes-files.ts). HTTP only; the rules are in the services. docs/invoice.md maps the folders.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { InvoiceIdBody } from '@zhyy/shared';
import { z } from 'zod';
import { SIGNED_IN } from '../../platform/access.js';
import { currentUser } from '../../platform/context.js';
import { ok } from '../../platform/envelope.js';
import { typed } from '../../platform/route.js';
import { buyerRoutes } from './buyers/routes.js';
import { cancellationRoutes } from './cancellation/routes.js';
import { CancellationService } from './cancellation/service.js';
import { INVOICE_REQUEST_FLOW, importRequest } from './issuing/entry.js';
import { RetryService } from './issuing/retry.js';
import { issuingRoutes } from './issuing/routes.js';
import { IssuingService } from './issuing/service.js';
import { InvoiceJob } from './job.js';
import { access, tags } from './paths.js';
import { badgeCounts, invoiceDetail } from './queries.js';
import { redRoutes } from './redletter/routes.js';
import { RedConfirmService } from './redletter/service.js';
import { fileRoutes } from './files/routes.js';
import { InvoiceSettings } from './settings/service.js';
import { settingRoutes } from './settings/routes.js';
import { syncLogRoutes } from './synclog/routes.js';
import { invoiceUserRecords } from './user-records.js';

async function invoiceModule(app: FastifyInstance): Promise<void> {
  const settings = new InvoiceSettings(app);
  const issuing = new IssuingService(app, settings);
  const retry = new RetryService(app, settings, issuing);
  const cancellation = new CancellationService(app, settings);
  const red = new RedConfirmService(app, settings);
  const job = new InvoiceJob({ db: app.db, log: app.log, settings, issuing, cancellation, red });
  app.decorate('invoiceJob', job);
  app.userRecords.register(invoiceUserRecords);
  app.addHook('onReady', async () => job.start());
  app.addHook('onClose', async () => job.stop());

  // An approved 开票申请 (from 发起申请 or started for a record) becomes a request inside the approval's own transaction.
  app.workflow.onFlowOutcome(INVOICE_REQUEST_FLOW, async (e) => {
    if (e.kind === 'complete') await importRequest(e.trx, e, await settings.row(e.trx));
  });

  const r = typed(app);
  const db = () => app.db.kysely;

  await issuingRoutes(app, settings, issuing, retry);
  await cancellationRoutes(app, cancellation);
  r.post('/api/invoice/detail', { schema: { body: InvoiceIdBody, summary: '发票详情：表头、明细、文件、红字发票、作废记录', tags }, config: access.read }, async (req) => ok(await invoiceDetail(db(), req.body.id)));
  await syncLogRoutes(app);
  r.post('/api/invoice/billing-cancellation-count', { schema: { body: z.object({}).passthrough(), summary: '销项侧边栏角标的九个数量（按调用者可见的页面）', tags }, config: { access: SIGNED_IN } }, async (req) =>
    ok(await badgeCounts(db(), currentUser(req).roles)),
  );

  await fileRoutes(app, settings);
  await buyerRoutes(app);
  await settingRoutes(app, settings);
  await redRoutes(app, red);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The invoicing background job (modules/invoice/job.ts). */
    invoiceJob: InvoiceJob;
  }
}

export const invoiceRoutes = fp(invoiceModule, { name: 'invoice', dependencies: ['workflow'] });
