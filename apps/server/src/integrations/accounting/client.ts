/**
 * The accounting side's HTTP client (ACCOUNTING_MODE=http). Provisional protocol, to be confirmed in the
 * first joint test: `POST {url}/vouchers` with the voucher as JSON (our `id` is the idempotency key: the
 * same id again answers the voucher already posted) and `GET {url}/vouchers/{id}` (the question by the
idempotency key: whether a push cut short arrived; `data: { voucherNo, period, date? }`); header
 * `Authorization: Bearer {token}`. Answers `{ code: '0', message, data: { voucherNo, period } }`; a GET of
 * an unknown id answers HTTP 404 or code 'NOT_FOUND'. `GET {url}/periods/{YYYYMM}` answers
 * `{ code: '0', data: { period, closed } }` (closed true once the month is 结账). Any other code is a refusal
 * whose message is kept as the failure reason. The token is never logged.
 *
 * 红字冲销 (issue 32 item 3): `POST {url}/vouchers/{originalId}/reversal` with the VoucherReversal as JSON
 * (its `id`, the reversing voucher's own, is the idempotency key; the accounting side makes the red voucher
 * from the original: same subjects, negative amounts, a reference to it) answers
 * `{ code: '0', data: { voucherNo, period, reversedVoucherNo, reversedPeriod } }`; refusals as for a push
 * (e.g. 'NOT_FOUND' for an original it does not hold, 'PERIOD_CLOSED' for a closed current period). Whether a
 * reversal cut short arrived is asked by `GET {url}/vouchers/{id}` with the reversal's id, as for a push.
 */
import { exchangeJson } from '../json-exchange.js';
import { AccountingError, type PeriodState, type ReversalAnswer, type Voucher, type VoucherAnswer, type VoucherLookup, type VoucherReversal } from './types.js';

export interface AccountingHttpOptions {
  url: string;
  token: string;
  timeoutMs: number;
}

interface Reply {
  code?: string | number;
  message?: string;
  data?: { voucherNo?: string; period?: string; date?: string; closed?: boolean; reversedVoucherNo?: string; reversedPeriod?: string };
}

export class AccountingHttpClient {
  constructor(
    private readonly o: AccountingHttpOptions,
    private readonly fetchFn: typeof fetch = fetch,
  ) {}

  private send(method: 'GET' | 'POST', path: string, payload?: unknown): Promise<{ status: number; reply: Reply }> {
    return exchangeJson<Reply>({
      fetchFn: this.fetchFn, url: `${this.o.url.replace(/\/+$/, '')}${path}`, method, headers: { authorization: `Bearer ${this.o.token}` },
      ...(payload === undefined ? {} : { body: JSON.stringify(payload) }),
      timeoutMs: this.o.timeoutMs, system: '会计系统', credentials: 'ACCOUNTING_TOKEN',
      fail: (message, code, response, status) => new AccountingError(message, code, response, status),
    });
  }

  async pushVoucher(v: Voucher): Promise<VoucherAnswer> {
    const { reply } = await this.send('POST', '/vouchers', v);
    if (String(reply.code) !== '0') throw new AccountingError(reply.message || `会计系统拒绝（${String(reply.code)}）`, String(reply.code ?? 'UNKNOWN'), reply);
    if (!reply.data?.voucherNo) throw new AccountingError('会计系统未返回凭证号', 'INVALID', reply, 502);
    return { id: v.id, voucherNo: reply.data.voucherNo, period: reply.data.period ?? v.period };
  }

  async reverseVoucher(r: VoucherReversal): Promise<ReversalAnswer> {
    const { reply } = await this.send('POST', `/vouchers/${encodeURIComponent(r.reverses)}/reversal`, r);
    if (String(reply.code) !== '0') throw new AccountingError(reply.message || `会计系统拒绝（${String(reply.code)}）`, String(reply.code ?? 'UNKNOWN'), reply);
    if (!reply.data?.voucherNo) throw new AccountingError('会计系统未返回冲销凭证号', 'INVALID', reply, 502);
    return { id: r.id, voucherNo: reply.data.voucherNo, period: reply.data.period ?? r.period, reversed: { voucherNo: reply.data.reversedVoucherNo ?? '', period: reply.data.reversedPeriod ?? '' } };
  }

  async voucherState(id: string): Promise<VoucherLookup> {
    const { status, reply } = await this.send('GET', `/vouchers/${encodeURIComponent(id)}`);
    if (status === 404 || String(reply.code) === 'NOT_FOUND') return { status: 'notFound' };
    if (String(reply.code) !== '0') throw new AccountingError(reply.message || `会计系统拒绝（${String(reply.code)}）`, String(reply.code ?? 'UNKNOWN'), reply);
    if (!reply.data?.voucherNo) throw new AccountingError('会计系统未返回凭证号', 'INVALID', reply, 502);
    return { status: 'posted', voucherNo: reply.data.voucherNo, period: reply.data.period ?? '', ...(reply.data.date ? { date: reply.data.date } : {}) };
  }

  async periodState(period: string): Promise<PeriodState> {
    const { reply } = await this.send('GET', `/periods/${encodeURIComponent(period)}`);
    if (String(reply.code) !== '0') throw new AccountingError(reply.message || `会计系统拒绝（${String(reply.code)}）`, String(reply.code ?? 'UNKNOWN'), reply);
    if (typeof reply.data?.closed !== 'boolean') throw new AccountingError('会计系统未返回会计期间状态', 'INVALID', reply, 502);
    return { period, closed: reply.data.closed };
  }
}
