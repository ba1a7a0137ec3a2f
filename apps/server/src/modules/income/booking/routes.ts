/**
 * 入账标识 (issue 14): /api/income/booking/… — book (02 / 03) and revoke (06) pool invoices by hand, one
 * invoice's booking state and deliveries (the pool detail), and 立即重试. Access from the pool pages of the
 * route table (roles 1, 13; 14 and 16 get 权限不足). The retry job (job.ts, app.incomeBookingJob) starts when the
 * server is ready and stops when it closes.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { BookBody, BookingInvoiceBody, OperationLogType, UnbookBody, type BookingAnswer } from '@zhyy/shared';
import type { TaxGateway } from '../../../integrations/tax/index.js';
import { currentUser } from '../../../platform/context.js';
import { notFound, ok, refuse } from '../../../platform/envelope.js';
import { typed } from '../../../platform/route.js';
import { InvoiceSettings } from '../../invoice/settings/service.js';
import { access } from '../pool/access.js';
import { deliver, IMMEDIATE_HOLDER, retryInvoice } from './deliver.js';
import { BookingJob } from './job.js';
import { bookingInfo } from './queries.js';
import { bookInvoices, unbookInvoices, type Booker } from './service.js';

const tags = ['入账标识'];
const summary = (verb: string, a: BookingAnswer) => `${verb}成功${a.done}张${a.refused ? `，未${verb}${a.refused}张` : ''}`;

async function bookingModule(app: FastifyInstance): Promise<void> {
  const r = typed(app);
  const db = () => app.db.kysely;
  const settings = new InvoiceSettings(app);
  const gateway = (): Promise<TaxGateway> => settings.gateway();
  const job = new BookingJob({ db: app.db, log: app.log, gateway });
  app.decorate('incomeBookingJob', job);
  app.decorate('incomeBookingGateway', gateway);
  app.addHook('onReady', async () => job.start());
  app.addHook('onClose', async () => job.stop());
  const P = '/api/income/booking';

  r.post(`${P}/book`, { schema: { body: BookBody, summary: '标记入账：所选发票入账（02 已入账（企业所得税税前扣除）或03 已入账（不扣除）），并同步税务端入账标识（失败自动重试）', tags }, config: access.detail }, async (req) => {
    const user = currentUser(req);
    const by: Booker = { id: user.id, name: user.name, log: (trx, d) => req.server.oplog.record(req, OperationLogType.edit, d, trx) };
    const a = await bookInvoices(db(), await gateway(), { invoiceIds: req.body.invoiceIds, state: req.body.state, source: { type: 'manual', no: '' } }, by);
    return ok(a, summary('入账', a));
  });
  r.post(`${P}/revoke`, { schema: { body: UnbookBody, summary: '撤销入账：所选已入账发票改为06 入账撤销，并同步税务端（失败自动重试）', tags }, config: access.detail }, async (req) => {
    const user = currentUser(req);
    const by: Booker = { id: user.id, name: user.name, log: (trx, d) => req.server.oplog.record(req, OperationLogType.edit, d, trx) };
    const a = await unbookInvoices(db(), await gateway(), { invoiceIds: req.body.invoiceIds, source: { type: 'manual', no: '' } }, by);
    return ok(a, summary('撤销入账', a));
  });
  r.post(`${P}/deliveries`, { schema: { body: BookingInvoiceBody, summary: '一张发票的入账状态、入账日期和入账标识同步记录（状态、次数、下次重试、失败原因）', tags }, config: access.detail }, async (req) => ok(await bookingInfo(db(), req.body.invoiceId)));
  r.post(`${P}/retry`, { schema: { body: BookingInvoiceBody, summary: '立即重试：一张发票未同步成功的入账标识（待重试或失败）立即发送', tags }, config: access.detail }, async (req) => {
    const exists = await db().selectFrom('income_invoices').select('id').where('id', '=', req.body.invoiceId).executeTakeFirst();
    if (!exists) throw notFound('发票不存在');
    const { retried, statuses } = await retryInvoice(db(), await gateway(), req.body.invoiceId, { holder: IMMEDIATE_HOLDER, userId: currentUser(req).id });
    if (!retried) throw refuse('该发票没有需要重试的入账标识');
    const sent = [...statuses.values()].filter((s) => s.status === 'sent').length;
    const info = await bookingInfo(db(), req.body.invoiceId);
    return ok(info, sent === retried ? '入账标识已同步税务端' : `已重试，${sent}条已同步，其余见同步记录`);
  });
}

/**
 * After a signing (signing/routes.ts): sends at once the flags the successful contract signings queued (their step 3
 * books the invoice 02 in its own transaction). Never throws: what fails is left to the retry job.
 */
export async function sendQueuedBookings(app: FastifyInstance, invoiceIds: readonly string[], userId: string | null): Promise<void> {
  if (!invoiceIds.length || !app.hasDecorator('incomeBookingGateway')) return;
  try {
    const ids = (await app.db.kysely.selectFrom('income_booking_deliveries').select('id').where('invoice_id', 'in', [...invoiceIds]).where('status', '=', 'pending').execute()).map((x) => x.id);
    if (ids.length) await deliver(app.db.kysely, await app.incomeBookingGateway(), ids, { holder: IMMEDIATE_HOLDER, userId });
  } catch (err) {
    app.log.warn({ err }, 'booking flags after signing not sent; the retry job sends them');
  }
}

export const incomeBookingRoutes = fp(bookingModule, { name: 'income-booking' });

declare module 'fastify' {
  interface FastifyInstance {
    incomeBookingJob: BookingJob;
    incomeBookingGateway: () => Promise<TaxGateway>;
  }
}
