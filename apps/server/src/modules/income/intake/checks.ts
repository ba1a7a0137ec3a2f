/**
 * The checks of every arrival (issue 13), each with its Chinese message. Those that make the data
 * wrong refuse it (tax number checksum, amounts that do not add up, a date in the future); those about
 * the invoice's standing are kept as abnormal flags and reported as warnings (购方非本公司, 疑似重复),
 * because a collected invoice is a fact the pool must hold.
 */
import type { Kysely } from 'kysely';
import { incomeFaceProblems, taxNumberProblem, type PoolLineInput } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import { refuse } from '../../../platform/envelope.js';
import { shanghaiDay } from '../../../platform/listing.js';
import { defaultSettings, SETTINGS_ID } from '../../invoice/settings/service.js';
import { displayNo } from '../identity/identity.js';
import '../pool/tables.js';

export interface FaceData {
  kind: string;
  issueDate: string;
  sellerName: string;
  sellerTaxNo: string;
  buyerName: string;
  buyerTaxNo: string;
  amountExcl: number;
  tax: number;
  amountIncl: number;
  lines: PoolLineInput[];
  /** 对应蓝字发票号码 (red invoices). */
  blueInvoiceNo?: string;
}

/** Refuses data that cannot be right. */
export function checkFace(f: FaceData, now: Date): void {
  if (f.sellerTaxNo) {
    const p = taxNumberProblem(f.sellerTaxNo);
    if (p) throw refuse(`销方${p}`);
  }
  if (f.buyerTaxNo) {
    const p = taxNumberProblem(f.buyerTaxNo);
    if (p) throw refuse(`购方${p}`);
  }
  // 金额 + 税额 = 价税合计, the signs of a blue or red invoice, discount lines, lines adding up (income-face-rules.ts).
  const [problem] = incomeFaceProblems(f);
  if (problem) throw refuse(problem.message);
  if (f.issueDate > shanghaiDay(now)) throw refuse('开票日期不能晚于今天');
}

/** The company's name and tax number (the invoice settings' seller: 本公司). */
export async function company(trx: Kysely<Database>): Promise<{ name: string; taxNo: string }> {
  const row = await trx.selectFrom('invoice_settings').select(['seller_name', 'seller_tax_no']).where('id', '=', SETTINGS_ID).executeTakeFirst();
  const s = row ?? defaultSettings();
  return { name: s.seller_name, taxNo: s.seller_tax_no };
}

/** 购方非本公司: the warnings, empty when the buyer is the company. */
export function buyerWarnings(f: Pick<FaceData, 'buyerName' | 'buyerTaxNo'>, c: { name: string; taxNo: string }): string[] {
  const out: string[] = [];
  if (f.buyerName.trim() !== c.name) out.push(`购方名称「${f.buyerName}」不是本公司（${c.name}）`);
  if (f.buyerTaxNo.trim().toUpperCase() !== c.taxNo.toUpperCase()) out.push(`购方税号「${f.buyerTaxNo || '空'}」不是本公司税号（${c.taxNo}）`);
  return out;
}

/** A file already in the pool on another invoice: refused (the same file cannot be two invoices). */
export async function checkFileHashes(trx: Kysely<Database>, hashes: string[], ident: string): Promise<void> {
  if (!hashes.length) return;
  const other = await trx
    .selectFrom('income_files as f')
    .innerJoin('income_invoices as i', 'i.id', 'f.invoice_id')
    .select(['i.invoice_code', 'i.invoice_no', 'i.digital_no', 'f.name'])
    .where('f.sha256', 'in', hashes)
    .where('i.ident', '<>', ident)
    .executeTakeFirst();
  if (other) throw refuse(`文件「${other.name}」已是票池中发票 ${displayNo(other)} 的文件，与本次的发票号码不同，请核对`);
}

/** 疑似重复: another invoice of the same seller, day and total. */
export async function sameSellerDayTotal(trx: Kysely<Database>, f: FaceData, ident: string): Promise<{ id: string; warning: string } | null> {
  let q = trx.selectFrom('income_invoices').select(['id', 'invoice_code', 'invoice_no', 'digital_no']).where('issue_date', '=', f.issueDate).where('amount_incl', '=', f.amountIncl).where('ident', '<>', ident);
  q = f.sellerTaxNo ? q.where('seller_tax_no', '=', f.sellerTaxNo.toUpperCase()) : q.where('seller_name', '=', f.sellerName);
  const hit = await q.orderBy('created_at').executeTakeFirst();
  return hit ? { id: hit.id, warning: `与票池中发票 ${displayNo(hit)} 的销方、开票日期和价税合计相同，疑似重复` } : null;
}
