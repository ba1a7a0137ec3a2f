/**
 * The simulator's 发票状态查询 (the status re-check, issue 32): each invoice's state and risk level as the
 * service knows it now — the drawn ones change by their fate (income-invoices.ts), the registered ones keep
 * what they were registered with — overridden by the changes a test or the demo makes the bureau make
 * (`setIncomingStatus`, kept in taxsim_income_status: the control "the bureau voids / red-reverses / grades
 * this invoice"). The same override is what ticking and the booking flag see (income-ticks.ts `find`).
 * An invoice the service does not know answers found: false.
 */
import type { SyncLogService } from '../../../platform/synclog.js';
import { exchange, IncomeMethods as M } from '../exchange.js';
import { INCOME_STATE_LABELS, RISK_LEVEL_LABELS } from '../income-rules.js';
import type { StatusItem, StatusOutcome } from '../income-types.js';
import { checkStatusItems, statusKey } from '../status-rules.js';
import type { TaxCallContext } from '../types.js';
import type { SimulatorTicks } from './income-ticks.js';
import type { SimContext } from './progress.js';

export class SimulatorStatus {
  constructor(
    private readonly ctx: SimContext,
    private readonly synclog: SyncLogService,
    private readonly ticks: SimulatorTicks,
  ) {}

  queryIncomeStatus(items: StatusItem[], ctx?: TaxCallContext): Promise<StatusOutcome[]> {
    const request = { invoiceKey: items.map(statusKey), list: items.map((i) => ({ fpdm: i.invoiceNo.length === 20 ? '' : i.invoiceCode, fphm: i.invoiceNo.length === 20 ? '' : i.invoiceNo, qdfphm: i.invoiceNo.length === 20 ? i.invoiceNo : '', kprq: i.issueDate })) };
    return exchange(this.synclog, M.status, request, ctx, async () => {
      checkStatusItems(items, M.status);
      const outcomes: StatusOutcome[] = [];
      for (const item of items) {
        const key = statusKey(item);
        const known = await this.ticks.find(item);
        outcomes.push(known ? { key, found: true, state: known.state, riskLevel: known.risk, changedAt: known.changedAt ?? '' } : { key, found: false, state: 0, riskLevel: '01', changedAt: '' });
      }
      const changed = outcomes.filter((o) => o.found && (o.state !== 0 || o.riskLevel !== '01'));
      const missing = outcomes.filter((o) => !o.found).length;
      const words = changed.slice(0, 5).map((o) => `${o.key} ${INCOME_STATE_LABELS[o.state]}/${RISK_LEVEL_LABELS[o.riskLevel]}`).join('；');
      return {
        value: outcomes,
        log: { count: outcomes.length, notFound: missing, changed: changed.map((o) => ({ key: o.key, fpzt: o.state, fxdj: o.riskLevel, ztbgsj: o.changedAt })) },
        memo: `发票状态查询 ${outcomes.length} 张：非正常 ${changed.length} 张${missing ? `，税务端无此发票 ${missing} 张` : ''}${words ? `（${words}${changed.length > 5 ? '…' : ''}）` : ''}`,
      };
    });
  }
}
