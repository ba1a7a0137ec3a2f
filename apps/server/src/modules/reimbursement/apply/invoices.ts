/**
 * The invoices behind a bill's lines (issue 15): which pool invoices a person may pick (their own
 * uploads, their passenger tickets), what a line shows of its invoice, and the usage lock of the pool
 * (income/identity/locks.ts, use kind 'reimbursement', document = the bill number) taken and released for the whole
 * bill in the caller's transaction (accounting/service.ts closes and reopens them on a push and a revoke).
 */
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { IncomeBookingState, IncomeInvoiceState, IncomeSignDocType, IncomeSignState, IncomeSource, IncomeUsage, IncomeUseKind, ticketDeduction, type ReimbCandidate, type ReimbInvoiceInfo, type TransportKindCode } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import { notFound, refuse } from '../../../platform/envelope.js';
import { lock, RED_NOT_CLAIMABLE, release } from '../../income/identity/locks.js';
import '../../income/signing/tables.js';
import '../../income/pool/tables.js';
import '../../income/transport/tables.js';
import '../tables.js';

type Db = Kysely<Database>;

export const REIMB_USE = 'reimbursement' as const;
const use = (billNo: string) => ({ kind: REIMB_USE, docNo: billNo });
export const DEAD_STATES: number[] = [IncomeInvoiceState.voided, IncomeInvoiceState.red, IncomeInvoiceState.fullRed];
/** Special VAT invoices whose tax is recoverable as printed (专票, 电子专票, 数电专票, 数电纸质专票). */
const SPECIAL_KINDS = ['01', '08', '81', '85'];

export const displayNumber = (i: { digital_no: string; invoice_code: string; invoice_no: string }) => i.digital_no || `${i.invoice_code}${i.invoice_code ? ' ' : ''}${i.invoice_no}`;

/** The invoices the bill holds now (locked by its number). */
async function heldBy(trx: Db, billNo: string): Promise<string[]> {
  const rows = await trx.selectFrom('income_invoices').select('id').where('use_kind', '=', REIMB_USE).where('doc_no', '=', billNo).where('usage', '=', IncomeUsage.locked).execute();
  return rows.map((r) => r.id);
}

/**
 * Makes the bill hold exactly `invoiceIds`: releases what it holds besides them and locks them (a
 * no-op for those it holds already). An invoice another document holds refuses the whole save with
 * 该发票已用于报销单 BX… (the lock's message).
 */
export async function syncBillLocks(trx: Db, billNo: string, invoiceIds: readonly string[], userName: string): Promise<void> {
  const want = new Set(invoiceIds);
  for (const id of await heldBy(trx, billNo)) if (!want.has(id)) await release(id, use(billNo), trx, userName);
  for (const id of [...want].sort()) await lock(id, use(billNo), trx, userName);
}

/** Withdrawn, returned or deleted: every invoice the bill holds goes back to the pool. */
export async function releaseBillInvoices(trx: Db, billNo: string, userName = ''): Promise<number> {
  const ids = await heldBy(trx, billNo);
  for (const id of ids) await release(id, use(billNo), trx, userName);
  return ids.length;
}

/** Signed into another process (签收中, 已签收) and booked (已入账): the invoice is the company's, in that process. */
const SIGNED: number[] = [IncomeSignState.applying, IncomeSignState.signed];
const BOOKED: string[] = [IncomeBookingState.bookedDeduct, IncomeBookingState.bookedNoDeduct];

/**
 * Who may claim a pool invoice for a reimbursement (issue 27; docs/reimbursement.md "Whose invoice it is").
 * Holding a copy is not owning: a file merged into an invoice gives its uploader nothing.
 * - a ticket issued to a person (a passenger ticket with the traveller's name): that person only;
 * - any other invoice: the person who put it in the pool by uploading it (source 上传, created_by); an
 *   invoice the company collected, scanned or entered (its purchases) is nobody's to reimburse;
 * - never one signed into another process (签收中, 已签收) or booked (已入账).
 * The usage lock (another bill, a signing: 该发票已用于报销单 BX…) and the dead states are lock()'s refusals.
 * The SQL form serves the candidates and the file reading; `claimRefusal` says why not, naming the holder.
 */
export function claimableCondition(userId: string, userName: string) {
  return sql<boolean>`(i.sign_state not in (${sql.join(SIGNED)})
    and i.booking_state not in (${sql.join(BOOKED)})
    and (exists (select 1 from income_transport t where t.invoice_id = i.id and t.passenger_name = ${userName})
      or (i.source = ${IncomeSource.uploaded} and i.created_by = ${userId}
        and not exists (select 1 from income_transport t where t.invoice_id = i.id and t.passenger_name <> ''))))`;
}

/** Why `user` may not claim the invoice, naming who or what holds it; null when they may. */
export async function claimRefusal(db: Db, user: { id: string; name: string }, invoiceId: string): Promise<string | null> {
  const i = await db
    .selectFrom('income_invoices as i')
    .leftJoin('income_transport as t', 't.invoice_id', 'i.id')
    .leftJoin('users as u', 'u.id', 'i.created_by')
    .select(['i.id', 'i.digital_no', 'i.invoice_code', 'i.invoice_no', 'i.sign_state', 'i.booking_state', 'i.source', 'i.created_by', 't.passenger_name', 'u.name as uploader'])
    .where('i.id', '=', invoiceId)
    .executeTakeFirst();
  if (!i) return '发票不存在';
  const no = displayNumber(i);
  if (SIGNED.includes(i.sign_state)) {
    const g = await db.selectFrom('income_signings').select(['doc_type', 'doc_no', 'user_name']).where('invoice_id', '=', i.id).orderBy('created_at', 'desc').executeTakeFirst();
    return `发票 ${no} 已${IncomeSignState.label(i.sign_state)}${g ? `至${IncomeSignDocType.label(g.doc_type) ?? ''} ${g.doc_no}（签收人${g.user_name}）` : ''}，不能报销`;
  }
  if (BOOKED.includes(i.booking_state)) return `发票 ${no} ${IncomeBookingState.label(i.booking_state)}，不能报销`;
  const passenger = i.passenger_name ?? '';
  if (passenger) return passenger === user.name ? null : `发票 ${no} 是${passenger}的客票，只能由乘车（机）人本人报销`;
  if (i.source !== IncomeSource.uploaded) return `发票 ${no} 是公司${IncomeSource.label(i.source) ?? ''}的进项发票，不是本人上传的发票，不能报销`;
  if (i.created_by !== user.id) return `发票 ${no} 由${i.uploader ?? '他人'}上传，只能由上传人报销`;
  return null;
}

/** Refuses (30000) the first line whose invoice `user` may not claim for the bill, with the line and the holder. */
export async function mustClaim(db: Db, user: { id: string; name: string }, lines: ReadonlyArray<{ lineNo: number; invoiceId: string | null }>): Promise<void> {
  for (const l of lines) {
    if (!l.invoiceId) continue;
    const why = await claimRefusal(db, user, l.invoiceId);
    if (why === '发票不存在') throw notFound(why);
    if (why) throw refuse(`第${l.lineNo}行：${why}`);
  }
}

const invoiceColumns = [
  'i.id', 'i.kind', 'i.invoice_code', 'i.invoice_no', 'i.digital_no', 'i.issue_date', 'i.seller_name', 'i.seller_tax_no', 'i.buyer_name', 'i.amount_excl', 'i.tax',
  'i.amount_incl', 'i.invoice_state', 'i.risk_level', 'i.buyer_mismatch', 'i.usage', 'i.use_kind', 'i.doc_no', 'i.created_by',
  't.transport_kind', 't.passenger_name', 't.international', 't.basis',
] as const;

function baseQuery(db: Db) {
  return db.selectFrom('income_invoices as i').leftJoin('income_transport as t', 't.invoice_id', 'i.id').select([...invoiceColumns]);
}
type InvoiceRow = Awaited<ReturnType<ReturnType<typeof baseQuery>['executeTakeFirstOrThrow']>>;

/** A passenger ticket's deductible tax by the shared transport formulas (reimbursed: it backs this line). */
export function transportTax(r: InvoiceRow): number | null {
  if (!r.transport_kind) return null;
  return ticketDeduction({
    kind: r.transport_kind as TransportKindCode,
    basis: Number(r.basis ?? 0),
    passengerName: r.passenger_name ?? '',
    international: Number(r.international ?? 0) === 1,
    reimbursed: true,
    invoiceState: r.invoice_state,
    riskLevel: r.risk_level,
  }).tax;
}

/** The recoverable tax of a line backed by an invoice: a ticket by the formulas, a special invoice its tax (at most the line's). */
export function deductibleOf(r: InvoiceRow | undefined, lineTax: number): number {
  if (!r) return 0;
  const t = transportTax(r);
  if (t !== null) return t;
  if (SPECIAL_KINDS.includes(r.kind)) return Math.min(lineTax, Number(r.tax));
  return 0;
}

export async function invoiceRows(db: Db, ids: readonly string[]): Promise<Map<string, InvoiceRow>> {
  if (ids.length === 0) return new Map();
  const rows = await baseQuery(db).where('i.id', 'in', [...ids]).execute();
  return new Map(rows.map((r) => [r.id, r]));
}

export async function invoiceInfos(db: Db, ids: readonly string[]): Promise<Map<string, ReimbInvoiceInfo>> {
  const rows = await invoiceRows(db, ids);
  const files = ids.length ? await db.selectFrom('income_files').select(['id', 'invoice_id', 'name', 'format']).where('invoice_id', 'in', [...ids]).orderBy('created_at').execute() : [];
  const out = new Map<string, ReimbInvoiceInfo>();
  for (const r of rows.values()) out.set(r.id, infoOf(r, files.filter((f) => f.invoice_id === r.id)));
  return out;
}

function infoOf(r: InvoiceRow, files: Array<{ id: string; name: string; format: string }>): ReimbInvoiceInfo {
  return {
    id: r.id,
    number: displayNumber(r),
    kind: r.kind,
    issueDate: r.issue_date,
    sellerName: r.seller_name,
    buyerName: r.buyer_name,
    amountExcl: Number(r.amount_excl),
    tax: Number(r.tax),
    amountIncl: Number(r.amount_incl),
    invoiceState: r.invoice_state,
    buyerMismatch: r.buyer_mismatch === 1,
    usage: r.usage,
    docNo: r.doc_no,
    passengerName: r.passenger_name ?? '',
    transportTax: transportTax(r),
    files: files.map((f) => ({ id: f.id, name: f.name, format: f.format })),
  };
}

/**
 * The pool invoices a person may put on a bill: their own uploads and the passenger tickets in their
 * name, usable (available, or held by this same bill), not dead.
 */
export async function candidates(db: Db, user: { id: string; name: string }, billNo: string | null, keyword?: string, invoiceId?: string): Promise<ReimbCandidate[]> {
  if (invoiceId) {
    const one = await candidateQuery(db, user, billNo).where('i.id', '=', invoiceId).execute();
    if (one.length === 0) throw await pickRefusal(db, user, billNo, invoiceId);
    return withFiles(db, user, one);
  }
  let q = candidateQuery(db, user, billNo);
  if (keyword) {
    const k = `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) => eb.or([sql<boolean>`i.digital_no like ${k} escape '\\'`, sql<boolean>`i.invoice_no like ${k} escape '\\'`, sql<boolean>`i.seller_name like ${k} escape '\\'`]));
  }
  return withFiles(db, user, await q.orderBy('i.issue_date', 'desc').orderBy('i.id').limit(200).execute());
}

function candidateQuery(db: Db, user: { id: string; name: string }, billNo: string | null) {
  return baseQuery(db)
    .where(claimableCondition(user.id, user.name))
    .where('i.invoice_state', 'not in', DEAD_STATES)
    .where('i.amount_incl', '>=', 0) // a red invoice received backs no claim (locks.ts RED_NOT_CLAIMABLE)
    .where((eb) =>
      billNo
        ? eb.or([eb('i.usage', '=', IncomeUsage.available), eb.and([eb('i.usage', '=', IncomeUsage.locked), eb('i.use_kind', '=', REIMB_USE), eb('i.doc_no', '=', billNo)])])
        : eb('i.usage', '=', IncomeUsage.available),
    );
}

async function withFiles(db: Db, user: { id: string; name: string }, rows: InvoiceRow[]): Promise<ReimbCandidate[]> {
  const ids = rows.map((r) => r.id);
  const files = ids.length ? await db.selectFrom('income_files').select(['id', 'invoice_id', 'name', 'format']).where('invoice_id', 'in', ids).execute() : [];
  return rows.map((r) => ({ ...infoOf(r, files.filter((f) => f.invoice_id === r.id)), origin: r.passenger_name === user.name && r.transport_kind ? '我的客票' : '我上传的' }));
}

/**
 * Why an invoice may not be picked for this bill, in the words the employee needs (issue 31: the picker
 * said "已被其他单据占用或状态异常" of a free invoice it had merely not found under line 1's search):
 * dead (作废, 红冲), held or used by another document (which one), or neither uploaded by them nor
 * their passenger ticket.
 */
async function pickRefusal(db: Db, user: { id: string; name: string }, billNo: string | null, invoiceId: string): Promise<Error> {
  const r = await db.selectFrom('income_invoices as i').select(['i.id', 'i.invoice_state', 'i.usage', 'i.use_kind', 'i.doc_no', 'i.amount_incl']).where('i.id', '=', invoiceId).executeTakeFirst();
  if (!r) return notFound('发票不存在');
  if (Number(r.amount_incl) < 0) return refuse(RED_NOT_CLAIMABLE);
  if (DEAD_STATES.includes(r.invoice_state)) return refuse(`该发票${IncomeInvoiceState.label(r.invoice_state)}，不能用于报销`);
  // Whose it is (issue 27): signed, booked, someone else's ticket or upload, the company's purchase.
  const why = await claimRefusal(db, user, invoiceId);
  if (why) return refuse(why);
  if (r.usage === IncomeUsage.closed) return refuse(`该发票已随${IncomeUseKind.label(r.use_kind)} ${r.doc_no} 完成使用，不能再用于报销`);
  if (r.usage !== IncomeUsage.available && !(r.use_kind === REIMB_USE && r.doc_no === billNo)) return refuse(`该发票已用于${IncomeUseKind.label(r.use_kind)} ${r.doc_no}`);
  return refuse('该发票当前不能用于报销，请稍后再试');
}
