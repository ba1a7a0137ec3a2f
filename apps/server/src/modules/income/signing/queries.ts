/**
 * Reading the signing pages: the invoices waiting to be signed (invoice-entry/list, the badge
 * invoiceEntrySignCount, dept/sign for the caller's department), the signing records (sign/list), the
 * revocations (revoke/list) and one invoice with its signings, revocations, allocations and changes.
 *
 * Waiting = not signed (0) or failed (2, to be signed again), not held by any document (usage 0), in
 * force (not voided or red-reversed: 2, 3, 8) and bought by the company (not flagged 购方非本公司).
 */
import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import { IncomeInvoiceState, IncomeSignState as S, IncomeUsage, type EntryDetail, type EntryQuery, type PoolPage, type RevokeQuery, type RevokeRow, type SigningQuery, type SigningRow } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import { offsetOf } from '../../../platform/listing.js';
import { shanghaiDayStartIso } from '../../../platform/time.js';
import { applyPoolFilters, poolSort, sumsSelect } from '../pool/filters.js';
import { poolDetail, toPoolRow } from '../pool/repo.js';
import { signCountQuery, summaryAnswers, summaryTotals } from '../pool/summary.js';
import { allocationRows, changePage } from './apportion.js';
import './tables.js';

type Db = Kysely<Database>;
type EB = ExpressionBuilder<Database & { p: Database['income_invoices'] }, 'p'>;

export const waiting = (eb: EB) =>
  eb.and([
    eb('p.sign_state', 'in', [S.unsigned, S.failed]),
    eb('p.usage', '=', IncomeUsage.available),
    eb('p.invoice_state', 'not in', [IncomeInvoiceState.voided, IncomeInvoiceState.red, IncomeInvoiceState.fullRed]),
    eb('p.buyer_mismatch', '=', 0),
  ]);

export function waitingBase(db: Db, deptId: string | null | undefined) {
  let q = db.selectFrom('income_invoices as p').where(waiting);
  if (deptId !== undefined) q = q.where('p.id', 'in', db.selectFrom('income_invoice_depts').select('invoice_id').where('dept_id', '=', deptId ?? '\u0000'));
  return q;
}

/** invoice-entry/list (deptId undefined) and dept/sign (the caller's department; none: nothing). */
export async function waitingPage(db: Db, q: EntryQuery, deptId?: string | null): Promise<PoolPage> {
  const s = poolSort(q);
  const [rows, totals] = await Promise.all([
    applyPoolFilters(waitingBase(db, deptId), q, 'all').selectAll('p').orderBy(s.column, s.order).orderBy('p.id', s.order).limit(q.pageSize).offset(offsetOf(q)).execute(),
    // The whole company's waiting list with summarised filters only: the pool summary (summary.ts).
    deptId === undefined && summaryAnswers(q, 'waiting')
      ? summaryTotals(db, q, 'waiting')
      : applyPoolFilters(waitingBase(db, deptId), q, 'all')
          .select(sumsSelect)
          .executeTakeFirstOrThrow()
          .then((t) => ({ count: Number(t.n), amountExcl: Number(t.amount_excl), tax: Number(t.tax), amountIncl: Number(t.amount_incl) })),
  ]);
  return { items: rows.map(toPoolRow), total: totals.count, totals };
}

/** The badge invoiceEntrySignCount. */
export async function signCount(db: Db): Promise<number> {
  return Number((await signCountQuery(db).executeTakeFirstOrThrow()).n);
}

export const signingSelect = (db: Db) =>
  db
    .selectFrom('income_signings as s')
    .innerJoin('income_invoices as p', 'p.id', 's.invoice_id')
    .select(['s.id', 's.invoice_id', 's.doc_type', 's.doc_no', 's.note', 's.state', 's.archive_no', 's.voucher_id', 's.fail_reason', 's.user_name', 's.created_at', 's.finished_at', 'p.digital_no', 'p.invoice_no', 'p.seller_name', 'p.issue_date', 'p.amount_incl']);
type SigningRec = Awaited<ReturnType<ReturnType<typeof signingSelect>['execute']>>[number];
export const toSigning = (r: SigningRec): SigningRow => ({
  id: r.id, invoiceId: r.invoice_id, invoiceNo: r.digital_no || r.invoice_no, sellerName: r.seller_name, issueDate: r.issue_date, amountIncl: Number(r.amount_incl),
  docType: r.doc_type, docNo: r.doc_no, note: r.note, state: r.state, archiveNo: r.archive_no, voucherId: r.voucher_id, failReason: r.fail_reason,
  userName: r.user_name, createdAt: r.created_at, finishedAt: r.finished_at,
});

/** The signings of a filter (joined to their invoices), for the page, its count and the export. */
export function signingFiltered(db: Db, q: Omit<SigningQuery, 'pageIndex' | 'pageSize'>) {
  let b = db.selectFrom('income_signings as s').innerJoin('income_invoices as p', 'p.id', 's.invoice_id');
  if (q.state) b = b.where('s.state', '=', String(q.state));
  if (q.docType) b = b.where('s.doc_type', '=', String(q.docType));
  if (q.docNo) b = b.where('s.doc_no', '=', q.docNo);
  if (q.archiveNo) b = b.where('s.archive_no', '=', q.archiveNo);
  if (q.invoiceId) b = b.where('s.invoice_id', '=', q.invoiceId);
  if (q.number) b = b.where((eb) => eb.or([eb('p.invoice_no', '=', q.number!), eb('p.digital_no', '=', q.number!)]));
  if (q.from) b = b.where('s.created_at', '>=', shanghaiDayStartIso(q.from));
  if (q.to) b = b.where('s.created_at', '<', shanghaiDayStartIso(q.to, 1));
  return b;
}

export async function signingPage(db: Db, q: SigningQuery): Promise<{ items: SigningRow[]; total: number }> {
  const b = signingFiltered(db, q);
  const ids = b.select('s.id');
  const [rows, n] = await Promise.all([
    signingSelect(db).where('s.id', 'in', ids).orderBy('s.created_at', 'desc').orderBy('s.id', 'desc').limit(q.pageSize).offset(offsetOf(q)).execute(),
    b.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toSigning), total: Number(n.n) };
}

const revokeSelect = (db: Db) =>
  db
    .selectFrom('income_sign_revokes as r')
    .innerJoin('income_signings as s', 's.id', 'r.signing_id')
    .innerJoin('income_invoices as p', 'p.id', 'r.invoice_id')
    .select(['r.id', 'r.invoice_id', 'r.archive_no', 'r.reason', 'r.user_name', 'r.created_at', 's.doc_type', 's.doc_no', 'p.digital_no', 'p.invoice_no', 'p.seller_name', 'p.amount_incl']);
type RevokeRec = Awaited<ReturnType<ReturnType<typeof revokeSelect>['execute']>>[number];
export const toRevoke = (r: RevokeRec): RevokeRow => ({
  id: r.id, invoiceId: r.invoice_id, invoiceNo: r.digital_no || r.invoice_no, sellerName: r.seller_name, amountIncl: Number(r.amount_incl),
  archiveNo: r.archive_no, docType: r.doc_type, docNo: r.doc_no, reason: r.reason, userName: r.user_name, createdAt: r.created_at,
});

/** The revocations of a filter, for the page, its count and the export. */
export function revokeFiltered(db: Db, q: Omit<RevokeQuery, 'pageIndex' | 'pageSize'>) {
  let b = revokeSelect(db);
  if (q.archiveNo) b = b.where('r.archive_no', '=', q.archiveNo);
  if (q.number) b = b.where((eb) => eb.or([eb('p.invoice_no', '=', q.number!), eb('p.digital_no', '=', q.number!)]));
  if (q.from) b = b.where('r.created_at', '>=', shanghaiDayStartIso(q.from));
  if (q.to) b = b.where('r.created_at', '<', shanghaiDayStartIso(q.to, 1));
  return b;
}

export async function revokePage(db: Db, q: RevokeQuery): Promise<{ items: RevokeRow[]; total: number }> {
  const b = revokeFiltered(db, q);
  const [rows, n] = await Promise.all([
    b.orderBy('r.created_at', 'desc').orderBy('r.id', 'desc').limit(q.pageSize).offset(offsetOf(q)).execute(),
    b.clearSelect().select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toRevoke), total: Number(n.n) };
}

export async function entryDetail(db: Db, id: string): Promise<EntryDetail> {
  const base = await poolDetail(db, id);
  const [dept, signings, revokes, allocations, changes] = await Promise.all([
    db.selectFrom('income_invoice_depts as d').leftJoin('departments as x', 'x.id', 'd.dept_id').select(['d.dept_id', 'x.name']).where('d.invoice_id', '=', id).executeTakeFirst(),
    signingSelect(db).where('s.invoice_id', '=', id).orderBy('s.created_at', 'desc').orderBy('s.id', 'desc').execute(),
    revokeSelect(db).where('r.invoice_id', '=', id).orderBy('r.created_at', 'desc').execute(),
    allocationRows(db, id),
    changePage(db, { invoiceId: id, pageIndex: 1, pageSize: 200 }),
  ]);
  return { ...base, deptId: dept?.dept_id ?? null, deptName: dept?.name ?? '', signings: signings.map(toSigning), revokes: revokes.map(toRevoke), allocations, changes: changes.items };
}

