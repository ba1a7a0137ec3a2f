/**
 * What a tick or undo batch is made of: the pool invoices by id (read in slices), the ids a filter
 * selects (全选筛选结果, within TICK_MAX_INVOICES), and an invoice's number and its key and item at the
 * tax service. Shared by the batches (tick.ts, untick.ts), the call-and-restore (call.ts) and the log.
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { TICK_MAX_INVOICES, type CandidateFilter } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import type { TaxGateway, TickPeriod } from '../../../integrations/tax/index.js';
import { refuse } from '../../../platform/envelope.js';
import type { IncomeInvoiceTable } from '../pool/tables.js';
import { candidateIds } from './queries.js';
import type { TickScope } from './rules.js';
import './tables.js';

export type Db = Kysely<Database>;

/** What the batches need of the app: its database and oplog, the tax service, and the setting 先入账后勾选. */
export interface TickDeps {
  app: FastifyInstance;
  db: Db;
  gateway: () => Promise<TaxGateway>;
  bookedOnly: () => Promise<boolean>;
}

export const numberOf = (r: Pick<IncomeInvoiceTable, 'digital_no' | 'invoice_code' | 'invoice_no'>) => r.digital_no || `${r.invoice_code}${r.invoice_no}`;
/** The service's key of a pool invoice (its identity as tick-rules.ts tickKey names it). */
export const keyOf = numberOf;
export const tickKeyOf = (i: { invoiceCode: string; invoiceNo: string }) => (i.invoiceNo.length === 20 ? i.invoiceNo : `${i.invoiceCode}${i.invoiceNo}`);
export const itemOf = (r: IncomeInvoiceTable) => (r.digital_no ? { invoiceCode: '', invoiceNo: r.digital_no, issueDate: r.issue_date } : { invoiceCode: r.invoice_code, invoiceNo: r.invoice_no, issueDate: r.issue_date });

/** The pool invoices of the ids (those that exist), by id. */
export async function rowsById(db: Db, ids: readonly string[]): Promise<Map<string, IncomeInvoiceTable>> {
  const out = new Map<string, IncomeInvoiceTable>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db.selectFrom('income_invoices').selectAll().where('id', 'in', ids.slice(i, i + 500)).execute();
    for (const r of rows) out.set(r.id, r as IncomeInvoiceTable);
  }
  return out;
}

/** The ids a filter selects (not ticked for a tick, ticked for an undo), or the refusal when none or too many. */
export async function idsOfFilter(db: Db, f: CandidateFilter, scope: TickScope, p: TickPeriod, tickState: 0 | 1): Promise<string[]> {
  const ids = await candidateIds(db, { ...f, tickState }, scope, p, TICK_MAX_INVOICES);
  if (!ids.length) throw refuse(tickState === 0 ? '筛选结果中没有可勾选的发票' : '筛选结果中没有已勾选的发票');
  if (ids.length > TICK_MAX_INVOICES) throw refuse(`筛选结果超过${TICK_MAX_INVOICES}张，请缩小筛选范围后再${tickState === 0 ? '勾选' : '撤销'}`);
  return ids;
}
