/**
 * The accounting gateway's entry point: `createAccountingGateway({ db, synclog }, accountingConfigFromEnv())`.
 * ACCOUNTING_MODE=simulator (default) or http; http needs ACCOUNTING_URL and ACCOUNTING_TOKEN
 * (ACCOUNTING_TIMEOUT_MS, default 15000); ACCOUNTING_SIM_DELAY_MS delays simulator answers (default 800 ms,
 * as i8 takes a moment to make a voucher; 0 under tests, NODE_ENV=test).
 * Every exchange is one integrated sync log row (system 2, the accounting system) through
 * `synclog.track`, written before the call, with our voucher id and the source document number as refs.
 * docs/accounting-gateway.md describes it.
 */
import { SyncSystem } from '@zhyy/shared';
import type { Db } from '../../db/index.js';
import type { SyncLogService } from '../../platform/synclog.js';
import { AccountingHttpClient } from './client.js';
import { AccountingSimulator } from './simulator.js';
import { AccountingMethods, periodText, type AccountingCallContext, type AccountingConfig, type AccountingGateway, type Voucher, type VoucherReversal } from './types.js';

export * from './types.js';
export { ACCOUNTING_FAIL_TRIGGER, ACCOUNTING_SIM_DOWN, ACCOUNTING_SIM_REFUSAL, accountingSimControl, formatVoucherNo, simPeriodClosed } from './simulator.js';

/** The simulator's answer delay when ACCOUNTING_SIM_DELAY_MS is not set (none under tests). */
export const defaultSimDelayMs = (env: NodeJS.ProcessEnv) => (env.NODE_ENV === 'test' ? 0 : 800);

export function accountingConfigFromEnv(env: NodeJS.ProcessEnv = process.env): AccountingConfig {
  const mode = (env.ACCOUNTING_MODE || 'simulator').trim();
  if (mode !== 'simulator' && mode !== 'http') throw new Error(`ACCOUNTING_MODE must be simulator or http, not ${mode}`);
  const num = (v: string | undefined, d: number) => (v && /^\d+$/.test(v) ? Number(v) : d);
  if (mode === 'simulator') return { mode, delayMs: num(env.ACCOUNTING_SIM_DELAY_MS, defaultSimDelayMs(env)) };
  const missing = ['ACCOUNTING_URL', 'ACCOUNTING_TOKEN'].filter((k) => !env[k]);
  if (missing.length) throw new Error(`ACCOUNTING_MODE=http needs ${missing.join(', ')}`);
  return { mode, url: env.ACCOUNTING_URL!, token: env.ACCOUNTING_TOKEN!, timeoutMs: num(env.ACCOUNTING_TIMEOUT_MS, 15_000) };
}

export interface AccountingDeps {
  /** The simulator's own tables (accountingsim_*). */
  db: Db;
  synclog: SyncLogService;
  fetch?: typeof fetch;
}

const yuan = (fen: number) => (fen / 100).toFixed(2);
const debitOf = (v: Voucher) => v.entries.filter((e) => e.dc === 'debit').reduce((s, e) => s + e.amount, 0);

export function createAccountingGateway(deps: AccountingDeps, config: AccountingConfig): AccountingGateway {
  const sim = config.mode === 'http' ? null : new AccountingSimulator(deps.db, config.delayMs ?? 0);
  const impl = sim ?? new AccountingHttpClient({ url: config.url!, token: config.token!, timeoutMs: config.timeoutMs ?? 15_000 }, deps.fetch ?? fetch);
  const system = SyncSystem.accounting;
  return {
    mode: config.mode,
    periodState: (period: string, ctx: AccountingCallContext = {}) =>
      deps.synclog.track({ system, type: AccountingMethods.period, request: { period }, userId: ctx.userId ?? null, refs: [period, ...(ctx.refs ?? [])] }, () => impl.periodState(period), (a) => `会计期间 ${periodText(a.period)} ${a.closed ? '已结账' : '未结账'}`),
    ...(sim
      ? {
          simulator: {
            deleteVoucher: (id: string, ctx: AccountingCallContext = {}) =>
              deps.synclog.track({ system, type: AccountingMethods.simDelete, request: { id, note: '模拟会计系统操作：会计删除凭证' }, userId: ctx.userId ?? null, refs: [id] }, () => sim.deleteVoucher(id), (a) => (a.deleted ? `模拟会计系统：已删除凭证 ${a.period} ${a.voucherNo}` : '模拟会计系统：无此凭证')),
          },
        }
      : {}),
    pushVoucher: (v: Voucher, ctx: AccountingCallContext = {}) =>
      deps.synclog.track({ system, type: AccountingMethods.push, request: v, userId: ctx.userId ?? null, refs: [v.id, v.sourceNo] }, () => impl.pushVoucher(v), (a) => `凭证推送成功（${v.summary}，金额${yuan(debitOf(v))}元），凭证号 ${a.period} ${a.voucherNo}`),
    reverseVoucher: (r: VoucherReversal, ctx: AccountingCallContext = {}) =>
      deps.synclog.track({ system, type: AccountingMethods.reverse, request: r, userId: ctx.userId ?? null, refs: [r.id, r.reverses, r.sourceNo, ...(ctx.refs ?? [])] }, () => impl.reverseVoucher(r), (a) => `红字冲销凭证 ${a.period} ${a.voucherNo}（冲销原凭证 ${a.reversed.period} ${a.reversed.voucherNo}）`),
    voucherState: (id: string, ctx: AccountingCallContext = {}) =>
      deps.synclog.track({ system, type: AccountingMethods.state, request: { id }, userId: ctx.userId ?? null, refs: [id, ...(ctx.refs ?? [])] }, () => impl.voucherState(id), (a) => (a.status === 'posted' ? `凭证已入账，凭证号 ${a.voucherNo}` : '会计系统无此凭证')),
  };
}
