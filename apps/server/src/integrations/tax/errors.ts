/**
 * TaxGatewayError: a refusal or a failed exchange with the tax service. It carries the service's
 * code (E9106, E9613, …, or one of ours below) and a Chinese message the invoice module can show as-is;
 * being an AppError, it becomes a 30000 envelope when it reaches the HTTP layer unhandled.
 */
import { ResponseCode } from '@zhyy/shared';
import { AppError } from '../../platform/envelope.js';

/** Service codes the gateway knows by name (Nuonuo's, and the gateway's own for local refusals). */
export const TaxErrorCode = {
  ok: 'E0000',
  duplicateOrder: 'E9106',
  reissueLimit: 'E9613',
  /**
   * 查验 of one invoice more than 5 times in a day: the national verification platform's code 002
   * (超过该张发票当日查验次数(请于次日再次查验)), as verification services relay it (001 success,
   * 006 inconsistent, 009 no such invoice).
   */
  verifyLimit: '002',
  /** Ours: the service could not be reached, timed out or answered something unreadable. */
  transport: 'TRANSPORT',
  /** Ours: the token call failed (wrong appKey / appSecret). */
  auth: 'AUTH',
  /** Ours: the request is not acceptable in the invoice's current state (cancel a 数电 invoice, re-issue a created one …). */
  state: 'STATE',
  /** Ours: unknown serial number / bill id. */
  notFound: 'NOT_FOUND',
  /** Ours: the request itself is invalid (missing fields, bad numbers). */
  invalid: 'INVALID',
} as const;

export class TaxGatewayError extends AppError {
  constructor(
    /** The service's code (E9106, E9613, …) or one of TaxErrorCode's own. */
    readonly serviceCode: string,
    message: string,
    /** The method of the exchange (requestBillingNew …), when known. */
    readonly method?: string,
  ) {
    super(ResponseCode.businessError, message, serviceCode === TaxErrorCode.transport || serviceCode === TaxErrorCode.auth ? 502 : 400);
    this.name = 'TaxGatewayError';
  }
}

/** The Chinese messages of refusals both implementations give. */
export const TaxMessages = {
  reissueLimit: '该流水号今日重新开票次数已达上限（20次），请明日再试',
  duplicateOrder: '订单号重复，已按原流水号返回',
  cancelDigital: '数电发票不能作废，请开具红字发票冲销',
  notFound: (what: string) => `税务端未找到${what}`,
} as const;
