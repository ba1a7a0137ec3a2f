/** Reading: one invoice with everything about it, the badge counts, and the invoicing sync log. */
import type { Kysely } from 'kysely';
import {
  InvoiceColour,
  InvoiceKind,
  InvoiceStatus,
  RedConfirmState,
  SyncSystem,
  canAccessAny,
  capitalAmount,
  requirementForPages,
  type BillingCancellationCounts,
  type InvoiceDetail,
  type InvoiceSyncLogDetail,
  type InvoiceSyncLogQuery,
  type InvoiceSyncLogRow,
  type PageResult,
} from '@zhyy/shared';
import { countsAtOnce, type CountQuery } from '../../db/counts.js';
import type { Database } from '../../db/schema.js';
import { notFound } from '../../platform/envelope.js';
import { syncExchanges } from '../../platform/synclog-list.js';
import { base } from './lists.js';
import { toInvoiceRow, toLineRow, type InvoiceListRecord } from './mapping.js';
import { BILLING, CANCELLATION, RED, RETRY } from './paths.js';
import { openCaseCountQuery } from '../income/abnormal/queries.js';
import { POOL } from '../income/pool/access.js';
import { ENTRY } from '../income/signing/access.js';
import { signCountQuery } from '../income/pool/summary.js';
import { reimbApplyCountQuery } from '../reimbursement/accounting/queries.js';
import { PAGE as REIMB } from '../reimbursement/paths.js';

const S = InvoiceStatus;

export async function invoiceDetail(db: Kysely<Database>, id: string): Promise<InvoiceDetail> {
  const i = await base(db).selectAll('i').select(['p.name as project_name', 'c.name as contract_name']).where('i.id', '=', id).executeTakeFirst();
  if (!i) throw notFound('发票不存在');
  const [lines, files, reds, cancellations] = await Promise.all([
    db.selectFrom('invoice_lines').selectAll().where('invoice_id', '=', id).orderBy('line_no').execute(),
    db.selectFrom('invoice_files').select(['id', 'type', 'format', 'name', 'size', 'created_at']).where('invoice_id', '=', id).orderBy('created_at').execute(),
    db.selectFrom('invoices').select(['id', 'invoice_no', 'digital_no', 'amount_incl', 'status', 'issued_at']).where('blue_invoice_id', '=', id).orderBy('created_at').execute(),
    db.selectFrom('invoice_cancellations').selectAll().where('invoice_id', '=', id).orderBy('created_at', 'desc').execute(),
  ]);
  return {
    ...toInvoiceRow(i as unknown as InvoiceListRecord),
    buyerId: i.buyer_id, buyerAddress: i.buyer_address, buyerPhone: i.buyer_phone, buyerBank: i.buyer_bank, buyerAccount: i.buyer_account,
    buyerEmail: i.buyer_email, buyerMobile: i.buyer_mobile, sellerName: i.seller_name, sellerTaxNo: i.seller_tax_no, sellerAddress: i.seller_address,
    sellerPhone: i.seller_phone, sellerBank: i.seller_bank, sellerAccount: i.seller_account, projectId: i.project_id, contractId: i.contract_id,
    specialFactor: i.special_factor, constructionSite: i.construction_site, constructionProject: i.construction_project, remark: i.remark,
    clerk: i.clerk, payee: i.payee, checker: i.checker, redReason: i.red_reason, blueInvoiceId: i.blue_invoice_id, blueInvoiceNo: i.blue_invoice_no,
    capital: capitalAmount(Number(i.amount_incl)),
    lines: lines.map(toLineRow),
    files: files.map((f) => ({ id: f.id, type: f.type, format: f.format, name: f.name, size: f.size, createdAt: f.created_at })),
    reds: reds.map((r) => ({ id: r.id, invoiceNo: r.invoice_no, digitalNo: r.digital_no, amountIncl: Number(r.amount_incl), status: r.status, issuedAt: r.issued_at })),
    cancellations: cancellations.map((c) => ({ id: c.id, state: c.state, reason: c.reason, message: c.message, userName: c.user_name, createdAt: c.created_at, finishedAt: c.finished_at })),
  };
}


const ZERO: BillingCancellationCounts = {
  requestBillingCount: 0, cancellationCount: 0, requestDigitalElectricInvoiceCount: 0, redConfirmApplyCount: 0, redConfirmToConfirmCount: 0,
  invoiceRetryCreationCount: 0, reimbursementApplyCount: 0, invoiceEntrySignCount: 0, abnormalInvoicePoolCount: 0,
};
const REQ = { billing: requirementForPages([BILLING]), retry: requirementForPages([RETRY]), red: requirementForPages([RED]), cancel: requirementForPages([CANCELLATION]), pool: requirementForPages([POOL.abnormal]), sign: requirementForPages([ENTRY.sign]), reimb: requirementForPages([REIMB.apply]) };

/** The nine counts of SPEC section 3, each only for callers who may open the page it belongs to. */
export async function badgeCounts(db: Kysely<Database>, roles: readonly string[]): Promise<BillingCancellationCounts> {
  const inv = () => db.selectFrom('invoices').select((eb) => eb.fn.countAll<number>().as('n')).where('invalid', '=', 0);
  const red = () => db.selectFrom('invoice_red_confirms').select((eb) => eb.fn.countAll<number>().as('n'));
  const pending = () => inv().where('status', '=', S.none).where('colour', '=', InvoiceColour.blue);
  // Only the counts of the pages the caller sees, all in one statement (db/counts.ts).
  const counts: Partial<Record<keyof BillingCancellationCounts, CountQuery>> = {};
  if (canAccessAny([...roles], REQ.billing)) {
    counts.requestBillingCount = pending().where('kind', 'in', [InvoiceKind.c, InvoiceKind.s]);
    counts.requestDigitalElectricInvoiceCount = pending().where('kind', 'in', [InvoiceKind.bs, InvoiceKind.pc]);
  }
  if (canAccessAny([...roles], REQ.retry)) counts.invoiceRetryCreationCount = inv().where('status', 'in', [S.creationFailed, S.signFailed]);
  if (canAccessAny([...roles], REQ.cancel)) counts.cancellationCount = inv().where('status', '=', S.canceling);
  if (canAccessAny([...roles], REQ.red)) {
    counts.redConfirmApplyCount = red().where('direction', '=', 'seller').where('state', 'in', [RedConfirmState.draft, RedConfirmState.applyFailed]);
    counts.redConfirmToConfirmCount = red().where('direction', '=', 'buyer').where('state', '=', RedConfirmState.buyerAwaitingSeller);
  }
  if (canAccessAny([...roles], REQ.pool)) counts.abnormalInvoicePoolCount = openCaseCountQuery(db);
  if (canAccessAny([...roles], REQ.sign)) counts.invoiceEntrySignCount = signCountQuery(db);
  if (canAccessAny([...roles], REQ.reimb)) counts.reimbursementApplyCount = reimbApplyCountQuery(db);
  return { ...ZERO, ...(await countsAtOnce(db, counts)) };
}


/** The tax system's rows of the integrated sync log; "by invoice" means by its order or serial number (sync_log_refs). */
export async function invoiceSyncLogs(db: Kysely<Database>, q: InvoiceSyncLogQuery): Promise<PageResult<InvoiceSyncLogRow>> {
  let keys: string[] = [];
  let invoiceId: string | null = null;
  if (q.invoiceId || q.orderNo) {
    const inv = await db
      .selectFrom('invoices')
      .select(['id', 'order_no', 'serial_no'])
      .where((eb) => (q.invoiceId ? eb('id', '=', q.invoiceId) : eb('order_no', '=', q.orderNo!)))
      .executeTakeFirst();
    keys = inv ? [inv.order_no, ...(inv.serial_no ? [inv.serial_no] : [])] : [q.orderNo ?? '\u0000'];
    invoiceId = inv?.id ?? null;
  }
  // The gateway indexes each exchange by the business keys it concerns (sync_log_refs): no body search.
  const page = await syncExchanges(db, SyncSystem.tax, keys.length ? keys : null, q);
  return { items: page.items.map((r) => ({ ...r, invoiceId, orderNo: keys[0] ?? '' })), total: page.total };
}

export async function invoiceSyncLogDetail(db: Kysely<Database>, id: string): Promise<InvoiceSyncLogDetail> {
  const r = await db.selectFrom('sync_logs as s').leftJoin('users as u', 'u.id', 's.user_id').selectAll('s').select('u.name as user_name').where('s.id', '=', id).where('s.system', '=', SyncSystem.tax).executeTakeFirst();
  if (!r) throw notFound('同步记录不存在');
  const order = /KP\d{18}/.exec(`${r.request ?? ''}${r.response ?? ''}`)?.[0] ?? '';
  const inv = order ? await db.selectFrom('invoices').select('id').where('order_no', '=', order).executeTakeFirst() : undefined;
  return { id: r.id, type: r.type, status: r.status, memo: r.memo, durationMs: r.duration_ms, userName: r.user_name ?? '系统', createdAt: r.created_at, invoiceId: inv?.id ?? null, orderNo: order, request: r.request, response: r.response };
}
