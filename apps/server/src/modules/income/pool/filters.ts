/**
 * The pool's filters, sorts and abnormal flags as SQL on `income_invoices as p`. Every filter is a
 * column of the pool row (indexed where lists use it, migration 0017); names "contain", numbers match.
 * The seller name is matched among the distinct seller names (search.ts, migration 0050).
 */
import { sql, type ExpressionBuilder, type Expression, type Kysely, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { IncomeAbnormalFlag, IncomeInvoiceState, IncomeRiskLevel, IncomeVerifyState, OTHER_INCOME_KINDS, type PoolFilter } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import { contains, sortOf } from '../../../platform/listing.js';
import { planSellerName, sellerNameContains, type SellerNamePlan } from './search.js';
import type { IncomeInvoiceTable } from './tables.js';

type DB = Database & { p: IncomeInvoiceTable };
type EB = ExpressionBuilder<DB, 'p'>;
type Q = SelectQueryBuilder<DB, 'p', object>;

export const SORTS = {
  issueDate: 'p.issue_date',
  amountIncl: 'p.amount_incl',
  amountExcl: 'p.amount_excl',
  tax: 'p.tax',
  sellerName: 'p.seller_name',
  invoiceNo: 'p.invoice_no',
  createdAt: 'p.created_at',
} as const;
export const poolSort = (f: Pick<PoolFilter, 'sort'>) => sortOf(f.sort, SORTS, { column: 'p.issue_date', order: 'desc' });

const S = IncomeInvoiceState;
/** Each abnormal flag's condition (异常票池). */
export const FLAG_SQL: Record<string, (eb: EB) => Expression<SqlBool>> = {
  [IncomeAbnormalFlag.voided]: (eb) => eb('p.invoice_state', '=', S.voided),
  [IncomeAbnormalFlag.red]: (eb) => eb('p.invoice_state', 'in', [S.red, S.partRed, S.fullRed]),
  [IncomeAbnormalFlag.redPending]: (eb) => eb('p.red_pending', '=', 1),
  [IncomeAbnormalFlag.lostControl]: (eb) => eb('p.invoice_state', '=', S.lostControl),
  [IncomeAbnormalFlag.abnormalVoucher]: (eb) => eb('p.risk_level', '=', IncomeRiskLevel.abnormalVoucher),
  [IncomeAbnormalFlag.buyerNotOurs]: (eb) => eb('p.buyer_mismatch', '=', 1),
  [IncomeAbnormalFlag.duplicate]: (eb) => eb('p.duplicate_of', 'is not', null),
  [IncomeAbnormalFlag.verifyMismatch]: (eb) => eb('p.verify_state', '=', IncomeVerifyState.mismatch),
  [IncomeAbnormalFlag.suspicious]: (eb) => eb('p.risk_level', '=', IncomeRiskLevel.suspicious),
};

/** An invoice carrying any abnormal flag. */
export const isAbnormal = (eb: EB) => eb.or(Object.values(FLAG_SQL).map((f) => f(eb)));

/** The flags of one row, in the order of IncomeAbnormalFlag (the same conditions as FLAG_SQL). */
export function flagsOf(r: Pick<IncomeInvoiceTable, 'invoice_state' | 'red_pending' | 'risk_level' | 'buyer_mismatch' | 'duplicate_of' | 'verify_state'>): string[] {
  const F = IncomeAbnormalFlag;
  const on: Record<string, boolean> = {
    [F.voided]: r.invoice_state === S.voided,
    [F.red]: ([S.red, S.partRed, S.fullRed] as number[]).includes(r.invoice_state),
    [F.redPending]: Number(r.red_pending) === 1,
    [F.lostControl]: r.invoice_state === S.lostControl,
    [F.abnormalVoucher]: r.risk_level === IncomeRiskLevel.abnormalVoucher,
    [F.buyerNotOurs]: Number(r.buyer_mismatch) === 1,
    [F.duplicate]: r.duplicate_of !== null,
    [F.verifyMismatch]: r.verify_state === IncomeVerifyState.mismatch,
    [F.suspicious]: r.risk_level === IncomeRiskLevel.suspicious,
  };
  return F.values.filter((f) => on[f]);
}

export type Scope = 'all' | 'other' | 'abnormal';

/** A filter as the repo plans it: the names its seller-name search matches (search.ts). */
export type Planned = { sellerNamePlan?: SellerNamePlan };

/** The filter with its plan: one small query of the distinct seller names, when it searches by seller name. */
export async function planFilter<F extends PoolFilter>(db: Kysely<Database>, f: F): Promise<F & Planned> {
  if (!f.sellerName || (f as Planned).sellerNamePlan) return f;
  return { ...f, sellerNamePlan: await planSellerName(db, f.sellerName) };
}

/** Adds the scope and the filters to any query reading `income_invoices as p`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function applyPoolFilters<QB extends SelectQueryBuilder<any, any, any>>(query: QB, f: PoolFilter, scope: Scope): QB {
  let q = query as unknown as Q;
  if (scope === 'other') q = q.where('p.kind', 'in', OTHER_INCOME_KINDS as string[]);
  if (scope === 'abnormal') q = q.where(isAbnormal);
  if (f.kind !== undefined) q = q.where('p.kind', '=', String(f.kind));
  if (f.issueFrom) q = q.where('p.issue_date', '>=', f.issueFrom);
  if (f.issueTo) q = q.where('p.issue_date', '<=', f.issueTo);
  if (f.number) q = q.where((eb) => eb.or([eb('p.invoice_no', '=', f.number!), eb('p.digital_no', '=', f.number!), eb('p.invoice_code', '=', f.number!)]));
  if (f.invoiceCode) q = q.where('p.invoice_code', '=', f.invoiceCode);
  if (f.sellerName) q = q.where(sellerNameContains(f.sellerName, (f as Planned).sellerNamePlan));
  if (f.sellerTaxNo) q = q.where('p.seller_tax_no', '=', f.sellerTaxNo.toUpperCase());
  if (f.buyerName) q = q.where((eb) => contains(eb.ref('p.buyer_name'), f.buyerName!));
  if (f.buyerTaxNo) q = q.where('p.buyer_tax_no', '=', f.buyerTaxNo.toUpperCase());
  if (f.amountMin !== undefined) q = q.where('p.amount_incl', '>=', f.amountMin);
  if (f.amountMax !== undefined) q = q.where('p.amount_incl', '<=', f.amountMax);
  if (f.invoiceState !== undefined) q = q.where('p.invoice_state', '=', Number(f.invoiceState));
  if (f.riskLevel !== undefined) q = q.where('p.risk_level', '=', String(f.riskLevel));
  if (f.verifyState !== undefined) q = q.where('p.verify_state', '=', Number(f.verifyState));
  if (f.signState !== undefined) q = q.where('p.sign_state', '=', Number(f.signState));
  if (f.bookingState !== undefined) q = q.where('p.booking_state', '=', String(f.bookingState));
  if (f.source !== undefined) q = q.where('p.source', '=', Number(f.source));
  if (f.usage !== undefined) q = q.where('p.usage', '=', Number(f.usage));
  if (f.archiveNo) q = q.where('p.archive_no', '=', f.archiveNo);
  if (f.docNo) q = q.where('p.doc_no', '=', f.docNo);
  if (f.checkCode) q = q.where('p.check_code', '=', f.checkCode);
  if (f.abnormalFlag !== undefined && Object.hasOwn(FLAG_SQL, String(f.abnormalFlag))) q = q.where(FLAG_SQL[String(f.abnormalFlag)]!);
  return q as unknown as QB;
}

export const sumsSelect = [
  sql<number>`count(*)`.as('n'),
  sql<number>`coalesce(sum(p.amount_excl), 0)`.as('amount_excl'),
  sql<number>`coalesce(sum(p.tax), 0)`.as('tax'),
  sql<number>`coalesce(sum(p.amount_incl), 0)`.as('amount_incl'),
] as const;
