/**
 * The ledger's filters and sorts as SQL on `invoices as i`. The ledger lists the invoices the tax
 * service issued (they have an issue date: created, canceling, cancelled); requests and failures are
 * on the working screens. Every filter is an indexed column (migration 0004 and ./migration.ts); the buyer name's
 * "contains" uses the trigram index of migration 0013 (search.ts).
 */
import type { Kysely, SelectQueryBuilder } from 'kysely';
import { InvoiceColour, InvoiceKind, InvoiceStatus, SourceKind, type LedgerFilter } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import { sortOf } from '../../../platform/listing.js';
import { buyerNameContains, planBuyerName, type BuyerNamePlan } from './search.js';
import type { InvoiceTable } from '../tables.js';
import './tables.js';

type Q = SelectQueryBuilder<Database & { i: InvoiceTable }, 'i', object>;

/** Sort field -> column; every column is NOT NULL in the ledger, so keyset paging works on each. */
export const SORTS = {
  issueDate: 'i.issue_date',
  amountIncl: 'i.amount_incl',
  amountExcl: 'i.amount_excl',
  tax: 'i.tax',
  buyerName: 'i.buyer_name',
  invoiceNo: 'i.invoice_no',
  createdAt: 'i.created_at',
} as const;
export type SortColumn = (typeof SORTS)[keyof typeof SORTS];

export const ledgerSort = (f: Pick<LedgerFilter, 'sort'>) => sortOf(f.sort, SORTS, { column: 'i.issue_date', order: 'desc' });

export function ledgerBase(db: Kysely<Database>) {
  return db.selectFrom('invoices as i').where('i.issue_date', 'is not', null);
}

/** Filters the summary table can answer alone (day, kind, colour, status, source). */
export function onlySummaryFilters(f: LedgerFilter): boolean {
  return !f.buyerId && !f.buyerName && !f.number && !f.projectId && !f.contractId && f.amountMin === undefined && f.amountMax === undefined && !f.creator;
}

/** A filter as the repo plans it: how its buyer-name search is written (search.ts). */
export type Planned = { buyerNamePlan?: BuyerNamePlan };

/** The filter with its plan: small queries of the distinct buyer names, when it searches by buyer name. */
export async function planFilter<F extends LedgerFilter>(db: Kysely<Database>, f: F): Promise<F & Planned> {
  return f.buyerName ? { ...f, buyerNamePlan: await planBuyerName(db, f.buyerName) } : f;
}

/** Adds the filters to any query of `db` that reads `invoices as i` (with or without joins). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function applyFilters<QB extends SelectQueryBuilder<any, any, any>>(query: QB, f: LedgerFilter, db: Kysely<Database>): QB {
  let q = query as unknown as Q;
  if (f.issueFrom) q = q.where('i.issue_date', '>=', f.issueFrom);
  if (f.issueTo) q = q.where('i.issue_date', '<=', f.issueTo);
  if (f.buyerId) q = q.where('i.buyer_id', '=', f.buyerId);
  if (f.buyerName) q = q.where(buyerNameContains(f.buyerName, (f as Planned).buyerNamePlan));
  if (f.number) q = q.where((eb) => eb.or([eb('i.invoice_no', '=', f.number!), eb('i.digital_no', '=', f.number!), eb('i.order_no', '=', f.number!)]));
  if (f.status !== undefined) q = q.where('i.status', '=', f.status);
  if (f.colour !== undefined) q = q.where('i.colour', '=', f.colour);
  if (f.kind !== undefined) q = q.where('i.kind', '=', f.kind);
  if (f.source !== undefined) q = q.where('i.source', '=', f.source);
  if (f.projectId) q = q.where('i.project_id', '=', f.projectId);
  if (f.contractId) q = q.where('i.contract_id', '=', f.contractId);
  if (f.amountMin !== undefined) q = q.where('i.amount_incl', '>=', f.amountMin);
  if (f.amountMax !== undefined) q = q.where('i.amount_incl', '<=', f.amountMax);
  if (f.creator) q = q.where('i.created_by_name', '=', f.creator);
  return q as unknown as QB;
}

/** A Chinese description of the filters, for the operation log of an export or a print. */
export function describeFilters(f: LedgerFilter): string {
  const parts: string[] = [];
  if (f.issueFrom || f.issueTo) parts.push(`开票日期 ${f.issueFrom ?? '…'} 至 ${f.issueTo ?? '…'}`);
  if (f.buyerName) parts.push(`购方含「${f.buyerName}」`);
  if (f.number) parts.push(`号码 ${f.number}`);
  if (f.status !== undefined) parts.push(`状态 ${InvoiceStatus.label(f.status)}`);
  if (f.colour !== undefined) parts.push(InvoiceColour.label(f.colour));
  if (f.kind !== undefined) parts.push(`种类 ${InvoiceKind.label(f.kind)}`);
  if (f.source !== undefined) parts.push(`来源 ${SourceKind.label(f.source)}`);
  if (f.buyerId) parts.push('指定购方');
  if (f.projectId) parts.push('指定项目');
  if (f.contractId) parts.push('指定合同');
  const yuan = (v: number | undefined) => (v === undefined ? '…' : (v / 100).toFixed(2));
  if (f.amountMin !== undefined || f.amountMax !== undefined) parts.push(`价税合计 ${yuan(f.amountMin)} 至 ${yuan(f.amountMax)} 元`);
  if (f.creator) parts.push(`创建人 ${f.creator}`);
  return parts.length ? parts.join('，') : '全部';
}
