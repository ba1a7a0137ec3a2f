/**
 * The simulated bureau's status changes (issue 32, table taxsim_income_status of migration 0046): the simulator
 * control `setIncomingStatus` writes them; the status query, ticking, the booking flag (income-ticks.ts find), the
 * collection and 查验 (income.ts) read them over the drawn and registered invoices.
 */
import type { IncomeInvoiceState, IncomeRiskLevel } from '../income-types.js';
import { shanghaiTime } from './numbers.js';
import type { SimContext } from './progress.js';

/** A change of the bureau's status of one invoice (the simulator control); absent fields keep theirs. */
export interface IncomingStatusChange {
  /** 数电 number, else 发票代码 + 发票号码. */
  key: string;
  state?: IncomeInvoiceState;
  riskLevel?: IncomeRiskLevel;
}

/** The simulator only: the bureau changes an invoice's state and/or risk level from now on. */
export async function setIncomingStatus(ctx: SimContext, change: IncomingStatusChange, base: { state: IncomeInvoiceState; risk: IncomeRiskLevel } = { state: 0, risk: '01' }): Promise<void> {
  const had = await ctx.sdb.selectFrom('taxsim_income_status').selectAll().where('invoice_key', '=', change.key).executeTakeFirst();
  const row = {
    invoice_key: change.key,
    invoice_state: change.state ?? (had ? Number(had.invoice_state) : base.state),
    risk_level: change.riskLevel ?? (had ? had.risk_level : base.risk),
    changed_at: shanghaiTime(ctx.now()),
  };
  await ctx.sdb.insertInto('taxsim_income_status').values(row).onConflict((oc) => oc.column('invoice_key').doUpdateSet({ invoice_state: row.invoice_state, risk_level: row.risk_level, changed_at: row.changed_at })).execute();
}

/** The override of the keys asked, if any. */
export async function statusOverrides(ctx: SimContext, keys: string[]): Promise<Map<string, { state: IncomeInvoiceState; risk: IncomeRiskLevel; changedAt: string }>> {
  if (!keys.length) return new Map();
  const rows = await ctx.sdb.selectFrom('taxsim_income_status').selectAll().where('invoice_key', 'in', keys).execute();
  return new Map(rows.map((r) => [r.invoice_key, { state: Number(r.invoice_state) as IncomeInvoiceState, risk: r.risk_level as IncomeRiskLevel, changedAt: r.changed_at }]));
}

