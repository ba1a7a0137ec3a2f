/**
 * The archive side's HTTP client (ARCHIVE_MODE=http). Provisional protocol, to be confirmed in the first
 * joint test with the accounting system: `POST {baseUrl}/invoice/archive`, `/invoice/archive/revoke` and
 * `/invoice/archive/query` (by the signing id the filing came with), JSON body, headers `X-App-Key`, `X-Timestamp` (seconds) and `X-Sign` = hex HMAC-SHA256(appSecret,
 * `{timestamp}\n{body}`); answers `{ code: '0', message, data: { voucherId } }`, any other code a refusal
 * whose message is shown as the signing's failure reason. The query answers `data: { status: 'filed',
 * voucherId } | { status: 'notFiled' } | { status: 'unknown' }` — notFiled also for a filing withdrawn by
 * `/invoice/archive/revoke` (签收撤销 settled after a crash relies on it). The secret is never logged.
 */
import { createHmac } from 'node:crypto';
import { exchangeJson } from '../json-exchange.js';
import { ArchiveError, type ArchiveAnswer, type ArchiveLookup, type ArchiveQuery, type ArchiveRequest, type ArchiveRevokeRequest } from './types.js';

export interface ArchiveHttpOptions {
  baseUrl: string;
  appKey: string;
  appSecret: string;
  timeoutMs: number;
}

interface Reply {
  code?: string | number;
  message?: string;
  data?: { voucherId?: string; status?: string };
}

export class ArchiveHttpClient {
  constructor(
    private readonly o: ArchiveHttpOptions,
    private readonly fetchFn: typeof fetch = fetch,
  ) {}

  private async post(path: string, payload: unknown): Promise<Reply> {
    const body = JSON.stringify(payload);
    const ts = String(Math.floor(Date.now() / 1000));
    const sign = createHmac('sha256', this.o.appSecret).update(`${ts}\n${body}`).digest('hex');
    const { reply } = await exchangeJson<Reply>({
      fetchFn: this.fetchFn, url: `${this.o.baseUrl.replace(/\/+$/, '')}${path}`, method: 'POST', headers: { 'x-app-key': this.o.appKey, 'x-timestamp': ts, 'x-sign': sign }, body,
      timeoutMs: this.o.timeoutMs, system: '档案系统', credentials: 'ARCHIVE_APP_KEY和ARCHIVE_APP_SECRET',
      fail: (message, code, response, status) => new ArchiveError(message, code, response, status),
    });
    if (String(reply.code) !== '0') throw new ArchiveError(reply.message || `档案系统拒绝（${String(reply.code)}）`, String(reply.code ?? 'UNKNOWN'), reply);
    return reply;
  }

  async archive(req: ArchiveRequest): Promise<ArchiveAnswer> {
    const reply = await this.post('/invoice/archive', req);
    if (!reply.data?.voucherId) throw new ArchiveError('档案系统未返回凭证号', 'INVALID', reply, 502);
    return { voucherId: reply.data.voucherId };
  }

  async revoke(req: ArchiveRevokeRequest): Promise<void> {
    await this.post('/invoice/archive/revoke', req);
  }

  async query(req: ArchiveQuery): Promise<ArchiveLookup> {
    const reply = await this.post('/invoice/archive/query', req);
    const status = reply.data?.status;
    if (status === 'filed') {
      if (!reply.data?.voucherId) throw new ArchiveError('档案系统未返回凭证号', 'INVALID', reply, 502);
      return { status, voucherId: reply.data.voucherId };
    }
    if (status === 'notFiled') return { status };
    if (status === 'unknown') return { status, message: reply.message || '档案系统暂无结论' };
    throw new ArchiveError(`档案系统查询应答无法识别（${String(status)}）`, 'INVALID', reply, 502);
  }
}
