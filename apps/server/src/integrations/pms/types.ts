/**
 * The project-management system (项目管理系统, PMS), the sister system that keeps the sites' daily
 * records, as the cost area sees it: each month's cost orders it has for us (成本管理, issue 16), and a
 * ping for the connection test. The modules talk only to `PmsGateway`; the simulator (default) and the
 * HTTP client stand behind it (index.ts picks one from the stored setting or the environment).
 */
import { ResponseCode } from '@zhyy/shared';
import { AppError } from '../../platform/envelope.js';

/** One line of a PMS cost order: an item of our price list by item code, spec and unit, and a quantity. */
export interface PmsOrderLine {
  itemCode: string;
  spec: string;
  unit: string;
  /** Decimal text (up to 4 places), as the PMS sends it. */
  quantity: string;
  remark: string;
}

/**
 * A PMS cost order of one month: one department's cost on one project. The platform keeps no department
 * codes, so the PMS names the department by its name (the organisation's, 组织架构); the project by its code.
 */
export interface PmsOrder {
  /** The PMS's id of the order: the push's identity (an order is taken once, cost_orders.pms_ref). */
  ref: string;
  deptName: string;
  projectCode: string;
  /** For the messages only (we take the name from our projects table). */
  projectName: string;
  lines: PmsOrderLine[];
}

export interface PmsCallContext {
  userId?: string | null;
  /** More business keys to index the sync log row by. */
  refs?: readonly string[];
}

export interface PmsGateway {
  readonly mode: 'simulator' | 'http';
  /**
   * The PMS's cost orders of `month` ('YYYY-MM'). The PMS answers only months that have ended and are at
   * most 24 months back (nothing otherwise). Throws PmsError when the exchange fails.
   */
  monthlyOrders(month: string, ctx?: PmsCallContext): Promise<PmsOrder[]>;
  /** Whether the PMS answers and accepts the credential (the 成本设置 connection test). */
  ping(ctx?: PmsCallContext): Promise<{ message: string }>;
}

/** A refusal or failed exchange with the PMS: its Chinese message is shown and kept. */
export class PmsError extends AppError {
  constructor(
    message: string,
    readonly serviceCode: string,
    readonly response?: unknown,
    status = 400,
  ) {
    super(ResponseCode.businessError, message, status);
    this.name = 'PmsError';
  }
}

export interface PmsConfig {
  mode: 'simulator' | 'http';
  url?: string;
  token?: string;
  timeoutMs?: number;
  /** simulator: how long an answer takes (ms). */
  delayMs?: number;
}

/** Sync log types (system 5, the project-management system) of the exchanges. */
export const PmsMethods = { orders: 'pmsCostMonthlyOrders', ping: 'pmsCostPing' } as const;

/** How far back the PMS keeps monthly cost orders. */
export const PMS_MONTHS_BACK = 24;
