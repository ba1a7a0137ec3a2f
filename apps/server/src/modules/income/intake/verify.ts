/**
 * 查验 (issue 13) of pool invoices through the tax gateway: 专票 (01, 08, 85) by code, number, date and
 * amount excluding tax; 普票 (04, 10, 14, 86) by the last 6 digits of the check code; 数电 (81, 82,
 * 数电通行费, 铁路, 航空) by number, date and total. The gateway applies the service's rules (from the day after
 * issue, the last 5 years, 5 a day per invoice: the 6th refused with its message).
 *
 * The call is made first, outside any transaction; only an answer is recorded, in one transaction: a
 * row of the verification history, the verification state and time, on a match the face (lines
 * included) and the state / risk the service reports, and a history event. A refused or failed call
 * records nothing, so it can simply be repeated. Differences between what the pool held (entered or
 * recognised) and the service's face, 信息不一致, and 查无此票 set 查验不一致 (verify state 2).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { raiseCases } from '../abnormal/raise.js';
import { IncomeKind, IncomeVerifyState, type VerifyAnswer, type VerifyInvoiceResult, type VerifyMismatchField, type VerificationRecord, SYSTEM_ACTOR_NAME } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import { VERIFY_FIELD_LABELS, type IncomeTaxGateway, type IncomeVerifyQuery, type IncomeVerifyResult, type IncomingInvoice } from '../../../integrations/tax/index.js';
import { fenToYuan } from '../../../integrations/tax/money.js';
import { currentUser } from '../../../platform/context.js';
import { AppError, notFound, refuse } from '../../../platform/envelope.js';
import { newId } from '../../../platform/ids.js';
import { nowIso } from '../../../platform/time.js';
import type { InvoiceSettings } from '../../invoice/settings/service.js';
import { buyerWarnings, company } from './checks.js';
import { applyTaxState, poolKindOf, taxLines } from './collect.js';
import { addEvent } from '../pool/events.js';
import type { IncomeInvoiceTable, IncomeLineTable } from '../pool/tables.js';
import { refreshTransport } from '../transport/facts.js';

const SPECIAL = new Set(['01', '08', '85']);
const ORDINARY = new Set(['04', '10', '14', '86']);
const DIGITAL = new Set(['81', '82', 'rail', 'air', 'dtoll']);

/** The query each kind is verified by, or a refusal naming why it cannot be. */
export function verifyQueryOf(r: Pick<IncomeInvoiceTable, 'kind' | 'invoice_code' | 'invoice_no' | 'digital_no' | 'issue_date' | 'amount_excl' | 'amount_incl' | 'check_code'>): IncomeVerifyQuery {
  const coded = !!r.invoice_code && /^\d{8}$/.test(r.invoice_no);
  if (SPECIAL.has(r.kind) && coded) return { invoiceCode: r.invoice_code, invoiceNo: r.invoice_no, issueDate: r.issue_date, amountExcludingTax: Number(r.amount_excl) };
  if (ORDINARY.has(r.kind) && coded) {
    if (!/^\d{6,}$/.test(r.check_code)) throw refuse('普通发票按校验码后6位查验，请先填写校验码');
    return { invoiceCode: r.invoice_code, invoiceNo: r.invoice_no, issueDate: r.issue_date, checkCodeLast6: r.check_code.slice(-6) };
  }
  if ((DIGITAL.has(r.kind) || r.kind === '85' || r.kind === '86') && r.digital_no) return { invoiceNo: r.digital_no, issueDate: r.issue_date, total: Number(r.amount_incl) };
  if (r.kind === 'road') throw refuse('公路、水路等客票不支持查验');
  if (r.kind === 'customs' || r.kind === 'withholding') throw refuse('海关缴款书和代扣代缴完税凭证不支持发票查验');
  throw refuse('请先补全发票代码和发票号码（或数电发票号码）再查验');
}

const yuan = (fen: number) => fenToYuan(Number(fen));

/** What the pool held against the service's face: each field that differs (empty entries were not entered, so they are filled, not flagged). */
export function faceDifferences(r: IncomeInvoiceTable, lines: IncomeLineTable[], inv: IncomingInvoice): VerifyMismatchField[] {
  const out: VerifyMismatchField[] = [];
  const cmp = (field: string, label: string, entered: string, tax: string, optional = false) => {
    if (optional && (!entered || !tax)) return;
    if (entered !== tax) out.push({ field, label, entered, tax });
  };
  const kind = poolKindOf(inv.kind);
  // A 数电 toll invoice (dtoll) is a 数电普票 (82) to a service that does not name tolls apart.
  if (r.kind !== kind && !(r.kind === 'dtoll' && kind === '82')) out.push({ field: 'kind', label: '发票种类', entered: IncomeKind.label(r.kind) ?? r.kind, tax: IncomeKind.label(kind) ?? kind });
  cmp('issueDate', '开票日期', r.issue_date, inv.issueDate);
  cmp('sellerName', '销方名称', r.seller_name, inv.seller.name, true);
  cmp('sellerTaxNo', '销方税号', r.seller_tax_no, inv.seller.taxNumber.toUpperCase(), true);
  cmp('buyerName', '购方名称', r.buyer_name, inv.buyer.name, true);
  cmp('buyerTaxNo', '购方税号', r.buyer_tax_no, inv.buyer.taxNumber.toUpperCase(), true);
  cmp('amountExcl', '金额（不含税）', yuan(r.amount_excl), yuan(inv.amountExcludingTax));
  cmp('tax', '税额', yuan(r.tax), yuan(inv.tax));
  cmp('amountIncl', '价税合计', yuan(r.amount_incl), yuan(inv.total));
  cmp('checkCode', '校验码', r.check_code, inv.checkCode, true);
  if (lines.length) {
    const sig = (ls: Array<{ amount: number; tax: number }>) => ls.map((l) => `${yuan(l.amount)}/${yuan(l.tax)}`).join('；');
    const held = sig(lines.map((l) => ({ amount: Number(l.amount), tax: Number(l.tax) })));
    const told = sig(inv.lines.map((l) => ({ amount: l.amountExcludingTax, tax: l.tax })));
    if (held !== told) out.push({ field: 'lines', label: '明细', entered: `${lines.length}行：${held}`, tax: `${inv.lines.length}行：${told}` });
  }
  return out;
}

/** The query's fields the service named (信息不一致), with what was sent. */
function queryDifferences(q: IncomeVerifyQuery, fields: Array<keyof typeof VERIFY_FIELD_LABELS>): VerifyMismatchField[] {
  const sent = (f: keyof typeof VERIFY_FIELD_LABELS): string => {
    const v = q[f];
    if (v === undefined) return '';
    return f === 'amountExcludingTax' || f === 'total' ? yuan(Number(v)) : String(v);
  };
  return fields.map((f) => ({ field: f, label: VERIFY_FIELD_LABELS[f], entered: sent(f), tax: '' }));
}

/** Fills the face and lines from the service's answer. */
async function fillFace(trx: Kysely<Database>, r: IncomeInvoiceTable, inv: IncomingInvoice): Promise<void> {
  const face = {
    kind: poolKindOf(inv.kind), issueDate: inv.issueDate, sellerName: inv.seller.name, sellerTaxNo: inv.seller.taxNumber.toUpperCase(),
    buyerName: inv.buyer.name, buyerTaxNo: inv.buyer.taxNumber.toUpperCase(),
  };
  const buyerOff = buyerWarnings(face, await company(trx)).length > 0;
  await trx
    .updateTable('income_invoices')
    .set({
      kind: face.kind, issue_date: face.issueDate, seller_name: face.sellerName, seller_tax_no: face.sellerTaxNo, buyer_name: face.buyerName, buyer_tax_no: face.buyerTaxNo,
      amount_excl: inv.amountExcludingTax, tax: inv.tax, amount_incl: inv.total, check_code: inv.checkCode || r.check_code, buyer_mismatch: buyerOff ? 1 : 0,
    })
    .where('id', '=', r.id)
    .execute();
  const lines = taxLines(inv);
  if (lines.length) {
    await trx.deleteFrom('income_invoice_lines').where('invoice_id', '=', r.id).execute();
    await trx
      .insertInto('income_invoice_lines')
      .values(lines.map((l, i) => ({ id: newId(), invoice_id: r.id, line_no: i + 1, name: l.name, spec: l.spec, unit: l.unit, quantity: l.quantity, unit_price: l.unitPrice, amount: l.amount, tax_rate: l.taxRate, tax: l.tax })))
      .execute();
  }
  // A passenger ticket's deduction facts follow the face (the passenger as the tax service gives it).
  const kept = lines.length ? lines : (await trx.selectFrom('income_invoice_lines').select(['name', 'amount', 'tax']).where('invoice_id', '=', r.id).execute()).map((l) => ({ name: l.name, amount: Number(l.amount), tax: Number(l.tax) }));
  await refreshTransport(trx, { invoiceId: r.id, kind: face.kind, amountIncl: inv.total, tax: inv.tax, remark: r.remark, lines: kept, passengerName: inv.passengerName, travelDate: inv.travelDate });
}

/** Records one answer (one transaction: all of it or nothing). */
async function record(trx: Kysely<Database>, id: string, q: IncomeVerifyQuery, answer: IncomeVerifyResult, user: { id: string; name: string }): Promise<VerifyInvoiceResult> {
  const r = await trx.selectFrom('income_invoices').selectAll().where('id', '=', id).executeTakeFirst();
  if (!r) throw notFound('发票不存在');
  let fields: VerifyMismatchField[] = [];
  let message: string = answer.message;
  if (answer.outcome === 'match') {
    const lines = await trx.selectFrom('income_invoice_lines').selectAll().where('invoice_id', '=', id).orderBy('line_no').execute();
    fields = faceDifferences(r, lines, answer.invoice);
    if (fields.length) message = `查验成功，但票面与税务端不一致：${fields.map((f) => f.label).join('、')}（已按税务端更新）`;
    await fillFace(trx, r, answer.invoice);
    await applyTaxState(trx, id, { state: answer.invoice.state, risk: answer.invoice.riskLevel }, '查验', user.name);
  } else if (answer.outcome === 'mismatch') {
    fields = queryDifferences(q, answer.fields);
  }
  const state = answer.outcome === 'match' && !fields.length ? IncomeVerifyState.match : IncomeVerifyState.mismatch;
  const now = nowIso();
  await trx.updateTable('income_invoices').set({ verify_state: state, verified_at: now, updated_at: now }).where('id', '=', id).execute();
  await trx
    .insertInto('income_verifications')
    .values({ id: newId(), invoice_id: id, outcome: answer.outcome, message, fields: JSON.stringify(fields), checks_today: answer.checksToday, user_id: user.id, user_name: user.name, created_at: now })
    .execute();
  const detail = fields.length ? `（${fields.map((f) => `${f.label}：${f.entered || '—'}${f.tax ? ` → ${f.tax}` : ''}`).join('；')}）` : '';
  await addEvent(trx, id, 'verify', `查验：${message}${detail}`, user.name);
  await raiseCases(trx, id);
  return { id, ok: true, outcome: answer.outcome, message, fields, verifyState: state, checksToday: answer.checksToday };
}

async function verifyOne(app: FastifyInstance, gateway: IncomeTaxGateway, id: string, user: { id: string; name: string }): Promise<VerifyInvoiceResult> {
  const db = app.db.kysely;
  try {
    const r = await db.selectFrom('income_invoices').selectAll().where('id', '=', id).executeTakeFirst();
    if (!r) throw notFound('发票不存在');
    const q = verifyQueryOf(r);
    const answer = await gateway.verifyIncoming(q, { userId: user.id });
    return await db.transaction().execute((trx) => record(trx, id, q, answer, user));
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return { id, ok: false, message: err.message, fields: [] };
  }
}

/** 查验 of each invoice in turn; a refusal or failure of one does not stop the others. */
export async function verifyInvoices(app: FastifyInstance, settings: InvoiceSettings, req: FastifyRequest, ids: string[]): Promise<VerifyAnswer> {
  const user = currentUser(req);
  const gateway = await settings.gateway();
  const results: VerifyInvoiceResult[] = [];
  for (const id of [...new Set(ids)]) results.push(await verifyOne(app, gateway, id, user));
  return {
    results,
    matched: results.filter((x) => x.ok && x.verifyState === IncomeVerifyState.match).length,
    mismatched: results.filter((x) => x.ok && x.verifyState === IncomeVerifyState.mismatch).length,
    failed: results.filter((x) => !x.ok).length,
  };
}

/** The verification history of one invoice, newest first. */
export async function verifyHistory(db: Kysely<Database>, id: string): Promise<VerificationRecord[]> {
  const inv = await db.selectFrom('income_invoices').select('id').where('id', '=', id).executeTakeFirst();
  if (!inv) throw notFound('发票不存在');
  const rows = await db.selectFrom('income_verifications').selectAll().where('invoice_id', '=', id).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(200).execute();
  return rows.map((v) => ({ id: v.id, outcome: v.outcome, message: v.message, fields: JSON.parse(v.fields) as VerifyMismatchField[], checksToday: v.checks_today, userName: v.user_name || SYSTEM_ACTOR_NAME, createdAt: v.created_at }));
}
