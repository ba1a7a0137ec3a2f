/** The Nuonuo client against a local fake of the open platform that checks signature and token. */
import { SyncLogStatus } from '@zhyy/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TaxErrorCode, TaxGatewayError, TaxMessages, clearTokenCache, createTaxGateway, type TaxGateway } from '../src/integrations/tax/index.js';
import { nuonuoSign, signatureBase } from '../src/integrations/tax/nuonuo/sign.js';
import { startTestServer, type TestServer } from './helpers.js';
import { startFakeNuonuo, type FakeNuonuo } from './tax-fake-nuonuo.js';
import { SELLER_TAX, TestClock, request, taxLogs } from './tax-helpers.js';

const APP_KEY = 'SD63236305';
const APP_SECRET = 'SDDED2523BED4643';

let s: TestServer;
let fake: FakeNuonuo;
beforeAll(async () => {
  s = await startTestServer({ demo: false });
  fake = await startFakeNuonuo(APP_KEY, APP_SECRET);
});
afterAll(async () => {
  await fake.close();
  await s.close();
});
beforeEach(() => clearTokenCache());

function nuonuo(clock = new TestClock(Date.now()), over: { appSecret?: string; endpoint?: string; fetch?: typeof fetch } = {}): TaxGateway {
  return createTaxGateway(
    { db: s.db, synclog: s.app.synclog, clock, ...(over.fetch ? { fetch: over.fetch } : {}) },
    { mode: 'nuonuo', nuonuo: { appKey: APP_KEY, appSecret: over.appSecret ?? APP_SECRET, taxNumber: SELLER_TAX, endpoint: over.endpoint ?? fake.endpoint, tokenUrl: fake.tokenUrl, timeoutMs: 3000 } },
  );
}

async function refusal(p: Promise<unknown>): Promise<TaxGatewayError> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(TaxGatewayError);
  return err as TaxGatewayError;
}

describe('signing', () => {
  it('signs base64(HMAC-SHA1(appSecret)) over the canonical string (known vector)', () => {
    const body = '{"serialNos":["26112110300000000001"],"isOfferInvoiceDetail":"0"}';
    const senid = '0123456789abcdef0123456789abcdef';
    expect(signatureBase(APP_KEY, senid, '12345678', '1763700000', body)).toBe(`a=services&l=v1&p=open&k=${APP_KEY}&i=${senid}&n=12345678&t=1763700000&f=${body}`);
    expect(nuonuoSign(APP_SECRET, APP_KEY, senid, '12345678', '1763700000', body)).toBe('bG5H6Y0VfdmyopIkGrfbUdEBKPI=');
  });

  it('is refused by the service when the body was changed after signing', async () => {
    const tamper: typeof fetch = (input, init) => {
      const body = typeof init?.body === 'string' && init.body.includes('orderNo') ? init.body.replace('NN-T1', 'NN-T2') : init?.body;
      return fetch(input, { ...init, body });
    };
    const err = await refusal(nuonuo(undefined, { fetch: tamper }).submitInvoice(request('NN-T1')));
    expect(err.serviceCode).toBe('E0101');
    expect(err.message).toBe('税务端拒绝：签名校验失败（E0101）');
  });
});

describe('access token', () => {
  it('is fetched once and cached 24 h across gateway instances, then fetched again', async () => {
    const clock = new TestClock(Date.now());
    const before = fake.tokenCalls;
    await nuonuo(clock).queryInvoices(['00000000000000000000']);
    await nuonuo(clock).queryInvoices(['00000000000000000000']);
    expect(fake.tokenCalls - before).toBe(1);
    clock.advance(24 * 3600_000 - 1000);
    await nuonuo(clock).queryInvoices(['00000000000000000000']);
    expect(fake.tokenCalls - before).toBe(1);
    clock.advance(2000);
    await nuonuo(clock).queryInvoices(['00000000000000000000']);
    expect(fake.tokenCalls - before).toBe(2);
  });

  it('is fetched anew when the service no longer accepts it', async () => {
    const gw = nuonuo();
    await gw.queryInvoices(['00000000000000000000']);
    const before = fake.tokenCalls;
    fake.validTokens.clear();
    expect(await gw.queryInvoices(['00000000000000000000'])).toEqual([]);
    expect(fake.tokenCalls - before).toBe(1);
  });

  it('reports wrong credentials in Chinese', async () => {
    const err = await refusal(nuonuo(undefined, { appSecret: 'wrong' }).queryInvoices(['1']));
    expect(err.serviceCode).toBe(TaxErrorCode.auth);
    expect(err.message).toBe('税务端拒绝了应用凭据（appKey或appSecret错误），请检查 appKey 和 appSecret');
  });

  it('reports an unreachable service in Chinese and logs the failure', async () => {
    const err = await refusal(nuonuo(undefined, { endpoint: 'http://127.0.0.1:9/open/v1/services' }).queryInvoices(['1']));
    expect(err.serviceCode).toBe(TaxErrorCode.transport);
    expect(err.message).toBe('税务端无法连接，请稍后重试');
    const [last] = (await taxLogs(s)).slice(-1);
    expect(last).toMatchObject({ status: SyncLogStatus.failure, type: 'nuonuo.OpeMplatform.queryInvoiceResult', memo: '税务端无法连接，请稍后重试' });
  });
});

describe('invoices', () => {
  it('submits with Nuonuo field names, queries the result and downloads the PDF', async () => {
    const gw = nuonuo();
    const sub = await gw.submitInvoice(request('NN-A1', { specialFactor: 31, projectName: '天河二期', projectSite: '广东省广州市天河区' }));
    expect(sub).toEqual({ orderNo: 'NN-A1', serialNo: expect.stringMatching(/^\d{20}$/), duplicate: false });
    const order = fake.calls.find((c) => c.method === 'nuonuo.OpeMplatform.requestBillingNew' && c.body.order.orderNo === 'NN-A1')!.body.order;
    expect(order).toMatchObject({ invoiceLine: 'bs', invoiceType: '1', salerTaxNum: SELLER_TAX, buyerName: '广州市喆堃建设有限公司', clerk: '张敏', pushMode: '0', specificFactor: '3' });
    expect(order.additionalElementList).toEqual([
      { elementName: '建筑服务发生地', elementType: '1', elementValue: '广东省广州市天河区' },
      { elementName: '建筑项目名称', elementType: '1', elementValue: '天河二期' },
    ]);
    expect(order.invoiceDetail[1]).toMatchObject({ goodsName: '*现代服务*技术咨询', goodsCode: '3040000000000000000', num: '1', price: '3000.5', withTaxFlag: '0', taxRate: '0.06', taxExcludedAmount: '3000.50', tax: '180.03', taxIncludedAmount: '3180.53', invoiceLineProperty: '0', favouredPolicyFlag: '0' });
    const [r] = await gw.queryInvoices([sub.serialNo]);
    expect(r).toMatchObject({ status: 2, kind: 9, colour: 1, invoiceNo: '26112000000000000001', allElectronicNo: '26112000000000000001', issuedAt: '2026-11-21 10:00:06', amountExcludingTax: 1_300_050, tax: 108_003, amountIncludingTax: 1_408_053 });
    expect(r!.files).toEqual([{ type: 'pdf', fileName: '26112000000000000001.pdf', content: fake.pdf }]);
  });

  it('answers E9106 (order number already sent) by querying, not by sending again', async () => {
    const gw = nuonuo();
    const first = await gw.submitInvoice(request('NN-D1'));
    const submits = () => fake.calls.filter((c) => c.method === 'nuonuo.OpeMplatform.requestBillingNew' && c.body.order.orderNo === 'NN-D1').length;
    const again = await gw.submitInvoice(request('NN-D1'));
    expect(again).toEqual({ orderNo: 'NN-D1', serialNo: first.serialNo, duplicate: true });
    expect(submits()).toBe(2);
    expect(fake.answers.slice(-2)).toEqual(['E9106', 'E0000']);
    expect(fake.calls.at(-1)).toEqual({ method: 'nuonuo.OpeMplatform.queryInvoiceResult', body: { orderNos: ['NN-D1'], isOfferInvoiceDetail: '0' } });
  });

  it('turns E9613 into the Chinese refusal of the re-issue limit', async () => {
    const gw = nuonuo();
    for (let i = 0; i < 20; i++) await gw.reissueInvoice('26112110000000000777');
    const err = await refusal(gw.reissueInvoice('26112110000000000777'));
    expect(err.serviceCode).toBe('E9613');
    expect(err.message).toBe(TaxMessages.reissueLimit);
  });

  it('refuses to cancel a 数电 invoice before asking, and sends paper cancellations', async () => {
    const gw = nuonuo();
    expect((await refusal(gw.cancelInvoice({ serialNo: '1', invoiceNo: '2', kind: 10, reason: '错开' }))).message).toBe(TaxMessages.cancelDigital);
    expect(await gw.cancelInvoice({ serialNo: '1', invoiceNo: '00001234', invoiceCode: '1100261130', kind: 2, reason: '错开' })).toEqual({ serialNo: '1', status: 31 });
    expect(fake.calls.at(-1)).toEqual({ method: 'nuonuo.electronInvoice.invoiceCancellation', body: { invoiceId: '1', invoiceCode: '1100261130', invoiceNo: '00001234' } });
  });

  it('delivers an issued invoice by its numbers', async () => {
    const gw = nuonuo();
    const sub = await gw.submitInvoice(request('NN-E1'));
    await gw.sendInvoice({ serialNo: sub.serialNo, email: 'a@example.com' });
    expect(fake.calls.at(-1)).toEqual({ method: 'nuonuo.OpeMplatform.deliveryInvoice', body: { taxnum: SELLER_TAX, invoiceCode: '', invoiceNum: '26112000000000000001', phone: '', mail: 'a@example.com' } });
  });
});

describe('red-letter confirmations', () => {
  it('applies, reads the form back, confirms one that awaits us, withdraws our own', async () => {
    const gw = nuonuo();
    const c = await gw.applyRedConfirm({ billNo: 'HZ-NN-1', blueInvoiceNo: '26112000000000000001', blueIssueDate: '2026-11-21', blueKind: 9, redReason: 2, vatUsage: 1, sellerTaxNumber: SELLER_TAX, buyerName: '广州市喆堃建设有限公司', redOrderNo: 'HO-NN-1' });
    expect(c).toMatchObject({ billId: 'HZ-NN-1', billNo: 'HZ-NN-1', confirmNo: '26119000000000000007', state: '02', stateMessage: '销方录入待购方确认', applicant: 0, awaitingUs: false, amountExcludingTax: -1_300_050, tax: -108_003, blueIssueDate: '2026-11-21' });
    expect(fake.calls.find((x) => x.method === 'nuonuo.OpeMplatform.saveInvoiceRedConfirm')!.body).toMatchObject({ billId: 'HZ-NN-1', blueInvoiceLine: 'bs', applySource: '0', blueElecInvoiceNumber: '26112000000000000001', redReason: '2', vatUsage: '1' });
    fake.forms.set('HZ-BUYER-1', { ...fake.forms.get('HZ-NN-1'), billId: 'HZ-BUYER-1', applySource: '1', billStatus: '03' });
    const waiting = await gw.refreshRedConfirms('2026-11-20T00:00:00.000Z');
    expect(waiting.filter((x) => x.awaitingUs).map((x) => x.billId)).toEqual(['HZ-BUYER-1']);
    expect(await gw.confirmRedConfirm('HZ-BUYER-1', true)).toMatchObject({ state: '04', redSerialNo: '26112110000000000099', redInvoiceNo: '26112000000000000002' });
    expect(await gw.cancelRedConfirm('HZ-NN-1')).toMatchObject({ state: '08', stateMessage: '作废（发起方已撤销）' });
    expect((await refusal(gw.confirmRedConfirm('HZ-NN-1', true))).message).toBe('税务端拒绝：确认单状态不允许确认（E9999）');
  });
});

describe('sync log', () => {
  it('has a row per exchange and never the appSecret or an access token', async () => {
    const rows = await taxLogs(s);
    expect(rows.some((r) => r.type === 'accessToken' && r.memo === '已获取访问令牌')).toBe(true);
    expect(rows.some((r) => r.type === 'nuonuo.OpeMplatform.requestBillingNew' && r.memo === 'E9106 订单编号不能重复')).toBe(true);
    const text = rows.map((r) => `${r.request ?? ''}|${r.response ?? ''}|${r.memo}`).join('\n');
    expect(text).not.toContain(APP_SECRET);
    expect(text).not.toMatch(/token-\d+-abcdef/);
  });
});
