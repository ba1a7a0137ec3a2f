/** SPEC section 8: response codes and the fixed messages of sections 5, 8 and the accounts rules. */

export const ResponseCode = {
  ok: 20000,
  /** A business refusal: the message is shown as an error toast for 5 seconds. */
  businessError: 30000,
  /** Token missing, invalid, expired or revoked: reset the token and reload. */
  tokenInvalid: 50008,
  /** The user must change the initial password: raise the change-password dialog. */
  needChangePassword: 50010,
  /** Too many wrong passwords: the account is locked for a while. */
  passwordErrorsExceeded: 50011,
} as const;

export type ResponseCodeValue = (typeof ResponseCode)[keyof typeof ResponseCode];

/** The envelope every API answer carries. */
export interface Envelope<T = unknown> {
  code: number;
  message?: string;
  r?: T;
  /** Present on unexpected errors, to quote when reporting them. */
  requestId?: string;
}

/** The request header that silences the error toast (value '1'). */
export const NO_SHOW_ERROR_HEADER = 'X-ZB-NoShowError';
/** The header every authenticated call carries its token in. */
export const TOKEN_HEADER = 'X-Token';
/** The marker a workflow host string answer uses for an error: the text after it is shown. */
export const WORKFLOW_ERROR_MARKER = 'err@';

/** The name shown for what the platform did by itself (tax-service callbacks, scheduled jobs): one name everywhere. */
export const SYSTEM_ACTOR_NAME = '系统';

export const Messages = {
  loginInfoMissing: '验证失败, 请重新登录',
  noRoles: '权限不足',
  forbidden: '权限不足',
  routeGuardFallback: 'Has Error',
  passwordUpdated: '修改成功',
  wrongCredentials: '用户名或密码错误',
  accountDisabled: '账号已停用，请联系管理员',
  tokenInvalid: '登录已失效，请重新登录',
  /** 50008 for a session an administrator ended (强制下线): said on the sign-in page. */
  sessionForcedOut: '您已被管理员强制下线',
  /** 50008 for a session past its 7 days. */
  sessionExpired: '登录已过期，请重新登录',
  /** 50008 for a session ended because the password was reset by an administrator. */
  sessionPasswordReset: '密码已被管理员重置，请重新登录',
  /** 50008 for a session ended because the password was changed elsewhere. */
  sessionPasswordChanged: '密码已修改，请重新登录',
  needChangePassword: '首次登录请修改初始密码',
  oldPasswordWrong: '原密码错误',
  samePassword: '新密码不能与原密码相同',
  notFound: '请求的接口不存在',
  internalError: '服务器内部错误，请稍后重试',
  tooManyRequests: '请求过于频繁，请稍后再试',
  abnormalInvoiceTitle: '异常发票提醒',
  abnormalInvoiceButton: '查看异常票池',
} as const;

/** 税务端进项票池存在N张未处理的异常发票 */
export function abnormalInvoiceText(count: number): string {
  return `税务端进项票池存在${count}张未处理的异常发票`;
}

/** The 50011 message: says until when the account stays locked (Asia/Shanghai wall time). */
export function accountLockedMessage(until: Date): string {
  const t = new Date(until.getTime() + 8 * 3600_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  const when = `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())} ${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())}`;
  return `密码错误次数过多，账号已锁定至 ${when}，请稍后再试`;
}
