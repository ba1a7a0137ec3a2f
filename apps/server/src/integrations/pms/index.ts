/**
 * The project-management gateway's entry point: `createPmsGateway({ db, synclog }, config)` with the
 * configuration 成本设置 stores (modules/cost/order/pms-settings.ts) or else `pmsConfigFromEnv()`:
 * PMS_COST_MODE=simulator or http (default: http when PMS_COST_API_URL is set, else simulator); http needs
 * PMS_COST_API_URL and PMS_COST_API_TOKEN (PMS_COST_TIMEOUT_MS, default 15000); PMS_COST_SIM_DELAY_MS
 * delays simulator answers (default 500 ms; 0 under tests, NODE_ENV=test). Every exchange is one
 * integrated sync log row (system 5, the project-management system) through `synclog.track`, written
 * before the call, with the month as ref.
 */
import { monthLabel, SyncSystem } from '@zhyy/shared';
import type { Db } from '../../db/index.js';
import type { SyncLogService } from '../../platform/synclog.js';
import { PmsHttpClient } from './client.js';
import { PmsSimulator } from './simulator.js';
import { PmsMethods, type PmsCallContext, type PmsConfig, type PmsGateway } from './types.js';

export * from './types.js';
export { PMS_FAIL_TRIGGER, PMS_SIM_DOWN, PMS_SIM_ROOT_DEPT, PMS_SIM_UNKNOWN_ITEM, pmsMonthAnswered, pmsSimControl } from './simulator.js';

/** The simulator's answer delay when PMS_COST_SIM_DELAY_MS is not set (none under tests). */
export const defaultPmsSimDelayMs = (env: NodeJS.ProcessEnv) => (env.NODE_ENV === 'test' ? 0 : 500);

export function pmsConfigFromEnv(env: NodeJS.ProcessEnv = process.env): PmsConfig {
  const url = (env.PMS_COST_API_URL ?? '').trim();
  const mode = (env.PMS_COST_MODE || (url ? 'http' : 'simulator')).trim();
  if (mode !== 'simulator' && mode !== 'http') throw new Error(`PMS_COST_MODE must be simulator or http, not ${mode}`);
  const num = (v: string | undefined, d: number) => (v && /^\d+$/.test(v) ? Number(v) : d);
  if (mode === 'simulator') return { mode, delayMs: num(env.PMS_COST_SIM_DELAY_MS, defaultPmsSimDelayMs(env)) };
  const missing = ['PMS_COST_API_URL', 'PMS_COST_API_TOKEN'].filter((k) => !(env[k] ?? '').trim());
  if (missing.length) throw new Error(`PMS_COST_MODE=http needs ${missing.join(', ')}`);
  return { mode, url, token: env.PMS_COST_API_TOKEN!.trim(), timeoutMs: num(env.PMS_COST_TIMEOUT_MS, 15_000) };
}

export interface PmsDeps {
  /** The simulator reads the platform's departments, projects and price list. */
  db: Db;
  synclog: SyncLogService;
  fetch?: typeof fetch;
  /** The simulator's clock (tests). */
  now?: () => Date;
}

export function createPmsGateway(deps: PmsDeps, config: PmsConfig): PmsGateway {
  const impl =
    config.mode === 'http'
      ? new PmsHttpClient({ url: config.url!, token: config.token!, timeoutMs: config.timeoutMs ?? 15_000 }, deps.fetch ?? fetch)
      : new PmsSimulator(deps.db, config.delayMs ?? 0, deps.now);
  const system = SyncSystem.pms;
  return {
    mode: config.mode,
    monthlyOrders: (month: string, ctx: PmsCallContext = {}) =>
      deps.synclog.track(
        { system, type: PmsMethods.orders, request: { month }, userId: ctx.userId ?? null, refs: [month, ...(ctx.refs ?? [])] },
        () => impl.monthlyOrders(month),
        (orders) => `取${monthLabel(month)}成本单 ${orders.length} 张`,
      ),
    ping: (ctx: PmsCallContext = {}) =>
      deps.synclog.track({ system, type: PmsMethods.ping, request: { note: '连接测试' }, userId: ctx.userId ?? null, refs: [...(ctx.refs ?? [])] }, () => impl.ping(), (a) => a.message),
  };
}
