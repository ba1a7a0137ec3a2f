/** Helpers of the invoice API tests: a valid entry body, settings with an instant simulator, lookups. */
import { computeLine, EMPTY_ID, InvoiceKind, type InvoiceSaveBody } from '@zhyy/shared';
import { startTestServer, type TestServer, type TestServerOptions } from './helpers.js';

export async function instantSimulator(s: TestServer, failureRate = 0): Promise<void> {
  await s.db.kysely.updateTable('invoice_settings').set({ simulator_delay_ms: 0, simulator_failure_rate: String(failureRate) }).execute();
}

/** A server for the invoice tests: the background job stopped (tests drive it), the simulator answering at once. */
export async function startInvoiceServer(opts: TestServerOptions = {}): Promise<TestServer> {
  const s = await startTestServer(opts);
  await s.app.invoiceJob.stop();
  await instantSimulator(s);
  return s;
}

export async function buyer(s: TestServer, name: string) {
  return s.db.kysely.selectFrom('invoice_buyers').selectAll().where('name', '=', name).executeTakeFirstOrThrow();
}

export function entryBody(b: { id: string; name: string; tax_no: string | null }, kind: InvoiceSaveBody['kind'] = InvoiceKind.bs, amounts = ['1090.00']): InvoiceSaveBody {
  return {
    id: EMPTY_ID, kind, buyerId: b.id, buyerName: b.name, buyerTaxNo: b.tax_no ?? '', buyerAddress: '', buyerPhone: '', buyerBank: '', buyerAccount: '', buyerEmail: '', buyerMobile: '',
    projectId: null, contractId: null, specialFactor: 0, constructionSite: '', constructionProject: '', remark: '', clerk: '', payee: '', checker: '',
    lines: amounts.map((price) => {
      const a = computeLine({ quantity: '1', unitPrice: price, priceIncludesTax: true, taxRate: '0.09' });
      return { goodsName: '*建筑服务*工程服务', taxCode: '3050200000000000000', spec: '', unit: '项', quantity: '1', unitPrice: price, priceIncludesTax: true, taxRate: '0.09', policy: 0, lineProperty: 0, ...a };
    }),
  };
}

export async function invoice(s: TestServer, id: string) {
  return s.db.kysely.selectFrom('invoices').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** Saves an entry as demo5 and returns its id. */
export async function newRequest(s: TestServer, token: string, buyerName: string, kind: InvoiceSaveBody['kind'] = InvoiceKind.bs): Promise<string> {
  const a = await s.call('/api/invoice/save', entryBody(await buyer(s, buyerName), kind), token);
  if (a.code !== 20000) throw new Error(`save refused: ${a.message}`);
  return a.r.id as string;
}
