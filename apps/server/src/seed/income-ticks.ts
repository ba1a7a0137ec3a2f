/**
 * The demo pool's ticking (issue 14): the tickable invoices (专票, 数电专票; verified, ours, not void; since
 * issue 29 also tolls, customs notices and 数电 rail and air tickets, left unticked) are made known to the simulated tax service; those of past periods are mostly ticked in their issue
 * month's period (抵扣 at the full tax, a few 不抵扣), some of the current period are ticked (抵扣, one with
 * a reduced effective tax, a few 不抵扣 and 出口退税) with their tick log rows, and the rest wait as
 * candidates. The simulator's own ticks (taxsim_income_ticks) match, so an undo in the demo works.
 */
import type { IncomeInvoiceTable } from '../modules/income/pool/tables.js';
import type { TickLogTable } from '../modules/income/deduction/tables.js';
import { currentPeriod, defaultDeadline, periodOfDay } from '../integrations/tax/tick-rules.js';
import type { Kysely } from 'kysely';
import type { TaxsimTables } from '../integrations/tax/simulator/store.js';
import type { Database } from '../db/schema.js';
import { bulkInsert } from './bulk.js';
import type { DemoUser } from './company.js';
import { incomeRowId } from './incomeData.js';
import { isTickableKind } from '@zhyy/shared';

const TICKABLE = new Set(['01', '08', '81', '85']);
const T_LOG = 0x9006;
const DAY_MS = 86_400_000;

export interface TickDemo {
  known: Array<{ invoice_key: string; kind: string; issue_date: string; tax: number; amount: number; risk_level: string; invoice_state: number; registered_at: string }>;
  ticks: Array<{ invoice_key: string; usage: number; reason: number | null; effective_tax: number; period: string; ticked_at: string }>;
  logs: TickLogTable[];
}

/**
 * Sets the tick facts on `invoices` (every row gets all of them) and answers the simulator's rows and the
 * log. `logTable` keeps the log's row ids apart when another seeder (the reimbursements' own invoices) ticks too.
 */
export function tickDemo(invoices: IncomeInvoiceTable[], now: Date, users: DemoUser[], logTable = T_LOG): TickDemo {
  const period = currentPeriod(now, (p) => ({ deadline: defaultDeadline(p), statState: 0 }));
  const clerk = users.find((u) => u.roles.includes('13')) ?? users[0]!;
  const out: TickDemo = { known: [], ticks: [], logs: [] };
  let n = 0;
  for (const r of invoices) {
    Object.assign(r, { vat_usage: 0, tick_state: 0, effective_tax: null, deduct_reason: null, tick_period: '', ticked_at: null, ticked_by: '' });
    const key = r.digital_no || `${r.invoice_code}${r.invoice_no}`;
    if (!isTickableKind(r.kind, r.digital_no) || r.buyer_mismatch || r.duplicate_of !== null) continue;
    out.known.push({ invoice_key: key, kind: r.kind, issue_date: r.issue_date, tax: Number(r.tax), amount: Number(r.amount_excl), risk_level: r.risk_level, invoice_state: r.invoice_state, registered_at: r.created_at });
    // Tolls, customs notices and the 数电 rail and air tickets (issue 29) are known to the service and wait as candidates.
    if (!TICKABLE.has(r.kind)) continue;
    if (r.verify_state !== 1 || ![0, 7].includes(r.invoice_state) || r.risk_level !== '01') continue;
    const own = periodOfDay(r.issue_date);
    const i = n++;
    let usage = 0;
    let reason: number | null = null;
    let eff = Number(r.tax);
    let tickPeriod = '';
    if (own < period) {
      // Past periods: 9 in 10 ticked in the issue month's period, 1 in 15 of them 不抵扣 (集体福利或个人消费).
      if (i % 10 === 9) continue;
      usage = i % 15 === 0 ? 4 : 1;
      reason = usage === 4 ? 3 : null;
      tickPeriod = own;
    } else {
      // The current period: about a third ticked, the rest waiting.
      if (i % 3 !== 0) continue;
      usage = i % 21 === 0 ? 2 : i % 12 === 0 ? 4 : 1;
      reason = usage === 4 ? 1 : null;
      if (usage === 1 && i % 9 === 0) eff = Math.floor(eff / 2);
      tickPeriod = period;
    }
    if (usage !== 1) eff = Number(r.tax);
    const at = new Date(Math.min(now.getTime() - 3_600_000, Date.parse(r.created_at) + 2 * DAY_MS)).toISOString();
    Object.assign(r, { vat_usage: usage, tick_state: 1, effective_tax: eff, deduct_reason: reason, tick_period: tickPeriod, ticked_at: at, ticked_by: clerk.name });
    out.ticks.push({ invoice_key: key, usage, reason, effective_tax: eff, period: tickPeriod, ticked_at: at });
    if (tickPeriod === period) {
      out.logs.push({
        id: incomeRowId(logTable, out.logs.length + 1), batch_id: incomeRowId(logTable, 0x800000 + Math.floor(out.logs.length / 5)), invoice_id: r.id, invoice_number: key, kind: r.kind,
        issue_date: r.issue_date, seller_name: r.seller_name, action: 'tick', vat_usage: usage, deduct_reason: reason, tax: Number(r.tax), effective_tax: eff, period: tickPeriod,
        result: 1, message: '勾选成功', user_id: clerk.id, user_name: clerk.name, created_at: at,
      });
    }
  }
  return out;
}

export async function seedTicks(db: Kysely<Database>, d: TickDemo): Promise<void> {
  const sdb = db.withTables<TaxsimTables>();
  for (let k = 0; k < d.known.length; k += 500) await sdb.insertInto('taxsim_income_known').values(d.known.slice(k, k + 500)).execute();
  for (let k = 0; k < d.ticks.length; k += 500) await sdb.insertInto('taxsim_income_ticks').values(d.ticks.slice(k, k + 500)).execute();
  await bulkInsert(db, 'income_tick_logs', d.logs);
}
