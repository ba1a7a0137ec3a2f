/** A small typed http client on fetch: one instance per service (main, workflow, OA, PMS). */
import { ERROR_TOAST_MS, NO_SHOW_ERROR_HEADER, REQUEST_TIMEOUT_MS, TOKEN_HEADER, type Envelope } from '@zhyy/shared';
import { ApiError, NETWORK_ERROR_TEXT, TIMEOUT_TEXT } from './errors';
import { interpretAnswer } from './interpret';

export interface HttpHooks {
  getToken(): string | undefined;
  /** 50008: reset the token and reload the page; `reason` is the server's message (why the session ended). */
  onTokenInvalid(reason?: string): void;
  /**
   * 50008 while the user is at work (issue 31): ask them to sign in again over the page, nothing typed
   * being lost. Resolves true once signed in again (the call is then sent once more with the new token),
   * false when they chose to leave (or no page can ask): then `onTokenInvalid` as before.
   */
  reauthenticate?(reason?: string): Promise<boolean>;
  /** 50010: raise the change-password dialog. */
  onNeedChangePassword(): void;
  /** An error toast. */
  showError(text: string, durationMs: number): void;
  /** A change went through (a successful `request`): the counts it may affect are refreshed at once. */
  onChanged?(path: string): void;
}

export interface RequestOptions {
  method?: 'GET' | 'POST';
  /** Failures are swallowed without any toast (counts, heartbeat, logs, version check). */
  silent?: boolean;
  /** Sends X-ZB-NoShowError: 1, which silences the 30000 toast. */
  noShowError?: boolean;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface ClientConfig {
  /** Base URL, read on every call (the workflow/OA/PMS ones arrive with the public configuration). */
  baseUrl: () => string;
  credentials?: RequestCredentials;
  /** Whether string answers may carry the err@ marker. */
  workflow?: boolean;
  timeoutMs?: number;
  fetch?: typeof fetch;
  hooks: HttpHooks;
}

export interface HttpClient {
  /**
   * A change (save, issue, delete …): the whole envelope of a successful answer, whose message says what was
   * done. On success the client tells `hooks.onChanged`, so badges and counts follow the change at once.
   * Reads use `post`/`get`.
   */
  request<T>(path: string, body?: unknown, options?: RequestOptions): Promise<Envelope<T>>;
  /** The `r` of a successful answer. */
  post<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  get<T>(path: string, options?: RequestOptions): Promise<T>;
  /** A file download: the blob is returned as is; a JSON answer is an error envelope. */
  blob(path: string, body?: unknown, options?: RequestOptions): Promise<Blob>;
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export function createHttpClient(config: ClientConfig): HttpClient {
  const timeoutMs = config.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const { hooks } = config;

  async function send(path: string, body: unknown, options: RequestOptions): Promise<Response> {
    const method = options.method ?? 'POST';
    const headers: Record<string, string> = { ...options.headers };
    if (method === 'POST') headers['Content-Type'] = 'application/json';
    const token = hooks.getToken();
    if (token) headers[TOKEN_HEADER] = token;
    if (options.noShowError) headers[NO_SHOW_ERROR_HEADER] = '1';
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new DOMException('timeout', 'TimeoutError')), timeoutMs);
    const onAbort = () => controller.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', onAbort);
    try {
      const doFetch = config.fetch ?? globalThis.fetch.bind(globalThis);
      return await doFetch(`${config.baseUrl()}${path}`, {
        method,
        headers,
        credentials: config.credentials ?? 'same-origin',
        body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined,
        signal: controller.signal,
      });
    } catch (e) {
      const timedOut = controller.signal.aborted && !options.signal?.aborted;
      const error = timedOut ? new ApiError('timeout', TIMEOUT_TEXT) : new ApiError('network', NETWORK_ERROR_TEXT);
      if (!options.silent && !options.signal?.aborted) hooks.showError(error.message, ERROR_TOAST_MS);
      throw error;
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    }
  }

  async function settle<T>(res: Response, options: RequestOptions, retry?: () => Promise<Envelope<T>>): Promise<Envelope<T>> {
    const outcome = interpretAnswer({ status: res.status, body: await readBody(res), workflow: !!config.workflow });
    if (outcome.ok) return outcome.envelope as Envelope<T>;
    if (outcome.action === 'resetToken') {
      // Signed in again over the page: the same call once more (a save goes through with what was typed).
      if (retry && hooks.reauthenticate && (await hooks.reauthenticate(outcome.error.message))) return retry();
      hooks.onTokenInvalid(outcome.error.message);
    }
    if (outcome.action === 'needChangePassword') hooks.onNeedChangePassword();
    const muted = options.silent || (options.noShowError && outcome.error.kind === 'business');
    if (outcome.toast && !muted) hooks.showError(outcome.toast, ERROR_TOAST_MS);
    throw outcome.error;
  }

  async function call<T>(path: string, body: unknown, options: RequestOptions, retried = false): Promise<Envelope<T>> {
    const res = await send(path, body, options);
    return settle<T>(res, options, retried ? undefined : () => call<T>(path, body, options, true));
  }

  const client: HttpClient = {
    async request<T>(path: string, body?: unknown, options: RequestOptions = {}) {
      const envelope = await call<T>(path, body, options);
      hooks.onChanged?.(path);
      return envelope;
    },
    async post<T>(path: string, body?: unknown, options: RequestOptions = {}) {
      const envelope = await call<T>(path, body, options);
      return envelope.r as T;
    },
    async get<T>(path: string, options: RequestOptions = {}) {
      const envelope = await call<T>(path, undefined, { ...options, method: 'GET' });
      return envelope.r as T;
    },
    async blob(path: string, body?: unknown, options: RequestOptions = {}) {
      const res = await send(path, body, options);
      const type = res.headers.get('Content-Type') ?? '';
      if (res.ok && !type.includes('application/json')) return res.blob();
      await settle(res, options);
      throw new ApiError('http', '下载失败：服务器未返回文件', { status: res.status });
    },
  };
  return client;
}
