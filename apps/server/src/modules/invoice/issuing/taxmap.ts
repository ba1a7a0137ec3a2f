/** Our invoice rows ↔ the tax gateway's shapes (integrations/tax/types.ts). */
import type { Kysely } from 'kysely';
import { AttachmentType, TaxPolicy } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import type { PolicyFlag, TaxInvoiceRequest, TaxInvoiceResult } from '../../../integrations/tax/index.js';
import type { InvoiceLineTable, InvoiceTable } from '../tables.js';
import { storeFile } from '../files/service.js';

const POLICY: Record<number, PolicyFlag> = {
  [TaxPolicy.none]: 'none',
  [TaxPolicy.exempt]: 'exempt',
  [TaxPolicy.notTaxable]: 'nonTaxable',
  [TaxPolicy.zeroRate]: 'none',
  [TaxPolicy.simplified]: 'simplified',
};

const opt = (v: string) => (v ? v : undefined);

export function toTaxRequest(i: InvoiceTable, lines: readonly InvoiceLineTable[]): TaxInvoiceRequest {
  return {
    orderNo: i.order_no,
    kind: i.kind as TaxInvoiceRequest['kind'],
    colour: i.colour as TaxInvoiceRequest['colour'],
    buyer: {
      name: i.buyer_name,
      taxNumber: opt(i.buyer_tax_no),
      address: opt(i.buyer_address),
      phone: opt(i.buyer_phone),
      bankName: opt(i.buyer_bank),
      bankAccount: opt(i.buyer_account),
      email: opt(i.buyer_email),
      mobile: opt(i.buyer_mobile),
    },
    seller: {
      name: i.seller_name,
      taxNumber: i.seller_tax_no,
      address: opt(i.seller_address),
      phone: opt(i.seller_phone),
      bankName: opt(i.seller_bank),
      bankAccount: opt(i.seller_account),
    },
    clerk: i.clerk || '开票员',
    payee: opt(i.payee),
    checker: opt(i.checker),
    remark: opt(i.remark),
    specialFactor: i.special_factor as TaxInvoiceRequest['specialFactor'],
    projectName: opt(i.construction_project),
    projectSite: opt(i.construction_site),
    redReason: (i.red_reason ?? undefined) as TaxInvoiceRequest['redReason'],
    blueInvoiceNo: opt(i.blue_invoice_no),
    lines: lines.map((l) => ({
      goodsName: l.goods_name,
      taxCode: l.tax_code,
      spec: opt(l.spec),
      unit: opt(l.unit),
      quantity: opt(l.quantity),
      unitPrice: opt(l.unit_price),
      priceIncludesTax: l.price_includes_tax === 1,
      taxRate: l.tax_rate,
      amountExcludingTax: Number(l.amount_excl),
      tax: Number(l.tax),
      amountIncludingTax: Number(l.amount_incl),
      lineProperty: l.line_property as 0 | 1 | 2,
      policyFlag: POLICY[l.policy] ?? 'none',
    })),
  };
}

/** 'YYYY-MM-DD HH:mm:ss' in Asia/Shanghai (as the service reports it) → ISO UTC. */
export function shanghaiToIso(s: string | undefined, fallback: string): string {
  if (!s) return fallback;
  const t = Date.parse(`${s.trim().replace(' ', 'T')}+08:00`);
  return Number.isNaN(t) ? fallback : new Date(t).toISOString();
}

/** The columns a created (2) result sets. */
export function createdColumns(r: TaxInvoiceResult, now: string) {
  const issuedAt = shanghaiToIso(r.issuedAt, now);
  return {
    invoice_no: r.invoiceNo ?? r.allElectronicNo ?? '',
    invoice_code: r.invoiceCode ?? '',
    digital_no: r.allElectronicNo ?? '',
    issued_at: issuedAt,
    issue_date: new Date(Date.parse(issuedAt) + 8 * 3600_000).toISOString().slice(0, 10),
    failure_cause: '',
    status_message: r.statusMessage,
  };
}

/** Stores the files a created result returned (the issuing poll; the tender demo's invoices, seed/tender-invoices.ts). */
export async function storeResultFiles(db: Kysely<Database>, invoiceId: string, r: Pick<TaxInvoiceResult, 'files'>): Promise<void> {
  for (const f of r.files) await storeFile(db, invoiceId, { type: AttachmentType.invoicePaperPdf, format: f.type, name: f.fileName, content: f.content });
}
