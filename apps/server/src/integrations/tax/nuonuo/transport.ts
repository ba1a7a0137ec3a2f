/**
 * The Nuonuo open platform over HTTP: one endpoint, the method in a header, the body signed
 * (sign.ts), an access token from the client-credentials call cached 24 h per app. Every HTTP
 * exchange is one sync log row; the appSecret and the access token never appear in it.
 */
import crypto from 'node:crypto';
import type { SyncLogService } from '../../../platform/synclog.js';
import { TaxErrorCode, TaxGatewayError, TaxMessages } from '../errors.js';
import { exchange, type TaxMethod } from '../exchange.js';
import type { NuonuoOptions, TaxCallContext, TaxClock } from '../types.js';
import { newNonce, newSenid, nuonuoSign } from './sign.js';

export const DEFAULT_ENDPOINT = 'https://sdk.nuonuo.com/open/v1/services';
export const DEFAULT_TOKEN_URL = 'https://open.nuonuo.com/accessToken';
const TOKEN_TTL_MS = 24 * 3600_000;
/** Answers that mean the token is no longer good: fetch a new one and try once more. */
const TOKEN_ERRORS = new Set(['070301', '070302', '070303']);

export interface NuonuoAnswer {
  code: string;
  describe: string;
  result: unknown;
}

interface CachedToken {
  token: string;
  expiresAt: number;
}

/** Tokens per app (endpoint, appKey, secret digest), shared by every gateway instance of the process. */
const tokens = new Map<string, CachedToken>();

/** Forgets every cached token (tests; or after credentials changed). */
export const clearTokenCache = () => tokens.clear();

export class NuonuoTransport {
  private readonly endpoint: string;
  private readonly tokenUrl: string;
  private readonly cacheKey: string;

  constructor(
    private readonly opts: NuonuoOptions,
    private readonly synclog: SyncLogService,
    private readonly clock: TaxClock,
    private readonly http: typeof fetch,
  ) {
    this.endpoint = opts.endpoint ?? DEFAULT_ENDPOINT;
    this.tokenUrl = opts.tokenUrl ?? DEFAULT_TOKEN_URL;
    const secretDigest = crypto.createHash('sha256').update(opts.appSecret).digest('hex');
    this.cacheKey = `${this.tokenUrl}|${opts.appKey}|${secretDigest}`;
  }

  private async fetchWithTimeout(url: string, init: RequestInit): Promise<Response> {
    try {
      return await this.http(url, { ...init, signal: AbortSignal.timeout(this.opts.timeoutMs ?? 15_000) });
    } catch (err) {
      const reason = err instanceof Error && err.name === 'TimeoutError' ? '请求超时' : '无法连接';
      throw new TaxGatewayError(TaxErrorCode.transport, `税务端${reason}，请稍后重试`);
    }
  }

  private async readJson(res: Response, method: string): Promise<Record<string, unknown>> {
    const text = await res.text();
    if (!res.ok) throw new TaxGatewayError(TaxErrorCode.transport, `税务端服务异常（HTTP ${res.status}），请稍后重试`, method);
    try {
      return JSON.parse(text) as Record<string, unknown>;
    } catch {
      throw new TaxGatewayError(TaxErrorCode.transport, '税务端返回的内容无法识别，请稍后重试', method);
    }
  }

  /** The access token: from the cache while younger than 24 h (or its own expiry), else a token call. */
  async token(ctx?: TaxCallContext): Promise<string> {
    const now = this.clock.now().getTime();
    const cached = tokens.get(this.cacheKey);
    if (cached && cached.expiresAt > now) return cached.token;
    const request = { client_id: this.opts.appKey, grant_type: 'client_credentials' };
    return exchange(this.synclog, 'accessToken', request, ctx, async () => {
      const body = new URLSearchParams({ ...request, client_secret: this.opts.appSecret });
      const res = await this.fetchWithTimeout(this.tokenUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' }, body });
      const json = await this.readJson(res, 'accessToken');
      const token = typeof json.access_token === 'string' ? json.access_token : '';
      if (!token) {
        const why = String(json.error_description ?? json.error ?? json.describe ?? '未返回令牌');
        throw new TaxGatewayError(TaxErrorCode.auth, `税务端拒绝了应用凭据（${why}），请检查 appKey 和 appSecret`, 'accessToken');
      }
      const ttl = Math.min(TOKEN_TTL_MS, Number(json.expires_in) > 0 ? Number(json.expires_in) * 1000 : TOKEN_TTL_MS);
      tokens.set(this.cacheKey, { token, expiresAt: now + ttl });
      return { value: token, log: { expires_in: json.expires_in ?? null }, memo: '已获取访问令牌' };
    });
  }

  /**
   * One signed call. Answers other than E0000 (and the codes in `accept`) throw TaxGatewayError
   * with the service's code and describe; E9613 with its own Chinese message.
   */
  async call(method: TaxMethod, content: unknown, ctx?: TaxCallContext, accept: readonly string[] = [], refs?: readonly string[]): Promise<NuonuoAnswer> {
    let answer = await this.once(method, content, ctx, accept, refs);
    if (answer === 'token') {
      tokens.delete(this.cacheKey);
      answer = await this.once(method, content, ctx, accept, refs);
      if (answer === 'token') throw new TaxGatewayError(TaxErrorCode.auth, '税务端访问令牌无效，请检查应用授权', method);
    }
    return answer;
  }

  private async once(method: TaxMethod, content: unknown, ctx: TaxCallContext | undefined, accept: readonly string[], refs?: readonly string[]): Promise<NuonuoAnswer | 'token'> {
    const accessToken = await this.token(ctx);
    return exchange<NuonuoAnswer | 'token'>(this.synclog, method, content, ctx, async () => {
      const body = JSON.stringify(content);
      const senid = newSenid();
      const nonce = newNonce();
      const timestamp = String(Math.floor(this.clock.now().getTime() / 1000));
      const url = `${this.endpoint}?${new URLSearchParams({ senid, nonce, timestamp, appkey: this.opts.appKey })}`;
      const res = await this.fetchWithTimeout(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json;charset=UTF-8',
          'X-Nuonuo-Sign': nuonuoSign(this.opts.appSecret, this.opts.appKey, senid, nonce, timestamp, body),
          accessToken,
          userTax: this.opts.taxNumber,
          method,
        },
        body,
      });
      const json = await this.readJson(res, method);
      const answer: NuonuoAnswer = { code: String(json.code ?? ''), describe: String(json.describe ?? ''), result: json.result ?? null };
      if (TOKEN_ERRORS.has(answer.code)) return { value: 'token' as const, log: answer, memo: `${answer.code} ${answer.describe}：重新获取令牌` };
      if (answer.code === TaxErrorCode.reissueLimit && !accept.includes(answer.code)) throw new TaxGatewayError(answer.code, TaxMessages.reissueLimit, method);
      if (answer.code !== TaxErrorCode.ok && !accept.includes(answer.code)) {
        throw new TaxGatewayError(answer.code || TaxErrorCode.transport, `税务端拒绝：${answer.describe || '未知错误'}（${answer.code || '无代码'}）`, method);
      }
      return { value: answer, log: answer, memo: `${answer.code} ${answer.describe || '成功'}` };
    }, refs);
  }

  /** Downloads a file the service links to (PDF / OFD / XML); null when it cannot be had. */
  async download(url: string): Promise<Buffer | null> {
    try {
      const res = await this.fetchWithTimeout(url, { method: 'GET' });
      return res.ok ? Buffer.from(await res.arrayBuffer()) : null;
    } catch {
      return null;
    }
  }
}
