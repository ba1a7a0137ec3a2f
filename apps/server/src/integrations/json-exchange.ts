/**
 * One JSON exchange over HTTP with a sister system (the archive side, the accounting system): the call
 * with its timeout, and the failures every such client answers the same way — no connection or no
 * answer in time, an answer that is not JSON, credentials refused (401/403) — as that system's error
 * with a Chinese message naming it. What the answer means is the client's own business.
 */
export interface JsonExchange {
  fetchFn: typeof fetch;
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  /** The JSON text to send (POST). */
  body?: string;
  timeoutMs: number;
  /** The system's Chinese name in the messages (档案系统, 会计系统). */
  system: string;
  /** What to check when the credentials are refused (the environment variables). */
  credentials: string;
  /** The system's error: message, service code, the response kept for the log, HTTP status. */
  fail: (message: string, code: string, response: unknown, status: number) => Error;
}

export async function exchangeJson<R>(x: JsonExchange): Promise<{ status: number; reply: R }> {
  let res: Response;
  try {
    res = await x.fetchFn(x.url, {
      method: x.method,
      headers: { 'content-type': 'application/json', ...x.headers },
      ...(x.body === undefined ? {} : { body: x.body }),
      signal: AbortSignal.timeout(x.timeoutMs),
    });
  } catch (e) {
    const timeout = e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError');
    throw x.fail(timeout ? `${x.system}${x.timeoutMs / 1000}秒内未应答，请稍后重试` : `无法连接${x.system}，请稍后重试`, 'TRANSPORT', undefined, 502);
  }
  const text = await res.text();
  let reply: R;
  try {
    reply = JSON.parse(text) as R;
  } catch {
    throw x.fail(`${x.system}应答无法识别（HTTP ${res.status}）`, 'TRANSPORT', text.slice(0, 500), 502);
  }
  if (res.status === 401 || res.status === 403) throw x.fail(`${x.system}拒绝了接口凭据，请核对${x.credentials}`, 'AUTH', reply, 502);
  return { status: res.status, reply };
}
