/**
 * Reading the worklist: a page of cases (open first by default order: the oldest first) with owner,
 * age and the invoice's figures; every case of a filter (the export); the cases of one invoice (the pool
 * detail's history); and the count of invoices with an open case (the badge abnormalInvoicePoolCount and
 * the role-13 reminder).
 */
import { sql, type Kysely } from 'kysely';
import type { AbnormalCaseExportQuery, AbnormalCaseQuery, AbnormalCaseRow } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import { contains, offsetOf } from '../../../platform/listing.js';
import { toTransferOut } from './transfer.js';
import './tables.js';

type Db = Kysely<Database>;
const DAY = 86_400_000;

export const ageDays = (raisedAt: string, now = Date.now()) => Math.max(0, Math.floor((now - Date.parse(raisedAt)) / DAY));

function filtered(db: Db, f: AbnormalCaseExportQuery, now = Date.now()) {
  let q = db
    .selectFrom('income_abnormal_cases as c')
    .innerJoin('income_invoices as p', 'p.id', 'c.invoice_id')
    .leftJoin('users as u', 'u.id', 'c.owner_id')
    .leftJoin('income_transfer_outs as t', 't.invoice_id', 'c.invoice_id');
  if (f.flag) q = q.where('c.flag', '=', f.flag);
  if (f.ownerId) q = q.where('c.owner_id', '=', f.ownerId);
  if (f.state) q = q.where('c.state', '=', f.state);
  if (f.ageMin !== undefined) q = q.where('c.raised_at', '<=', new Date(now - f.ageMin * DAY).toISOString());
  if (f.ageMax !== undefined) q = q.where('c.raised_at', '>', new Date(now - (f.ageMax + 1) * DAY).toISOString());
  if (f.number) q = q.where((eb) => eb.or([eb('p.invoice_no', '=', f.number!), eb('p.digital_no', '=', f.number!)]));
  if (f.sellerName) q = q.where((eb) => contains(eb.ref('p.seller_name'), f.sellerName!));
  return q;
}

const columns = [
  'c.id', 'c.invoice_id', 'c.flag', 'c.owner_id', 'c.raised_at', 'c.state', 'c.action', 'c.note', 'c.doc_flagged', 'c.resolved_by_name', 'c.resolved_at',
  'c.proposed_amount', 'c.proposed_reason', 'c.proposed_period', 'c.proposal_note', 'p.status_checked_at', 'p.risk_level',
  'p.digital_no', 'p.invoice_code', 'p.invoice_no', 'p.kind', 'p.issue_date', 'p.seller_name', 'p.amount_incl', 'p.tax', 'p.effective_tax', 'p.tick_state', 'p.vat_usage',
  'u.name as owner_name',
  't.id as t_id', 't.reason as t_reason', 't.amount as t_amount', 't.state as t_state', 't.voucher_no as t_voucher_no', 't.last_error as t_last_error', 't.attempts as t_attempts',
  't.created_by_name as t_created_by_name', 't.created_at as t_created_at', 't.pushed_at as t_pushed_at', 't.period as t_period', 't.voucher_period as t_voucher_period',
] as const;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function toRow(r: any, now = Date.now()): AbnormalCaseRow {
  return {
    id: r.id, invoiceId: r.invoice_id, invoiceNumber: r.digital_no || r.invoice_no, kind: r.kind, issueDate: r.issue_date, sellerName: r.seller_name,
    amountIncl: Number(r.amount_incl), tax: Number(r.tax), effectiveTax: r.effective_tax === null || r.effective_tax === undefined ? null : Number(r.effective_tax),
    tickState: Number(r.tick_state ?? 0), vatUsage: Number(r.vat_usage ?? 0), flag: r.flag, ownerId: r.owner_id, ownerName: r.owner_name ?? '', raisedAt: r.raised_at,
    // An open case ages until today; a resolved one stopped ageing when it was resolved.
    ageDays: ageDays(r.raised_at, r.resolved_at ? Date.parse(r.resolved_at) : now),
    state: r.state, action: r.action, note: r.note, resolvedByName: r.resolved_by_name, resolvedAt: r.resolved_at, docFlagged: r.doc_flagged,
    transferOut: r.t_id
      ? toTransferOut({ id: r.t_id, invoice_id: r.invoice_id, case_id: r.id, idem_key: null, reason: r.t_reason, amount: r.t_amount, state: r.t_state, voucher_no: r.t_voucher_no, attempts: r.t_attempts, last_error: r.t_last_error, next_try_at: '', created_by: null, created_by_name: r.t_created_by_name, created_at: r.t_created_at, pushed_at: r.t_pushed_at, period: r.t_period ?? '' , voucher_period: r.t_voucher_period ?? '' })
      : null,
    proposal: r.proposal_note || r.proposed_amount !== null
      ? { amount: r.proposed_amount === null || r.proposed_amount === undefined ? null : Number(r.proposed_amount), reason: r.proposed_reason === null || r.proposed_reason === undefined ? null : Number(r.proposed_reason), period: r.proposed_period ?? '', note: r.proposal_note ?? '' }
      : null,
    statusCheckedAt: r.status_checked_at ?? null,
    riskLevel: r.risk_level,
  };
}

export async function casePage(db: Db, q: AbnormalCaseQuery): Promise<{ items: AbnormalCaseRow[]; total: number }> {
  const now = Date.now();
  const order = q.state === 'resolved' ? 'desc' : 'asc';
  const [rows, count] = await Promise.all([
    filtered(db, q, now).select(columns).orderBy(q.state === 'resolved' ? 'c.resolved_at' : 'c.raised_at', order).orderBy('c.id').limit(q.pageSize).offset(offsetOf(q)).execute(),
    filtered(db, q, now).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map((r) => toRow(r, now)), total: Number(count.n) };
}

/** Every case of the filter, in pages of 1000 (the export; the worklist is small). */
export async function* caseBatches(db: Db, f: AbnormalCaseExportQuery, size = 1000): AsyncIterable<AbnormalCaseRow[]> {
  const now = Date.now();
  for (let offset = 0; ; offset += size) {
    const rows = await filtered(db, f, now).select(columns).orderBy('c.raised_at').orderBy('c.id').limit(size).offset(offset).execute();
    if (rows.length) yield rows.map((r) => toRow(r, now));
    if (rows.length < size) return;
  }
}

/** The cases of one invoice, newest first (the pool detail). */
export async function caseHistory(db: Db, invoiceId: string): Promise<AbnormalCaseRow[]> {
  const rows = await db
    .selectFrom('income_abnormal_cases as c')
    .innerJoin('income_invoices as p', 'p.id', 'c.invoice_id')
    .leftJoin('users as u', 'u.id', 'c.owner_id')
    .leftJoin('income_transfer_outs as t', 't.invoice_id', 'c.invoice_id')
    .select(columns)
    .where('c.invoice_id', '=', invoiceId)
    .orderBy('c.raised_at', 'desc')
    .orderBy('c.id')
    .execute();
  return rows.map((r) => toRow(r));
}

/** Invoices with an open case (the badge abnormalInvoicePoolCount and the reminder), as a query. */
export const openCaseCountQuery = (db: Db) => db.selectFrom('income_abnormal_cases').where('state', '=', 'open').select(sql<number>`count(distinct invoice_id)`.as('n'));

export async function openCaseCount(db: Db): Promise<number> {
  return Number((await openCaseCountQuery(db).executeTakeFirstOrThrow()).n);
}

export async function caseCount(db: Db, f: AbnormalCaseExportQuery): Promise<number> {
  return Number((await filtered(db, f).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);
}
