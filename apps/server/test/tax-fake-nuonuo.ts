/**
 * A local stand-in for the Nuonuo open platform (node:http on 127.0.0.1, random port): it issues
 * client-credentials tokens, checks every request's signature, token and common parameters, and
 * answers like Nuonuo ({ code, describe, result }), E9106 on a repeated order number included.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { nuonuoSign } from '../src/integrations/tax/nuonuo/sign.js';

export interface FakeCall {
  method: string;
  body: any;
}

export interface FakeNuonuo {
  base: string;
  endpoint: string;
  tokenUrl: string;
  tokenCalls: number;
  calls: FakeCall[];
  /** Codes the fake answered, in order (E0000, E9106, …). */
  answers: string[];
  /** Tokens currently valid; clearing it makes the next call answer 070301. */
  validTokens: Set<string>;
  pdf: Buffer;
  forms: Map<string, any>;
  close(): Promise<void>;
}

export type Json = Record<string, unknown>;

/** `extra` answers methods the fake does not know itself (the incoming-invoice tests bring their own). */
export async function startFakeNuonuo(appKey: string, appSecret: string, extra?: (method: string, body: any) => Json | undefined): Promise<FakeNuonuo> {
  const orders = new Map<string, { serialNo: string; order: any }>();
  const retries = new Map<string, number>();
  const fake = { tokenCalls: 0, calls: [] as FakeCall[], answers: [] as string[], validTokens: new Set<string>(), pdf: Buffer.from('%PDF-1.7 fake invoice'), forms: new Map<string, any>() };

  const item = (serialNo: string, o: { order: any }) => ({
    serialNo, orderNo: o.order.orderNo, status: '2', statusMsg: '开票完成（最终状态）', failCause: '',
    invoiceCode: '', invoiceNo: '', allElectronicInvoiceNumber: '26112000000000000001', invoiceTime: Date.parse('2026-11-21T02:00:06Z'),
    exTaxAmount: '13000.50', taxAmount: '1080.03', orderAmount: '14080.53', invoiceType: '1', invoiceLine: o.order.invoiceLine,
    pdfUrl: `${base}/files/invoice.pdf`, ofdUrl: '',
  });

  function business(method: string, body: any): Json {
    switch (method) {
      case 'nuonuo.OpeMplatform.requestBillingNew': {
        const orderNo = String(body.order.orderNo);
        if (orders.has(orderNo)) return { code: 'E9106', describe: '订单编号不能重复', result: null };
        const serialNo = `2611211000${String(orders.size + 1).padStart(10, '0')}`;
        orders.set(orderNo, { serialNo, order: body.order });
        return { code: 'E0000', describe: '开票提交成功', result: { invoiceSerialNum: serialNo } };
      }
      case 'nuonuo.OpeMplatform.queryInvoiceResult': {
        const found = [...orders.values()].filter((o) => (body.serialNos ?? []).includes(o.serialNo) || (body.orderNos ?? []).includes(o.order.orderNo));
        return found.length ? { code: 'E0000', describe: '获取成功', result: found.map((o) => item(o.serialNo, o)) } : { code: 'E9500', describe: '发票不存在', result: null };
      }
      case 'nuonuo.OpeMplatform.reInvoice': {
        const n = retries.get(body.fpqqlsh) ?? 0;
        if (n >= 20) return { code: 'E9613', describe: '同一流水号(订单号)单日最多重试20次', result: null };
        retries.set(body.fpqqlsh, n + 1);
        return { code: 'E0000', describe: '重试提交成功', result: null };
      }
      case 'nuonuo.electronInvoice.invoiceCancellation':
      case 'nuonuo.OpeMplatform.deliveryInvoice':
      case 'nuonuo.OpeMplatform.refreshInvoiceRedConfirm':
        return { code: 'E0000', describe: '成功', result: null };
      case 'nuonuo.OpeMplatform.saveInvoiceRedConfirm':
        fake.forms.set(body.billId, {
          billId: body.billId, billNo: '26119000000000000007', billStatus: '02', applySource: '0', blueElecInvoiceNumber: body.blueElecInvoiceNumber,
          blueInvoiceTime: `${body.blueInvoiceTime} 10:00:06`, buyerName: body.buyerName, buyerTaxNo: body.buyerTaxNo, redReason: body.redReason, vatUsage: body.vatUsage,
          taxExcludedAmount: '-13000.50', taxAmount: '-1080.03', billTime: '2026-11-21 10:01:00',
        });
        return { code: 'E0000', describe: '申请成功', result: body.billId };
      case 'nuonuo.OpeMplatform.queryInvoiceRedConfirm': {
        const list = [...fake.forms.values()].filter((f) => !body.billId || f.billId === body.billId);
        return { code: 'E0000', describe: '查询成功', result: { total: list.length, list } };
      }
      case 'nuonuo.OpeMplatform.confirm': {
        const f = fake.forms.get(body.billId);
        if (!f || f.billStatus !== '03') return { code: 'E9999', describe: '确认单状态不允许确认', result: null };
        Object.assign(f, body.confirmAgreement === '1' ? { billStatus: '04', invoiceSerialNum: '26112110000000000099', redInvoiceNumber: '26112000000000000002' } : { billStatus: '06' });
        return { code: 'E0000', describe: '操作成功', result: null };
      }
      case 'nuonuo.OpeMplatform.confirmInfoCancel': {
        const f = fake.forms.get(body.billId);
        if (!f) return { code: 'E9999', describe: '确认单不存在', result: null };
        f.billStatus = '08';
        return { code: 'E0000', describe: '撤销成功', result: null };
      }
      default:
        return extra?.(method, body) ?? { code: 'E9000', describe: `未知方法 ${method}`, result: null };
    }
  }

  function services(req: http.IncomingMessage, raw: string): Json {
    const q = new URL(req.url ?? '', base).searchParams;
    const [senid, nonce, timestamp, appkey] = ['senid', 'nonce', 'timestamp', 'appkey'].map((k) => q.get(k) ?? '');
    if (appkey !== appKey || !/^[0-9a-f]{32}$/.test(senid!) || !/^[1-9]\d{7}$/.test(nonce!) || !/^\d{10}$/.test(timestamp!)) return { code: 'E0100', describe: '公共参数错误', result: null };
    if (req.headers['x-nuonuo-sign'] !== nuonuoSign(appSecret, appKey, senid!, nonce!, timestamp!, raw)) return { code: 'E0101', describe: '签名校验失败', result: null };
    if (!fake.validTokens.has(String(req.headers.accesstoken ?? ''))) return { code: '070301', describe: 'accessToken无效或已过期', result: null };
    const method = String(req.headers.method ?? '');
    const body = JSON.parse(raw);
    fake.calls.push({ method, body });
    return business(method, body);
  }

  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (raw += c));
    req.on('end', () => {
      const path = new URL(req.url ?? '', base).pathname;
      if (req.method === 'GET' && path === '/files/invoice.pdf') {
        res.writeHead(200, { 'content-type': 'application/pdf' }).end(fake.pdf);
        return;
      }
      let answer: Json;
      if (path === '/accessToken') {
        const form = new URLSearchParams(raw);
        if (form.get('client_id') === appKey && form.get('client_secret') === appSecret && form.get('grant_type') === 'client_credentials') {
          fake.tokenCalls += 1;
          const token = `token-${fake.tokenCalls}-abcdef`;
          fake.validTokens.add(token);
          answer = { access_token: token, expires_in: 86400 };
        } else {
          answer = { error: 'invalid_client', error_description: 'appKey或appSecret错误' };
        }
      } else if (path === '/open/v1/services') {
        answer = services(req, raw);
        fake.answers.push(String(answer.code));
      } else {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json;charset=UTF-8' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(fake, {
    base,
    endpoint: `${base}/open/v1/services`,
    tokenUrl: `${base}/accessToken`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
