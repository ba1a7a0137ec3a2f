/**
 * SPEC section 8: what an answer means, as a pure function the http client applies.
 * The client reads the envelope from any HTTP status.
 */
import { ResponseCode, WORKFLOW_ERROR_MARKER, type Envelope } from '@zhyy/shared';
import { ApiError, httpErrorText } from './errors';

export type Action = 'resetToken' | 'needChangePassword';

export type Outcome =
  | { ok: true; envelope: Envelope }
  | { ok: false; error: ApiError; toast?: string; action?: Action };

export interface AnswerContext {
  status: number;
  /** The parsed JSON body, or the raw text when it is not JSON. */
  body: unknown;
  /** True for the workflow service, whose string answers may carry the err@ marker. */
  workflow: boolean;
}

function isEnvelope(v: unknown): v is Envelope {
  return typeof v === 'object' && v !== null && typeof (v as { code?: unknown }).code === 'number';
}

export function interpretAnswer({ status, body, workflow }: AnswerContext): Outcome {
  if (typeof body === 'string') {
    const at = body.indexOf(WORKFLOW_ERROR_MARKER);
    if (workflow && at >= 0) {
      const text = body.slice(at + WORKFLOW_ERROR_MARKER.length).trim();
      return { ok: false, error: new ApiError('workflow', text, { status }), toast: text };
    }
    if (status >= 200 && status < 300) return { ok: true, envelope: { code: ResponseCode.ok, r: body } };
    const text = httpErrorText(status);
    return { ok: false, error: new ApiError('http', text, { status }), toast: text };
  }
  if (!isEnvelope(body)) {
    if (status >= 200 && status < 300 && body !== undefined) {
      // A bare JSON answer (e.g. a number) from a sister system: treat it as the result.
      return { ok: true, envelope: { code: ResponseCode.ok, r: body } };
    }
    const text = httpErrorText(status);
    return { ok: false, error: new ApiError('http', text, { status }), toast: text };
  }
  const envelope = body;
  const message = envelope.message ?? '';
  const err = (fallback: string) => new ApiError('business', message || fallback, { code: envelope.code, status, envelope });
  switch (envelope.code) {
    case ResponseCode.ok:
      return { ok: true, envelope };
    case ResponseCode.businessError:
      return { ok: false, error: err('操作失败'), toast: message || '操作失败' };
    case ResponseCode.tokenInvalid:
      return { ok: false, error: err('登录已失效，请重新登录'), action: 'resetToken' };
    case ResponseCode.needChangePassword:
      return { ok: false, error: err('首次登录请修改初始密码'), action: 'needChangePassword' };
    case ResponseCode.passwordErrorsExceeded:
      return { ok: false, error: err('密码错误次数过多，账号已锁定'), toast: message || '密码错误次数过多，账号已锁定' };
    default: {
      const text = message || httpErrorText(status);
      return { ok: false, error: err(text), toast: text };
    }
  }
}
