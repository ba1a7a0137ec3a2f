/**
 * Every way an incoming invoice enters the pool (collected, uploaded, scanned, entered by hand) goes
 * through `arrive()`, inside the caller's transaction: the checks, then one row per identity key. A
 * second arrival of the same invoice merges into the first (new files added, the arrival counted and
 * written to the history) and says so. Two arrivals at once agree through the unique key: the insert
 * that loses does nothing and merges instead.
 */
import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import { isRedInvoice, IncomeBookingState, IncomeInvoiceState, IncomeRiskLevel, IncomeSignState, IncomeSource, IncomeUsage, IncomeVerifyState, itineraryProblem, ResponseCode, type PoolArrival, type PoolLineInput } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import { AppError, refuse } from '../../../platform/envelope.js';
import { newId } from '../../../platform/ids.js';
import { nowIso } from '../../../platform/time.js';
import { buyerWarnings, checkFace, checkFileHashes, company, sameSellerDayTotal, type FaceData } from './checks.js';
import { addEvent } from '../pool/events.js';
import { identityKey } from '../identity/identity.js';
import { recordTransport } from '../transport/facts.js';
import { raiseCases } from '../abnormal/raise.js';
import { linkReversal } from './red.js';
import '../pool/tables.js';

export interface ArrivingFile {
  name: string;
  format: string;
  content: Buffer;
}

export interface ArrivingInvoice extends FaceData {
  invoiceCode: string;
  invoiceNo: string;
  digitalNo: string;
  checkCode: string;
  remark?: string;
  /** What the tax account says, when collected. */
  invoiceState?: number;
  riskLevel?: string;
  redPending?: boolean;
  files?: ArrivingFile[];
  /** Passenger tickets: the traveller and the day of travel, as the tax service gives them (transport/facts.ts). */
  passengerName?: string;
  travelDate?: string;
  /** A paper air itinerary's printed 票价, 燃油附加费, 民航发展基金 (分), from the entry form. */
  fare?: number;
  fuelSurcharge?: number;
  developmentFund?: number;
}

export interface ArrivalContext {
  userId?: string | null;
  userName?: string;
  now?: Date;
}

const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

async function storeFiles(trx: Kysely<Database>, invoiceId: string, files: ArrivingFile[], ctx: ArrivalContext): Promise<number> {
  let added = 0;
  const now = nowIso();
  for (const f of files) {
    const sha256 = sha(f.content);
    await trx.insertInto('invoice_blobs').values({ sha256, size: f.content.length, content: f.content, created_at: now }).onConflict((oc) => oc.column('sha256').doNothing()).execute();
    const r = await trx
      .insertInto('income_files')
      .values({ id: newId(), invoice_id: invoiceId, format: f.format, name: f.name, size: f.content.length, sha256, created_by: ctx.userId ?? null, created_at: now })
      .onConflict((oc) => oc.columns(['invoice_id', 'sha256']).doNothing())
      .executeTakeFirst();
    added += Number(r.numInsertedOrUpdatedRows ?? 0);
  }
  return added;
}

async function storeLines(trx: Kysely<Database>, invoiceId: string, lines: PoolLineInput[]): Promise<void> {
  if (!lines.length) return;
  await trx
    .insertInto('income_invoice_lines')
    .values(lines.map((l, i) => ({ id: newId(), invoice_id: invoiceId, line_no: i + 1, name: l.name, spec: l.spec, unit: l.unit, quantity: l.quantity, unit_price: l.unitPrice, amount: l.amount, tax_rate: l.taxRate, tax: l.tax })))
    .execute();
}

/** The face of a pool row as merge compares it. */
type StoredFace = Pick<Database['income_invoices'], 'kind' | 'issue_date' | 'seller_tax_no' | 'buyer_name' | 'buyer_tax_no' | 'amount_excl' | 'tax' | 'amount_incl'>;
const FACE_COLUMNS = ['id', 'kind', 'issue_date', 'seller_tax_no', 'buyer_name', 'buyer_tax_no', 'amount_excl', 'tax', 'amount_incl'] as const;

const text = (v: unknown) => String(v ?? '').trim();
/** A name as printed: full-width brackets as half-width, no spaces (a recognised 购方名称 may print either). */
const name = (v: unknown) => text(v).replace(/（/g, '(').replace(/）/g, ')').replace(/\s+/g, '');
const code = (v: unknown) => text(v).toUpperCase();
const fen = (v: unknown) => Math.round(Number(v ?? 0));

/**
 * The fields of an arriving face that differ from the pool row of the same number (issue 27): 票种, 开票日期,
 * 销方税号, 购方 (name and tax number), 金额, 税额, 价税合计. Texts compare trimmed (tax numbers in capitals, the
 * buyer's name with full-width brackets as half-width and without spaces),
 * money as whole 分 (PostgreSQL answers numerics as text); an empty field equals only an empty field, so a
 * face that leaves out what the pool holds is not the same face.
 */
export function faceDifferences(row: StoredFace, inv: FaceData): string[] {
  const out: string[] = [];
  if (text(row.kind) !== text(inv.kind)) out.push('票种');
  if (text(row.issue_date) !== text(inv.issueDate)) out.push('开票日期');
  if (code(row.seller_tax_no) !== code(inv.sellerTaxNo)) out.push('销方税号');
  if (name(row.buyer_name) !== name(inv.buyerName)) out.push('购方名称');
  if (code(row.buyer_tax_no) !== code(inv.buyerTaxNo)) out.push('购方税号');
  if (fen(row.amount_excl) !== fen(inv.amountExcl)) out.push('金额');
  if (fen(row.tax) !== fen(inv.tax)) out.push('税额');
  if (fen(row.amount_incl) !== fen(inv.amountIncl)) out.push('价税合计');
  return out;
}

/**
 * An arrival whose number is in the pool with another face: refused (code 30000) and never merged. The
 * caller's transaction rolls back, so the caller records it afterwards (`recordFaceMismatch`).
 */
export class FaceMismatch extends AppError {
  constructor(
    readonly invoiceId: string,
    readonly fields: string[],
    readonly number: string,
  ) {
    super(ResponseCode.businessError, `票池中已有发票 ${number}，本次填写的票面与之不一致（${fields.join('、')}），不能合并，请核对后重新填写`, 400);
  }
}

/** Writes a refused merge to the invoice's history (outside the refused transaction). */
export async function recordFaceMismatch(db: Kysely<Database>, e: FaceMismatch, source: number, userName: string, detail = ''): Promise<void> {
  await addEvent(db, e.invoiceId, 'mismatch', `${IncomeSource.label(source)}的票面与票池记录不一致（${e.fields.join('、')}），已拒绝合并${detail ? `：${detail}` : ''}`, userName);
}

async function merge(trx: Kysely<Database>, id: string, inv: ArrivingInvoice, source: number, ctx: ArrivalContext): Promise<PoolArrival> {
  const row = await trx.selectFrom('income_invoices').select([...FACE_COLUMNS]).where('id', '=', id).executeTakeFirstOrThrow();
  const diff = faceDifferences(row, inv);
  if (diff.length) throw new FaceMismatch(id, diff, inv.digitalNo.trim() || `${inv.invoiceCode.trim()} ${inv.invoiceNo.trim()}`.trim());
  const added = await storeFiles(trx, id, inv.files ?? [], ctx);
  const hasLines = await trx.selectFrom('income_invoice_lines').select('id').where('invoice_id', '=', id).limit(1).executeTakeFirst();
  if (!hasLines) await storeLines(trx, id, inv.lines);
  await trx.updateTable('income_invoices').set((eb) => ({ arrivals: eb('arrivals', '+', 1), updated_at: nowIso() })).where('id', '=', id).execute();
  const message = `该发票已在票池中，本次${IncomeSource.label(source)}已合并到原记录${added ? `（新增文件${added}个）` : ''}`;
  await addEvent(trx, id, 'merge', message, ctx.userName);
  return { id, outcome: 'merged', message, warnings: [] };
}

/** Validates an arriving invoice and puts it in the pool, or merges it into the row of the same key. */
export async function arrive(inv: ArrivingInvoice, source: number, trx: Kysely<Database>, ctx: ArrivalContext = {}): Promise<PoolArrival> {
  const ident = identityKey(inv);
  checkFace(inv, ctx.now ?? new Date());
  const itinerary = { fare: inv.fare, fuelSurcharge: inv.fuelSurcharge, developmentFund: inv.developmentFund };
  const wrongItinerary = itineraryProblem(inv.kind, inv.amountIncl, itinerary);
  if (wrongItinerary) throw refuse(wrongItinerary);
  const existing = await trx.selectFrom('income_invoices').select('id').where('ident', '=', ident).executeTakeFirst();
  if (existing) return merge(trx, existing.id, inv, source, ctx);

  const files = inv.files ?? [];
  await checkFileHashes(trx, files.map((f) => sha(f.content)), ident);
  const buyer = buyerWarnings(inv, await company(trx));
  const dup = await sameSellerDayTotal(trx, inv, ident);
  const warnings = dup ? [...buyer, dup.warning] : buyer;

  const id = newId();
  const now = nowIso();
  const inserted = await trx
    .insertInto('income_invoices')
    .values({
      id, ident, kind: inv.kind, invoice_code: inv.invoiceCode.trim(), invoice_no: inv.invoiceNo.trim(), digital_no: inv.digitalNo.trim(), issue_date: inv.issueDate,
      seller_name: inv.sellerName.trim(), seller_tax_no: inv.sellerTaxNo.trim().toUpperCase(), buyer_name: inv.buyerName.trim(), buyer_tax_no: inv.buyerTaxNo.trim().toUpperCase(),
      amount_excl: inv.amountExcl, tax: inv.tax, amount_incl: inv.amountIncl, check_code: inv.checkCode.trim(),
      invoice_state: inv.invoiceState ?? IncomeInvoiceState.normal, red_pending: inv.redPending ? 1 : 0, risk_level: inv.riskLevel ?? IncomeRiskLevel.normal,
      verify_state: IncomeVerifyState.none, verified_at: null, sign_state: IncomeSignState.unsigned, archive_no: '', booking_state: IncomeBookingState.none,
      usage: IncomeUsage.available, use_kind: '', doc_no: '', arrivals: 1,
      source, buyer_mismatch: buyer.length ? 1 : 0, duplicate_of: dup?.id ?? null, remark: inv.remark ?? '', blue_no: isRedInvoice(inv) ? (inv.blueInvoiceNo ?? '').trim() : '',
      created_by: ctx.userId ?? null, created_at: now, updated_at: now,
    })
    .onConflict((oc) => oc.column('ident').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) {
    // Another arrival of the same invoice committed first.
    const first = await trx.selectFrom('income_invoices').select('id').where('ident', '=', ident).executeTakeFirstOrThrow();
    return merge(trx, first.id, inv, source, ctx);
  }
  await storeLines(trx, id, inv.lines);
  await recordTransport(trx, { invoiceId: id, kind: inv.kind, amountIncl: inv.amountIncl, tax: inv.tax, remark: inv.remark ?? '', lines: inv.lines, passengerName: inv.passengerName, travelDate: inv.travelDate, itinerary });
  await storeFiles(trx, id, files, ctx);
  await addEvent(trx, id, 'arrive', `${IncomeSource.label(source)}进入票池${warnings.length ? `：${warnings.join('；')}` : ''}`, ctx.userName);
  await linkReversal(trx, { id, invoiceNo: inv.invoiceNo, digitalNo: inv.digitalNo, amountIncl: inv.amountIncl, sellerTaxNo: inv.sellerTaxNo.trim().toUpperCase(), blueInvoiceNo: inv.blueInvoiceNo }, ctx.userName);
  // A flag it arrives with (购方非本公司, 疑似重复, the tax account's state) is a case of the worklist.
  await raiseCases(trx, id);
  return { id, outcome: 'created', message: '已加入票池', warnings };
}

