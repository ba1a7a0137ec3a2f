/** Shared pieces of the tax gateway tests: a clock tests drive, request builders, the sync log. */
import { SyncSystem } from '@zhyy/shared';
import { createTaxGateway, type SimulatorOptions, type TaxGateway, type TaxInvoiceLine, type TaxInvoiceRequest } from '../src/integrations/tax/index.js';
import { startTestServer, type TestServer } from './helpers.js';

/**
 * A server for the gateway tests, without demo data and with its background jobs stopped: the
 * invoicing job's first round refreshes red-letter confirmations through the tax service, and a row
 * of its landing between a test's "before" and "after" would be counted as the test's own.
 */
export async function startGatewayTestServer(): Promise<TestServer> {
  const s = await startTestServer({ demo: false });
  await s.app.invoiceJob.stop();
  await s.app.incomeJob.stop();
  return s;
}

export const SELLER_TAX = '91110108MA01ABCD2E';

/** A clock that only moves when told. */
export class TestClock {
  constructor(private t = Date.parse('2026-11-21T02:00:00.000Z')) {}
  now = () => new Date(this.t);
  advance(ms: number) {
    this.t += ms;
  }
}

export function line(over: Partial<TaxInvoiceLine> = {}): TaxInvoiceLine {
  return {
    goodsName: '*建筑服务*工程施工',
    taxCode: '3050100000000000000',
    spec: 'A-1',
    unit: '项',
    quantity: '2',
    unitPrice: '5000',
    priceIncludesTax: false,
    taxRate: '0.09',
    amountExcludingTax: 1_000_000,
    tax: 90_000,
    amountIncludingTax: 1_090_000,
    lineProperty: 0,
    policyFlag: 'none',
    ...over,
  };
}

export function request(orderNo: string, over: Partial<TaxInvoiceRequest> = {}): TaxInvoiceRequest {
  return {
    orderNo,
    kind: 9,
    colour: 1,
    buyer: { name: '广州市喆堃建设有限公司', taxNumber: '91440101MA5CM2K81U', email: 'finance@example.com' },
    seller: { name: '华建工程技术服务有限公司', taxNumber: SELLER_TAX, address: '北京市海淀区中关村大街1号', phone: '010-88886666' },
    clerk: '张敏',
    specialFactor: 0,
    lines: [line(), line({ goodsName: '*现代服务*技术咨询', taxCode: '3040000000000000000', taxRate: '0.06', quantity: '1', unitPrice: '3000.5', amountExcludingTax: 300_050, tax: 18_003, amountIncludingTax: 318_053 })],
    ...over,
  };
}

export const DELAY = 3000;

export function simulator(s: TestServer, clock: TestClock, opts: SimulatorOptions = {}, random: () => number = () => 0.99): TaxGateway {
  return createTaxGateway({ db: s.db, synclog: s.app.synclog, clock, random }, { mode: 'simulator', simulator: { delayMs: DELAY, failureRate: 0, ...opts } });
}

export async function taxLogs(s: TestServer) {
  return s.db.kysely.selectFrom('sync_logs').selectAll().where('system', '=', SyncSystem.tax).orderBy('created_at').orderBy('id').execute();
}
