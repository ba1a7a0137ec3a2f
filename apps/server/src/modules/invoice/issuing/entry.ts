/**
 * Requests ready to issue: the entry form of role 5 (new, edited while not yet issued, or corrected
 * after 22) and approved 开票申请 workflow instances (KP01), turned into invoices in status none 0.
 */
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import {
  EMPTY_ID,
  InvoiceColour,
  InvoiceKind,
  InvoiceStatus,
  OperationLogType,
  SourceKind,
  checkInvoice,
  computeLine,
  invoiceRefusal,
  invoiceTransition,
  isDecimalText,
  normaliseRate,
  SPEC_MAX,
  UNIT_MAX,
  sumLines,
  TaxPolicy,
  type InvoiceLineRow,
  type InvoiceSaveBody,
} from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import { invoiceRef, type OperationLogService } from '../../../platform/oplog.js';
import { notFound, refuse } from '../../../platform/envelope.js';
import { newId } from '../../../platform/ids.js';
import { nowIso } from '../../../platform/time.js';
import { lineValues, newOrderNo } from '../mapping.js';
import type { InvoiceSettingTable, InvoiceTable } from '../tables.js';

const KIND_BY_LABEL = new Map(InvoiceKind.options.map((o) => [o.label, o.value]));

/** Refuses with every problem of the invoice at once (one Chinese message per problem). */
export function assertIssuable(h: Parameters<typeof checkInvoice>[0], lines: Parameters<typeof checkInvoice>[1]): void {
  const problems = checkInvoice(h, lines);
  if (problems.length) throw refuse(problems.slice(0, 5).join('；') + (problems.length > 5 ? `（另有${problems.length - 5}处）` : ''));
}

function sellerOf(s: InvoiceSettingTable) {
  return {
    seller_name: s.seller_name,
    seller_tax_no: s.seller_tax_no,
    seller_address: s.seller_address,
    seller_phone: s.seller_phone,
    seller_bank: s.seller_bank,
    seller_account: s.seller_account,
  };
}

/** The header columns the form decides. */
function headerOf(b: InvoiceSaveBody, s: InvoiceSettingTable) {
  const t = sumLines(b.lines);
  return {
    kind: b.kind,
    buyer_id: b.buyerId,
    buyer_name: b.buyerName,
    buyer_tax_no: b.buyerTaxNo,
    buyer_address: b.buyerAddress,
    buyer_phone: b.buyerPhone,
    buyer_bank: b.buyerBank,
    buyer_account: b.buyerAccount,
    buyer_email: b.buyerEmail,
    buyer_mobile: b.buyerMobile,
    project_id: b.projectId,
    contract_id: b.contractId,
    special_factor: b.specialFactor,
    construction_site: b.constructionSite,
    construction_project: b.constructionProject,
    remark: b.remark,
    clerk: b.clerk || s.clerk,
    payee: b.payee || s.payee,
    checker: b.checker || s.checker,
    amount_excl: t.amountExcl,
    tax: t.tax,
    amount_incl: t.amountIncl,
  };
}

async function checkReferences(db: Kysely<Database>, b: InvoiceSaveBody): Promise<void> {
  if (b.buyerId && !(await db.selectFrom('invoice_buyers').select('id').where('id', '=', b.buyerId).executeTakeFirst())) throw refuse('所选购方不存在，请重新选择');
  if (b.projectId && !(await db.selectFrom('projects').select('id').where('id', '=', b.projectId).executeTakeFirst())) throw refuse('所选项目不存在，请重新选择');
  if (b.contractId && !(await db.selectFrom('contracts').select('id').where('id', '=', b.contractId).executeTakeFirst())) throw refuse('所选合同不存在，请重新选择');
}

export function checkBody(b: InvoiceSaveBody): void {
  assertIssuable(
    { ...b, colour: InvoiceColour.blue, constructionSite: b.constructionSite, constructionProject: b.constructionProject },
    b.lines.map((l) => ({ ...l })),
  );
}

/** Saves the entry form: a new request (status none 0) or the edit of one not yet issued. */
export async function saveEntry(
  trx: Kysely<Database>,
  req: FastifyRequest,
  oplog: OperationLogService,
  settings: InvoiceSettingTable,
  b: InvoiceSaveBody,
): Promise<{ id: string; orderNo: string }> {
  checkBody(b);
  await checkReferences(trx, b);
  const user = req.user!;
  const now = nowIso();
  if (b.id === EMPTY_ID) {
    const id = newId();
    const orderNo = newOrderNo();
    await trx
      .insertInto('invoices')
      .values({
        ...emptyInvoice(id, orderNo, now),
        ...headerOf(b, settings),
        ...sellerOf(settings),
        source: SourceKind.temp,
        created_by: user.id,
        created_by_name: user.name,
        updated_by_name: user.name,
      })
      .execute();
    await trx.insertInto('invoice_lines').values(lineValues(id, b.lines.map(asLineRow), newId)).execute();
    await oplog.recordFor(invoiceRef(id), req, OperationLogType.add, `新增开票申请 ${orderNo}：${b.buyerName}，价税合计 ${(sumLines(b.lines).amountIncl / 100).toFixed(2)} 元`, trx);
    return { id, orderNo };
  }
  const cur = await trx.selectFrom('invoices').select(['status', 'order_no', 'invalid']).where('id', '=', b.id).executeTakeFirst();
  if (!cur) throw notFound('开票申请不存在');
  if (cur.invalid) throw refuse('该开票申请已置为无效，不能修改');
  if (invoiceTransition('edit', cur.status) === null) throw refuse(invoiceRefusal('edit', cur.status));
  await trx.updateTable('invoices').set({ ...headerOf(b, settings), ...sellerOf(settings), updated_by_name: user.name, updated_at: now }).where('id', '=', b.id).execute();
  await trx.deleteFrom('invoice_lines').where('invoice_id', '=', b.id).execute();
  await trx.insertInto('invoice_lines').values(lineValues(b.id, b.lines.map(asLineRow), newId)).execute();
  await oplog.recordFor(invoiceRef(b.id), req, OperationLogType.edit, `修改开票申请 ${cur.order_no}：${b.buyerName}`, trx);
  return { id: b.id, orderNo: cur.order_no };
}

const asLineRow = (l: InvoiceSaveBody['lines'][number], i = 0): InvoiceLineRow => ({ lineNo: i + 1, ...l, spec: l.spec, unit: l.unit, quantity: l.quantity, unitPrice: l.unitPrice });

export function emptyInvoice(id: string, orderNo: string, now: string): InvoiceTable {
  return {
    id, order_no: orderNo, serial_no: null, kind: InvoiceKind.bs, colour: InvoiceColour.blue, status: InvoiceStatus.none, source: SourceKind.temp,
    request_work_id: null, project_id: null, contract_id: null, buyer_id: null, buyer_name: '', buyer_tax_no: '', buyer_address: '', buyer_phone: '',
    buyer_bank: '', buyer_account: '', buyer_email: '', buyer_mobile: '', seller_name: '', seller_tax_no: '', seller_address: '', seller_phone: '',
    seller_bank: '', seller_account: '', remark: '', clerk: '', payee: '', checker: '', special_factor: 0, construction_site: '', construction_project: '',
    red_reason: null, blue_invoice_id: null, blue_invoice_no: '', red_confirm_id: null, invoice_no: '', invoice_code: '', digital_no: '', issued_at: null,
    issue_date: null, amount_excl: 0, tax: 0, amount_incl: 0, failure_cause: '', status_message: '', invalid: 0, invalid_reason: '', retry_count: 0,
    submitted_at: null, next_poll_at: null, poll_count: 0, created_by: null, created_by_name: '', updated_by_name: '', created_at: now, updated_at: now,
  };
}

interface RequestForm {
  buyer?: string;
  buyerTaxNo?: string;
  invoiceKind?: string;
  basis?: string;
  reference?: string;
  remark?: string;
  lines?: Array<{ goods?: string; spec?: string; unit?: string; quantity?: number | string; taxRate?: string; amount?: number }>;
}

/** A completed 开票申请 as the workflow service reports it (its outcome event). */
export interface ApprovedRequest {
  workId: number;
  form: Record<string, unknown>;
  starterId: string;
  starterName: string;
  /** When the last approval passed. */
  at: string;
}

/** The template whose approval hands a request to outgoing invoicing. */
export const INVOICE_REQUEST_FLOW = 'KP01';

/**
 * Turns one completed 开票申请 (KP01) into a request ready to issue, inside the approval's transaction
 * (the workflow service's outcome event). Idempotent: the invoice's request_work_id is unique.
 */
export async function importRequest(trx: Kysely<Database>, req: ApprovedRequest, settings: InvoiceSettingTable): Promise<string | null> {
  const workId = req.workId;
  const done = await trx.selectFrom('invoices').select('id').where('request_work_id', '=', workId).executeTakeFirst();
  if (done) return null;
  const form = req.form as RequestForm;
  const buyer = form.buyer ? await trx.selectFrom('invoice_buyers').selectAll().where('name', '=', form.buyer).executeTakeFirst() : undefined;
  const codes = await trx.selectFrom('invoice_tax_codes').selectAll().orderBy('sort').execute();
  const byName = form.basis === '合同' ? 'contracts' : 'projects';
  const ref = form.reference ? await trx.selectFrom(byName).select(['id']).where('name', '=', form.reference).executeTakeFirst() : undefined;
  const lines: InvoiceLineRow[] = (form.lines ?? []).map((l, i) => {
    const rate = normaliseRate(String(l.taxRate ?? '')) ?? '0.09';
    const category = /^\*([^*]+)\*/.exec(l.goods ?? '')?.[1] ?? '';
    const code = codes.find((c) => c.short_name === category && c.tax_rate === rate) ?? codes.find((c) => c.tax_rate === rate) ?? codes[0];
    // A line may carry only its amount (services): no quantity and no unit price, and it stays so.
    const given = String(l.quantity ?? '').trim();
    const quantity = isDecimalText(given) && Number(given) !== 0 ? given : '';
    const a = computeLine({ quantity, priceIncludesTax: true, taxRate: rate, amount: Number(l.amount ?? 0) });
    const unitPrice = quantity ? trimPrice(Number(l.amount ?? 0) / 100 / Number(quantity)) : '';
    return {
      lineNo: i + 1, goodsName: (l.goods ?? '').slice(0, 100), taxCode: code?.code ?? '', spec: (l.spec ?? '').trim().slice(0, SPEC_MAX), unit: (l.unit ?? '').trim().slice(0, UNIT_MAX), quantity, unitPrice, priceIncludesTax: true,
      taxRate: rate, policy: rate === '0' ? TaxPolicy.exempt : code?.policy ?? 0, lineProperty: 0, amountExcl: a.amountExcl, tax: a.tax, amountIncl: a.amountIncl,
    };
  });
  const t = sumLines(lines);
  const id = newId();
  const now = nowIso();
  await trx
    .insertInto('invoices')
    .values({
      ...emptyInvoice(id, newOrderNo(), now),
      ...sellerOf(settings),
      kind: KIND_BY_LABEL.get(form.invoiceKind ?? '') ?? settings.default_kind,
      source: SourceKind.mis,
      request_work_id: workId,
      project_id: byName === 'projects' ? (ref?.id ?? null) : null,
      contract_id: byName === 'contracts' ? (ref?.id ?? null) : null,
      buyer_id: buyer?.id ?? null,
      buyer_name: buyer?.name ?? form.buyer ?? '',
      buyer_tax_no: buyer?.tax_no ?? form.buyerTaxNo ?? '',
      buyer_address: buyer?.address ?? '',
      buyer_phone: buyer?.phone ?? '',
      buyer_bank: buyer?.bank ?? '',
      buyer_account: buyer?.account ?? '',
      buyer_email: buyer?.email ?? '',
      buyer_mobile: buyer?.mobile ?? '',
      remark: (form.remark ?? '').slice(0, 200),
      clerk: settings.clerk,
      payee: settings.payee,
      checker: settings.checker,
      amount_excl: t.amountExcl,
      tax: t.tax,
      amount_incl: t.amountIncl,
      created_by: req.starterId,
      created_by_name: req.starterName,
      created_at: req.at || now,
    })
    .execute();
  if (lines.length) await trx.insertInto('invoice_lines').values(lineValues(id, lines, newId)).execute();
  return id;
}

function trimPrice(n: number): string {
  return n.toFixed(8).replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
}
