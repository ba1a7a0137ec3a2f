/** The one error type every client rejects with. */
import type { Envelope } from '@zhyy/shared';

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
