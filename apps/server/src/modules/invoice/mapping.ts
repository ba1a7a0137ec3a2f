/** Rows of the invoice tables → the answers of the calls (packages/shared/src/invoice-types.ts). */
import type { InvoiceLineRow, InvoiceRow } from '@zhyy/shared';
import type { InvoiceLineTable, InvoiceTable } from './tables.js';

export type InvoiceListRecord = Pick<
  InvoiceTable,
  | 'id' | 'order_no' | 'serial_no' | 'kind' | 'colour' | 'status' | 'source' | 'request_work_id' | 'buyer_name' | 'buyer_tax_no'
  | 'amount_excl' | 'tax' | 'amount_incl' | 'invoice_no' | 'digital_no' | 'issued_at' | 'failure_cause' | 'invalid' | 'invalid_reason'
  | 'retry_count' | 'created_by_name' | 'created_at' | 'updated_at'
> & { project_name: string | null; contract_name: string | null };

/** The columns a list selects (invoices as i, projects as p, contracts as c). */
export const LIST_COLUMNS = [
  'i.id', 'i.order_no', 'i.serial_no', 'i.kind', 'i.colour', 'i.status', 'i.source', 'i.request_work_id', 'i.buyer_name', 'i.buyer_tax_no',
  'i.amount_excl', 'i.tax', 'i.amount_incl', 'i.invoice_no', 'i.digital_no', 'i.issued_at', 'i.failure_cause', 'i.invalid', 'i.invalid_reason',
  'i.retry_count', 'i.created_by_name', 'i.created_at', 'i.updated_at', 'p.name as project_name', 'c.name as contract_name',
] as const;

export function toInvoiceRow(r: InvoiceListRecord): InvoiceRow {
  return {
    id: r.id,
    orderNo: r.order_no,
    serialNo: r.serial_no ?? '',
    kind: r.kind,
    colour: r.colour,
    status: r.status,
    source: r.source,
    requestWorkId: r.request_work_id === null ? null : Number(r.request_work_id),
    buyerName: r.buyer_name,
    buyerTaxNo: r.buyer_tax_no,
    projectName: r.project_name ?? '',
    contractName: r.contract_name ?? '',
    amountExcl: Number(r.amount_excl),
    tax: Number(r.tax),
    amountIncl: Number(r.amount_incl),
    invoiceNo: r.invoice_no,
    digitalNo: r.digital_no,
    issuedAt: r.issued_at,
    failureCause: r.failure_cause,
    invalid: r.invalid === 1,
    invalidReason: r.invalid_reason,
    retryCount: r.retry_count,
    createdByName: r.created_by_name,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export function toLineRow(l: InvoiceLineTable): InvoiceLineRow {
  return {
    lineNo: l.line_no,
    goodsName: l.goods_name,
    taxCode: l.tax_code,
    spec: l.spec,
    unit: l.unit,
    quantity: l.quantity,
    unitPrice: l.unit_price,
    priceIncludesTax: l.price_includes_tax === 1,
    taxRate: l.tax_rate,
    policy: l.policy,
    lineProperty: l.line_property,
    amountExcl: Number(l.amount_excl),
    tax: Number(l.tax),
    amountIncl: Number(l.amount_incl),
  };
}

export function lineValues(invoiceId: string, lines: readonly InvoiceLineRow[], newId: () => string): InvoiceLineTable[] {
  return lines.map((l, i) => ({
    id: newId(),
    invoice_id: invoiceId,
    line_no: i + 1,
    goods_name: l.goodsName,
    tax_code: l.taxCode,
    spec: l.spec,
    unit: l.unit,
    quantity: l.quantity,
    unit_price: l.unitPrice,
    price_includes_tax: l.priceIncludesTax ? 1 : 0,
    tax_rate: l.taxRate,
    policy: l.policy,
    line_property: l.lineProperty,
    amount_excl: l.amountExcl,
    tax: l.tax,
    amount_incl: l.amountIncl,
  }));
}

/** A new order number: KP + yyMMddHHmmss (Asia/Shanghai) + 6 random digits — 20 characters, Nuonuo's limit. */
export function newOrderNo(prefix = 'KP', at = new Date()): string {
  const t = new Date(at.getTime() + 8 * 3600_000).toISOString();
  const stamp = t.slice(2, 4) + t.slice(5, 7) + t.slice(8, 10) + t.slice(11, 13) + t.slice(14, 16) + t.slice(17, 19);
  const rand = String(Math.floor(Math.random() * 1e6)).padStart(6, '0');
  return `${prefix}${stamp}${rand}`;
}

export const shanghaiDate = (iso: string) => new Date(Date.parse(iso) + 8 * 3600_000).toISOString().slice(0, 10);
