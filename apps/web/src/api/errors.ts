/** The one error type every client rejects with. */
import { ResponseCode, type Envelope } from '@zhyy/shared';

export type ApiErrorKind = 'business' | 'network' | 'timeout' | 'http' | 'workflow';

export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  /** The envelope code, when the server answered with one. */
  readonly code?: number;
  readonly status?: number;
  readonly envelope?: Envelope;

  constructor(kind: ApiErrorKind, message: string, extra: { code?: number; status?: number; envelope?: Envelope } = {}) {
    super(message);
    this.name = 'ApiError';
    this.kind = kind;
    this.code = extra.code;
    this.status = extra.status;
    this.envelope = extra.envelope;
  }
}

export const NETWORK_ERROR_TEXT = '网络连接失败，请检查网络后重试';
export const TIMEOUT_TEXT = '请求超时，请稍后重试';
export function httpErrorText(status: number): string {
  return `请求失败（HTTP ${status}）`;
}

/**
 * True only when the service could not be reached or failed on its side: no answer (network, timeout) or
 * an HTTP 5xx. A refusal — any answer with an error code (50010, 30000, 权限不足 …) — is not an outage and
 * is never shown as "暂时无法连接".
 */
export function isUnreachable(e: unknown): boolean {
  if (!(e instanceof ApiError)) return false;
  if (e.kind === 'network' || e.kind === 'timeout') return true;
  return (e.status ?? 0) >= 500;
}

/** True for the 50010 refusal: the initial password must be changed first; nothing is wrong with the service. */
export function isPasswordChangePending(e: unknown): boolean {
  return e instanceof ApiError && e.code === ResponseCode.needChangePassword;
}

/**
 * What a live card says when its data did not arrive: "<service>暂时无法连接" only for an outage, nothing
 * while the initial password must be changed (the dialog says it), else `refusalText` or the refusal's own message.
 */
export function cardProblem(e: unknown, service: string, refusalText?: string): string | null {
  if (isUnreachable(e)) return `${service}暂时无法连接`;
  if (isPasswordChangePending(e)) return null;
  return refusalText ?? (e instanceof Error && e.message ? e.message : null);
}
