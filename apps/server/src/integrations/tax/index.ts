/**
 * The tax gateway's entry point. The invoice module builds one per use from its settings, so the
 * settings screen can switch between the simulator and Nuonuo without a restart:
 *
 *   const gateway = createTaxGateway({ db: app.db, synclog: app.synclog }, { mode: 'simulator', simulator: { delayMs: 3000, failureRate: 0 } });
 *   const { serialNo } = await gateway.submitInvoice(request, { userId });
 *
 * Building one is cheap (no I/O); the Nuonuo access token is cached per app across instances.
 */
import { NuonuoTaxGateway } from './nuonuo/gateway.js';
import type { SimContext } from './simulator/progress.js';
import { SimulatorTaxGateway } from './simulator/gateway.js';
import { createRedConfirm } from './simulator/redconfirm.js';
import { simDb } from './simulator/store.js';
import { filingDeadlines } from './calendar.js';
import { registerKnownIncoming as registerKnown, type KnownIncoming } from './simulator/income-ticks.js';
import { failNextBookingCalls as failNext } from './simulator/income-booking.js';
import { setIncomingStatus as setStatus, type IncomingStatusChange } from './simulator/status-store.js';
import { enterCustomsNotices as enterCustoms, type CustomsNoticeSeed } from './simulator/income-customs.js';
import { SimulatorTicks } from './simulator/income-ticks.js';
import type { TickOutcome, TickRequest, UntickRequest } from './income-types.js';
import type { RedConfirm, RedConfirmLineChoice, RedReason, SimulatorOptions, TaxClock, TaxGateway, TaxGatewayConfig, TaxGatewayDeps, VatUsage } from './types.js';

export * from './types.js';
export * from './income-types.js';
export { INCOME_STATE_LABELS, IncomeMessages, RISK_LEVEL_LABELS, VERIFY_DAILY_LIMIT, VERIFY_FIELD_LABELS, MAX_WINDOW_DAYS } from './income-rules.js';
export { TaxGatewayError, TaxErrorCode, TaxMessages } from './errors.js';
export { IncomeMethods, TaxMethods, taxMethodLabel } from './exchange.js';
export { RED_STATE_MESSAGES, STATUS_MESSAGES } from './states.js';
export { FORCED_FAILURE, REISSUE_DAILY_LIMIT } from './simulator/gateway.js';
export { clearTokenCache } from './nuonuo/transport.js';
export type { KnownIncoming } from './simulator/income-ticks.js';
export type { CustomsNoticeSeed } from './simulator/income-customs.js';
export { STAT_ACTION_LABELS, STAT_DETAIL_PAGE_MAX, STAT_DETAIL_USAGES, STAT_SCOPE_LABELS, STAT_STATE_LABELS, StatCodes, StatMessages, type StatAction } from './stat-rules.js';
export { STATUS_BATCH_MAX, StatusMessages } from './status-rules.js';
export type { IncomingStatusChange } from './simulator/status-store.js';
export { BOOKING_BATCH_MAX, BOOKING_FLAG_LABELS, BookingMessages } from './booking-rules.js';
export { TICK_BATCH_MAX, TICK_USAGE_LABELS, NON_DEDUCT_REASON_LABELS, TickMessages, deadlineText, defaultDeadline } from './tick-rules.js';

export const DEFAULT_SIMULATOR_DELAY_MS = 3000;
const systemClock: TaxClock = { now: () => new Date() };

/** Where each TAX_SIMULATOR_NOW value was first seen: the simulator's clock starts there and runs on. */
const envStarts = new Map<string, { at: number; real: number }>();
/**
 * TAX_SIMULATOR_NOW (an ISO instant, the simulator only): the simulated tax service's clock starts at that
 * instant when first read and runs on with real time (browser tests and demos of the bureau's calendar:
 * confirming statistics needs a day after the period's month). Unset: the real clock. Invalid: refused.
 */
export function simulatorClockFromEnv(env: NodeJS.ProcessEnv = process.env): TaxClock | null {
  const v = env.TAX_SIMULATOR_NOW?.trim();
  if (!v) return null;
  let start = envStarts.get(v);
  if (!start) {
    const at = Date.parse(v);
    if (!/^\d{4}-\d{2}-\d{2}T/.test(v) || Number.isNaN(at)) throw new Error(`TAX_SIMULATOR_NOW 不是有效的 ISO 时间：${v}`);
    start = { at, real: Date.now() };
    envStarts.set(v, start);
  }
  const s = start;
  return { now: () => new Date(s.at + (Date.now() - s.real)) };
}

function simContext(deps: TaxGatewayDeps, opts: SimulatorOptions = {}): SimContext {
  const clock = deps.clock ?? simulatorClockFromEnv() ?? systemClock;
  return {
    sdb: simDb(deps.db),
    now: () => clock.now(),
    deadlines: async (periods) => new Map([...(await filingDeadlines(deps.db.kysely, periods))].map(([p, d]) => [p, d.deadline])),
    delayMs: Math.max(0, opts.delayMs ?? DEFAULT_SIMULATOR_DELAY_MS),
    failureRate: Math.min(1, Math.max(0, opts.failureRate ?? 0)),
    random: deps.random ?? Math.random,
    ...(opts.taxNumber ? { taxNumber: opts.taxNumber } : {}),
    ...(opts.failOrders ? { failOrders: opts.failOrders } : {}),
    ...(opts.company ? { company: opts.company } : {}),
  };
}

export function createTaxGateway(deps: TaxGatewayDeps, config: TaxGatewayConfig): TaxGateway {
  if (config.mode === 'nuonuo') return new NuonuoTaxGateway(config.nuonuo, deps.synclog, deps.clock ?? systemClock, deps.fetch ?? fetch);
  return new SimulatorTaxGateway(simContext(deps, config.simulator), deps.synclog);
}

export interface BuyerRedConfirmSeed {
  /** Our blue 数电 invoice (issued through the simulator) the buyer applies against. */
  blueInvoiceNo: string;
  sellerTaxNumber: string;
  redReason: RedReason;
  vatUsage?: VatUsage;
  lines?: RedConfirmLineChoice[];
}

/**
 * The simulator only: a buyer enters a red-letter confirmation against one of our blue 数电
 * invoices, which then awaits our confirmation (03). For the demo company and tests.
 */
export function seedBuyerRedConfirm(deps: TaxGatewayDeps, seed: BuyerRedConfirmSeed, opts?: SimulatorOptions): Promise<RedConfirm> {
  return createRedConfirm(simContext(deps, opts), { applicant: 1, billNo: '', ...seed });
}

/**
 * The simulator only: tells the simulated tax service of incoming invoices issued to the company besides
 * the ones it draws (the demo's pool, tests), so that it can tick them (income-ticks.ts).
 */
export function registerKnownIncoming(deps: TaxGatewayDeps, invoices: readonly KnownIncoming[]): Promise<void> {
  return registerKnown(simContext(deps), invoices);
}

/**
 * The simulator only: enters customs notices (海关缴款书) the simulated tax service holds for the company (the
 * customs data the bureau receives), answered by its customs collection and accepted by its customs ticking. The
 * payer defaults to `opts.company` (the invoice settings' company, as InvoiceSettings.gateway() passes it).
 */
export function enterCustomsNotices(deps: TaxGatewayDeps, notices: readonly CustomsNoticeSeed[], opts?: SimulatorOptions): Promise<void> {
  return enterCustoms(simContext(deps, opts), notices);
}

/** The simulator only: the next `n` booking-flag calls (入账标识) fail as if the connection were lost (tests of the retries). */
export function failNextBookingCalls(deps: TaxGatewayDeps, n: number): Promise<void> {
  return failNext(simContext(deps), n);
}

/**
 * The simulator only (tests, the demo): the bureau changes an incoming invoice's state (作废 2, 已红冲 3, 部分红冲 7,
 * 全额红冲 8, 失控 1) and/or risk level (01, 02 异常凭证, 03 疑点发票) from now on; the status query, the collection,
 * 查验, ticking and the booking flag answer it.
 */
export function setIncomingStatus(deps: TaxGatewayDeps, change: IncomingStatusChange): Promise<void> {
  return setStatus(simContext(deps), change);
}

/**
 * The simulator only (issue 32 item 1): ticks the clerk makes on the bureau's platform outside the product —
 * the bureau's rules apply, our ledger learns nothing. The same control as `gateway.simulator.tickOutside`
 * (the route 模拟税务端勾选 uses that one), for tests that have no gateway at hand.
 */
export function tickOutside(deps: TaxGatewayDeps, r: TickRequest, opts?: SimulatorOptions): Promise<TickOutcome[]> {
  return new SimulatorTicks(simContext(deps, opts), deps.synclog).tickOutside(r);
}

/** The simulator only: an undo made on the bureau's platform outside the product. */
export function untickOutside(deps: TaxGatewayDeps, r: UntickRequest, opts?: SimulatorOptions): Promise<TickOutcome[]> {
  return new SimulatorTicks(simContext(deps, opts), deps.synclog).untickOutside(r);
}
