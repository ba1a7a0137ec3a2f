/** SPEC section 9: business constants and limits. */

export const PRODUCT_TITLE = '综合运营支撑平台';

/** Token cookie lasts 7 days; separate cookie names hold the token and the user name. */
export const TOKEN_COOKIE_DAYS = 7;
export const TOKEN_COOKIE_NAME = 'ZHYY-Token';
export const USER_NAME_COOKIE_NAME = 'ZHYY-UserName';
export const SESSION_TTL_MS = TOKEN_COOKIE_DAYS * 24 * 3600 * 1000;

export const REQUEST_TIMEOUT_MS = 120000;
export const ERROR_TOAST_MS = 5000;
/** To-do and notice refresh. */
export const REFRESH_INTERVAL_MS = 60000;

/** Top navbar badges show 9+ above 9; sidebar badges show 99+ above 99. */
export const NAVBAR_BADGE_CAP = 9;
export const SIDEBAR_BADGE_CAP = 99;
export const IN_TRANSIT_PREFIX = '在途';

export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 20;
export const PASSWORD_INPUT_MAX_LENGTH = 32;
export const PASSWORD_DIALOG_WIDTH = 440;

/** Sidebar widths: 210 open and 55 collapsed in the full-screen data view; 160px in the main layout. */
export const DATA_SCREEN_SIDEBAR_OPEN = 210;
export const DATA_SCREEN_SIDEBAR_COLLAPSED = 55;
export const MAIN_SIDEBAR_WIDTH = 160;
export const MOBILE_BREAKPOINT = 992;
export const HEADER_HEIGHT = 66;
export const DATA_SCREEN_BASE = { width: 1024, height: 768 } as const;
export const DATA_SCREEN_MIN = { width: 807, height: 540 } as const;

/** Default theme colour: both readings of the spec are offered; #1890ff is the default. */
export const DEFAULT_THEME_COLOUR = '#1890ff';
export const ALTERNATE_THEME_COLOUR = '#409EFF';
export const THEME_COLOURS = [DEFAULT_THEME_COLOUR, ALTERNATE_THEME_COLOUR, '#13c2c2', '#52c41a', '#fa8c16', '#f5222d', '#722ed1', '#304156'] as const;

/** The component size default: the spec's "mini" is antd's "small". */
export const DEFAULT_COMPONENT_SIZE = 'small';

/** Abnormal-invoice popup: only role 13, once per calendar day per login name, only when count > 0. */
export const ABNORMAL_INVOICE_ROLE = '13';
export const ABNORMAL_INVOICE_TARGET = '/redirect/income/invoicePool/abnormal';

export const CLIENT_LOG_BUFFER_SIZE = 25;
export const NOTIFICATION_STAGGER_MS = 200;

/** Sign-in protection: five wrong passwords within 15 minutes lock the account for 15 minutes. */
export const LOGIN_MAX_FAILURES = 5;
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60 * 1000;
export const LOGIN_LOCK_MS = 15 * 60 * 1000;

/** A session counts as online when its heartbeat was seen within the last 2 minutes. */
export const ONLINE_WINDOW_MS = 2 * 60 * 1000;
export const HEARTBEAT_INTERVAL_MS = 60000;

/**
 * The platform's own file links: the short-lived signed invoice-file links (outside /api, readable
 * without a token). The public file viewer (/file/view) shows and offers for download only these.
 */
export const SIGNED_INVOICE_FILE_ROUTE = '/signed/invoice-file';
/** The same for the incoming-invoice pool's files (PDF, OFD, XML, images). */
export const SIGNED_INCOME_FILE_ROUTE = '/signed/income-file';
/** The same for 投标管理's attachments (contract pages, certificate scans), streamed from file storage. */
export const SIGNED_TENDER_FILE_ROUTE = '/signed/tender-file';
export const PLATFORM_FILE_PATH_PREFIXES: readonly string[] = [`${SIGNED_INVOICE_FILE_ROUTE}/`, `${SIGNED_INCOME_FILE_ROUTE}/`, `${SIGNED_TENDER_FILE_ROUTE}/`];
