/**
 * The project-management system's HTTP client (mode http). Provisional protocol, to be confirmed in the
 * first joint test, in the manner of the accounting client: header `Authorization: Bearer {token}`;
 * `GET {url}/cost-orders?month=YYYY-MM` answers
 * `{ code: '0', message, data: { month, orders: [{ ref, deptName, projectCode, projectName?, lines: [{ itemCode, spec?, unit, quantity, remark? }] }] } }`
 * (a month without orders: `orders: []`); `GET {url}/ping` answers `{ code: '0', message }`. Any other code
 * is a refusal whose message is shown. Quantities may come as numbers or decimal text (kept as text);
 * each order's content is checked by the sync, one order at a time, so one bad order does not hide the
 * others. The token is never logged.
 */
import { exchangeJson } from '../json-exchange.js';
import { PmsError, type PmsOrder } from './types.js';

export interface PmsHttpOptions {
  url: string;
  token: string;
  timeoutMs: number;
}

interface Reply {
  code?: string | number;
  message?: string;
  data?: { month?: string; orders?: unknown };
}

const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : typeof v === 'number' && Number.isFinite(v) ? String(v) : '');

/** An order as sent, its fields as text ('' where missing or not text). */
function orderOf(o: unknown): PmsOrder {
  const x = (o && typeof o === 'object' ? o : {}) as Record<string, unknown>;
  const lines = Array.isArray(x.lines) ? x.lines : [];
  return {
    ref: str(x.ref),
    deptName: str(x.deptName),
    projectCode: str(x.projectCode),
    projectName: str(x.projectName),
    lines: lines.map((l) => {
      const y = (l && typeof l === 'object' ? l : {}) as Record<string, unknown>;
      return { itemCode: str(y.itemCode), spec: str(y.spec), unit: str(y.unit), quantity: str(y.quantity), remark: str(y.remark) };
    }),
  };
}

export class PmsHttpClient {
  constructor(
    private readonly o: PmsHttpOptions,
    private readonly fetchFn: typeof fetch = fetch,
  ) {}

  private async get(path: string): Promise<Reply> {
    const { reply } = await exchangeJson<Reply>({
      fetchFn: this.fetchFn, url: `${this.o.url.replace(/\/+$/, '')}${path}`, method: 'GET', headers: { authorization: `Bearer ${this.o.token}` },
      timeoutMs: this.o.timeoutMs, system: '项目管理系统', credentials: '接口密钥（成本设置或PMS_COST_API_TOKEN）',
      fail: (message, code, response, status) => new PmsError(message, code, response, status),
    });
    if (!reply || typeof reply !== 'object') throw new PmsError('项目管理系统应答无法识别', 'INVALID', reply, 502);
    if (String(reply.code) !== '0') throw new PmsError(`项目管理系统拒绝：${reply.message || `错误码 ${String(reply.code)}`}`, String(reply.code ?? 'UNKNOWN'), reply);
    return reply;
  }

  async monthlyOrders(month: string): Promise<PmsOrder[]> {
    const reply = await this.get(`/cost-orders?month=${encodeURIComponent(month)}`);
    const orders = reply.data?.orders;
    if (!Array.isArray(orders)) throw new PmsError('项目管理系统未返回成本单列表', 'INVALID', reply, 502);
    if (reply.data?.month && reply.data.month !== month) throw new PmsError(`项目管理系统返回的是${reply.data.month}的成本单，不是${month}的`, 'INVALID', reply, 502);
    return orders.map(orderOf);
  }

  async ping(): Promise<{ message: string }> {
    const reply = await this.get('/ping');
    return { message: reply.message || '项目管理系统已应答' };
  }
}
