/**
 * The accounting side's HTTP client (ACCOUNTING_MODE=http). Provisional protocol, to be confirmed in the
 * first joint test: `POST {url}/vouchers` with the voucher as JSON (our `id` is the idempotency key: the
 * same id again answers the voucher already posted) and `GET {url}/vouchers/{id}`; header
 * `Authorization: Bearer {token}`. Answers `{ code: '0', message, data: { voucherNo, period } }`; a GET of
 * an unknown id answers HTTP 404 or code 'NOT_FOUND'. Any other code is a refusal whose message is kept
 * as the failure reason. The token is never logged.
 */
import { AccountingError, type Voucher, type VoucherAnswer, type VoucherLookup } from './types.js';

export interface AccountingHttpOptions {
  url: string;
  token: string;
  timeoutMs: number;
}

interface Reply {
  code?: string | number;
  message?: string;
  data?: { voucherNo?: string; period?: string };
}

export class AccountingHttpClient {
  constructor(
    private readonly o: AccountingHttpOptions,
    private readonly fetchFn: typeof fetch = fetch,
  ) {}

  private async send(method: 'GET' | 'POST', path: string, payload?: unknown): Promise<{ status: number; reply: Reply }> {
    let res: Response;
    try {
      res = await this.fetchFn(`${this.o.url.replace(/\/+$/, '')}${path}`, {
        method,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${this.o.token}` },
        ...(payload === undefined ? {} : { body: JSON.stringify(payload) }),
        signal: AbortSignal.timeout(this.o.timeoutMs),
      });
    } catch (e) {
      const timeout = e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError');
      throw new AccountingError(timeout ? `会计系统${this.o.timeoutMs / 1000}秒内未应答，请稍后重试` : '无法连接会计系统，请稍后重试', 'TRANSPORT', undefined, 502);
    }
    const text = await res.text();
    let reply: Reply;
    try {
      reply = JSON.parse(text) as Reply;
    } catch {
      throw new AccountingError(`会计系统应答无法识别（HTTP ${res.status}）`, 'TRANSPORT', text.slice(0, 500), 502);
    }
    if (res.status === 401 || res.status === 403) throw new AccountingError('会计系统拒绝了接口凭据，请核对ACCOUNTING_TOKEN', 'AUTH', reply, 502);
    return { status: res.status, reply };
  }

  async pushVoucher(v: Voucher): Promise<VoucherAnswer> {
    const { reply } = await this.send('POST', '/vouchers', v);
    if (String(reply.code) !== '0') throw new AccountingError(reply.message || `会计系统拒绝（${String(reply.code)}）`, String(reply.code ?? 'UNKNOWN'), reply);
    if (!reply.data?.voucherNo) throw new AccountingError('会计系统未返回凭证号', 'INVALID', reply, 502);
    return { id: v.id, voucherNo: reply.data.voucherNo, period: reply.data.period ?? v.period };
  }

  async voucherState(id: string): Promise<VoucherLookup> {
    const { status, reply } = await this.send('GET', `/vouchers/${encodeURIComponent(id)}`);
    if (status === 404 || String(reply.code) === 'NOT_FOUND') return { status: 'notFound' };
    if (String(reply.code) !== '0') throw new AccountingError(reply.message || `会计系统拒绝（${String(reply.code)}）`, String(reply.code ?? 'UNKNOWN'), reply);
    if (!reply.data?.voucherNo) throw new AccountingError('会计系统未返回凭证号', 'INVALID', reply, 502);
    return { status: 'posted', voucherNo: reply.data.voucherNo, period: reply.data.period ?? '' };
  }
}
