/**
 * The working lists of 一键开票, 开票重试 and 税控作废: one query shape (invoices with their project
 * and contract names), each list with its tabs. Filters use indexed columns (docs/invoice.md).
 * Also what the issuing and cancellation routes share: the tab schema and the count of pending results.
 */
import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import { InvoiceColour, InvoiceKind, InvoiceStatus, type InvoiceListQuery, type InvoiceRow, type PageResult } from '@zhyy/shared';
import type { Database } from '../../db/schema.js';
import { contains, offsetOf, shanghaiDay, sortOf } from '../../platform/listing.js';
import { LIST_COLUMNS, toInvoiceRow, type InvoiceListRecord } from './mapping.js';

const S = InvoiceStatus;
const SORTS = { createdAt: 'i.created_at', updatedAt: 'i.updated_at', issuedAt: 'i.issued_at', amountIncl: 'i.amount_incl', buyerName: 'i.buyer_name', orderNo: 'i.order_no' } as const;

export type BillingTab = 'pending' | 'issuing' | 'created' | 'invalid';
export type RetryTab = 'all' | 'creationFailed' | 'signFailed';
export type CancelTab = 'candidates' | 'canceling' | 'cancelled';

/** The `tab` field of a list's query: one of `values`, the first by default. */
export const Tab = <const T extends readonly [string, ...string[]]>(values: T) => z.object({ tab: z.enum(values, { message: '列表页签不正确' }).default(values[0] as T[0] as never) as z.ZodDefault<z.ZodEnum<{ [K in T[number]]: K }>> });

/** Requests the tax service could not be reached for: not refused, they stay and are retried or refreshed. */
export const pendingOf = (results: ReadonlyArray<{ pending?: boolean }>) => results.filter((x) => x.pending).length;

/** The first day of the current month (Asia/Shanghai), YYYY-MM-DD. */
export const monthStart = (now = new Date()) => `${shanghaiDay(now).slice(0, 7)}-01`;

export function base(db: Kysely<Database>) {
  return db.selectFrom('invoices as i').leftJoin('projects as p', 'p.id', 'i.project_id').leftJoin('contracts as c', 'c.id', 'i.contract_id');
}
type Q = ReturnType<typeof base>;

function filtered(q: Q, f: InvoiceListQuery): Q {
  if (f.keyword) q = q.where((eb) => eb.or([contains(eb.ref('i.buyer_name'), f.keyword!), contains(eb.ref('i.order_no'), f.keyword!), contains(eb.ref('i.invoice_no'), f.keyword!)]));
  if (f.buyerName) q = q.where((eb) => contains(eb.ref('i.buyer_name'), f.buyerName!));
  if (f.orderNo) q = q.where('i.order_no', '=', f.orderNo);
  if (f.invoiceNo) q = q.where((eb) => eb.or([eb('i.invoice_no', '=', f.invoiceNo!), eb('i.digital_no', '=', f.invoiceNo!)]));
  if (f.kind) q = q.where('i.kind', '=', f.kind);
  if (f.status !== undefined) q = q.where('i.status', '=', f.status);
  if (f.source !== undefined) q = q.where('i.source', '=', f.source);
  if (f.projectId) q = q.where('i.project_id', '=', f.projectId);
  if (f.contractId) q = q.where('i.contract_id', '=', f.contractId);
  if (f.from) q = q.where('i.created_at', '>=', f.from);
  if (f.to) q = q.where('i.created_at', '<', f.to);
  return q;
}

export function billingScope(q: Q, tab: BillingTab): Q {
  if (tab === 'invalid') return q.where('i.invalid', '=', 1);
  q = q.where('i.invalid', '=', 0).where('i.colour', '=', InvoiceColour.blue);
  if (tab === 'pending') return q.where('i.status', '=', S.none);
  if (tab === 'issuing') return q.where('i.status', 'in', [S.creating, S.signing]);
  return q.where('i.status', '=', S.created);
}

export function retryScope(q: Q, tab: RetryTab): Q {
  q = q.where('i.invalid', '=', 0);
  if (tab === 'creationFailed') return q.where('i.status', '=', S.creationFailed);
  if (tab === 'signFailed') return q.where('i.status', '=', S.signFailed);
  return q.where('i.status', 'in', [S.creationFailed, S.signFailed]);
}

/** Paper / 税控 blue invoices issued this month, created and not reversed by a red invoice. */
export function cancelScope(q: Q, tab: CancelTab, now = new Date()): Q {
  q = q.where('i.kind', 'in', [InvoiceKind.c, InvoiceKind.s]).where('i.colour', '=', InvoiceColour.blue);
  if (tab === 'canceling') return q.where('i.status', '=', S.canceling);
  if (tab === 'cancelled') return q.where('i.status', '=', S.cancelled);
  return q
    .where('i.status', '=', S.created)
    .where('i.issue_date', '>=', monthStart(now))
    .where((eb) => eb.not(eb.exists(eb.selectFrom('invoices as r').select('r.id').whereRef('r.blue_invoice_id', '=', 'i.id').where('r.status', 'not in', [S.cancelled]))));
}

export async function page(db: Kysely<Database>, f: InvoiceListQuery, scope: (q: Q) => Q, fallback: keyof typeof SORTS = 'updatedAt'): Promise<PageResult<InvoiceRow> & { totals: { amountIncl: number; tax: number } }> {
  const q = scope(filtered(base(db), f));
  const s = sortOf(f.sort, SORTS, { column: SORTS[fallback], order: 'desc' });
  const [rows, agg] = await Promise.all([
    q.select([...LIST_COLUMNS]).orderBy(s.column, s.order).orderBy('i.id', 'desc').limit(f.pageSize).offset(offsetOf(f)).execute(),
    q.select([sql<number>`count(*)`.as('n'), sql<number>`coalesce(sum(i.amount_incl), 0)`.as('amount'), sql<number>`coalesce(sum(i.tax), 0)`.as('tax')]).executeTakeFirstOrThrow(),
  ]);
  return { items: (rows as InvoiceListRecord[]).map(toInvoiceRow), total: Number(agg.n), totals: { amountIncl: Number(agg.amount), tax: Number(agg.tax) } };
}
