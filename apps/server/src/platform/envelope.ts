/** The envelope every answer carries (SPEC section 8) and the error that produces a refusal. */
import { Messages, ResponseCode, type Envelope } from '@zhyy/shared';

export function ok<T>(r?: T, message?: string): Envelope<T> {
  const out: Envelope<T> = { code: ResponseCode.ok };
  if (message) out.message = message;
  if (r !== undefined) out.r = r;
  return out;
}

/** A refusal with a code of SPEC section 8 and a Chinese message the user can act on. */
export class AppError extends Error {
  /** What a refused batch did item by item (sent as the envelope's `r` beside the refusal). */
  r?: unknown;

  constructor(
    readonly code: number,
    message: string,
    readonly status: number = 400,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/** 30000 with a message; HTTP status tells proxies and logs the same story. */
export const refuse = (message: string, status = 400) => new AppError(ResponseCode.businessError, message, status);
/** 30000 for a batch of which nothing could be done: the message, and per item why (`r`). */
export function refuseBatch<T>(message: string, r: T, status = 400): AppError {
  const e = refuse(message, status);
  e.r = r;
  return e;
}
/**
 * A batch of which nothing was done is a refusal, never 20000 (issue 27 item 8): 30000 with the one item's
 * reason, or `{n}{noun}均未{verb}：` and each item's label and reason; the per-item answer `r` beside it.
 * Returns quietly when something was done (or nothing was refused): the caller then answers 20000 saying
 * how many, each refusal in `r`.
 */
export function refuseWhenNoneDone<T>(r: T, done: number, refused: ReadonlyArray<{ label: string; message: string }>, noun: string, verb: string): void {
  if (done > 0 || refused.length === 0) return;
  const message = refused.length === 1 ? refused[0]!.message : `${refused.length} ${noun}均未${verb}：${refused.map((x) => `${x.label} ${x.message}`.trim()).join('；')}`;
  throw refuseBatch(message.length > 300 ? `${message.slice(0, 299)}…` : message, r);
}
/** An import of which no row was saved is a refusal (issue 27 item 8): 30000 naming each refused row, the per-row answer `r` beside it. */
export function refuseWhenNoRowSaved<T extends { succeeded: number; rows: ReadonlyArray<{ row: number; ok: boolean; message: string }> }>(r: T): void {
  refuseWhenNoneDone(r, r.succeeded, r.rows.filter((x) => !x.ok).map((x) => ({ label: `第${x.row}行`, message: x.message })), '行', '导入');
}
export const notFound = (message: string) => new AppError(ResponseCode.businessError, message, 404);
export const conflict = (message: string) => new AppError(ResponseCode.businessError, message, 409);
export const forbidden = () => new AppError(ResponseCode.businessError, Messages.forbidden, 403);
export const tokenInvalid = (message: string = Messages.tokenInvalid) => new AppError(ResponseCode.tokenInvalid, message, 401);
export const mustChangePassword = () => new AppError(ResponseCode.needChangePassword, Messages.needChangePassword, 403);
