/**
 * The checks of a bill's lines (issue 15, DOMAIN "Checks that users rely on"): the server gathers the
 * facts (the invoice, other bills claiming the same invoice or the same expense, the travel standard of
 * the applicant's grade and the city's tier) and the shared lineChecks decides (reimbursement-rules.ts; a seat
 * class against the standard's classes as ceilings by the one order of travel-classes.ts).
 */
import type { Kysely } from 'kysely';
import { DUPLICATE_CLAIM_DAYS, IncomeInvoiceState, ReimbCityTier, ReimbFlowState, ReimbGrade, daysBetween, lineChecks, sameBillDuplicates, type DuplicateClaimMatch, type ReimbCheck } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import { shanghaiDay } from '../../../platform/listing.js';
import { cityTierOf, gradeOf, reimbSetting, travelStandardOf } from '../settings/read.js';
import { DEAD_STATES, displayNumber, invoiceRows } from './invoices.js';
import { redTotalsOf } from '../../income/identity/reversals.js';
import '../tables.js';

type Db = Kysely<Database>;

export interface CheckedLine {
  categoryCode: string;
  travelKind: string;
  expenseDate: string;
  city: string;
  nights: number | null;
  seatClass: string;
  amount: number;
  invoiceId: string | null;
  /** The seller's key (sellerKey of the invoice's seller, else of the 收款方 typed); '' when unknown. */
  sellerKey: string;
  /** The line's id and seller as stored (the reference a match within the bill names); unknown before the save. */
  id?: string;
  sellerName?: string;
}

/** The bill the lines belong to (null id: not saved yet); its number and applicant name the matches within it. */
export interface CheckedBill {
  id: string | null;
  applicantId: string;
  billNo?: string;
  applicantName?: string;
}

/**
 * The same receipt entered twice in this bill (issue 32 #4 within a bill): for each line, the other lines of the
 * bill it matches by the same rule as across bills (shared `sameBillDuplicates`), as references to them.
 */
export function inBillMatches(bill: CheckedBill, lines: readonly CheckedLine[]): DuplicateClaimMatch[][] {
  const found = sameBillDuplicates(lines.map((l) => ({ sellerKey: l.sellerKey, amount: l.amount, expenseDate: l.expenseDate, categoryCode: l.categoryCode, hasInvoice: !!l.invoiceId })));
  return found.map((js, i) =>
    js.map((j) => {
      const m = lines[j]!;
      return {
        ref: {
          billId: bill.id ?? '',
          billNo: bill.billNo ?? '',
          lineId: m.id ?? '',
          lineNo: j + 1,
          applicantName: bill.applicantName ?? '',
          expenseDate: m.expenseDate,
          amount: m.amount,
          sellerName: m.sellerName ?? '',
          days: Math.abs(daysBetween(lines[i]!.expenseDate, m.expenseDate)),
        },
        sameApplicant: true,
        bySeller: !!m.sellerKey,
        sameBill: true,
      };
    }),
  );
}

/** Bills whose claims count (submitted or approved); drafts and returned bills are not claims yet. */
const CLAIMING = [ReimbFlowState.approving, ReimbFlowState.approved];

/** Another claiming bill backed by the same invoice: by identity (the pool row), then file hash, then seller + date + total. */
async function duplicateInvoiceBill(db: Db, billId: string | null, invoiceId: string): Promise<string | null> {
  const inv = await db.selectFrom('income_invoices').select(['id', 'seller_tax_no', 'issue_date', 'amount_incl']).where('id', '=', invoiceId).executeTakeFirst();
  if (!inv) return null;
  const ids = new Set<string>([inv.id]);
  const sameFile = await db
    .selectFrom('income_files as a')
    .innerJoin('income_files as b', 'b.sha256', 'a.sha256')
    .select('b.invoice_id')
    .where('a.invoice_id', '=', inv.id)
    .execute();
  for (const r of sameFile) ids.add(r.invoice_id);
  if (inv.seller_tax_no) {
    const same = await db.selectFrom('income_invoices').select('id').where('seller_tax_no', '=', inv.seller_tax_no).where('issue_date', '=', inv.issue_date).where('amount_incl', '=', inv.amount_incl).execute();
    for (const r of same) ids.add(r.id);
  }
  let q = db
    .selectFrom('reimb_lines as l')
    .innerJoin('reimb_bills as b', 'b.id', 'l.bill_id')
    .select('b.bill_no')
    .where('l.invoice_id', 'in', [...ids])
    .where('b.flow_state', 'in', CLAIMING);
  if (billId) q = q.where('b.id', '!=', billId);
  const hit = await q.orderBy('b.bill_no').executeTakeFirst();
  return hit?.bill_no ?? null;
}

/** The most matches one line lists (a fixed-price receipt may match many claims; the first few show the pattern). */
export const MAX_DUPLICATE_MATCHES = 5;

/** A calendar day (YYYY-MM-DD) moved by some days. */
function shiftDay(day: string, days: number): string {
  const t = Date.parse(`${day}T00:00:00Z`) + days * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}

/**
 * Other claims of the same expense (issue 32 #4), in other bills that are claims (审批中 or 已通过: a draft, a
 * withdrawn or a returned bill is not one), whoever applied:
 * - with a seller: the same seller key, the same amount to the 分 and dates at most DUPLICATE_CLAIM_DAYS apart, where at
 *   least one of the two lines has no pool invoice (two different invoices with numbers are two documents; the same
 *   invoice is duplicateInvoice's). One index range: reimb_lines_dup_idx (seller_key, amount, expense_date).
 * - without a seller on either line (no invoice, no 收款方): the same person, category, day and amount.
 */
export async function duplicateClaims(db: Db, billId: string | null, applicantId: string, l: CheckedLine): Promise<DuplicateClaimMatch[]> {
  let q = db
    .selectFrom('reimb_lines as l')
    .innerJoin('reimb_bills as b', 'b.id', 'l.bill_id')
    .select(['l.id', 'l.line_no', 'l.expense_date', 'l.amount', 'l.seller_name', 'b.id as bill_id', 'b.bill_no', 'b.applicant_id', 'b.applicant_name'])
    .where('l.seller_key', '=', l.sellerKey)
    .where('l.amount', '=', l.amount)
    .where('b.flow_state', 'in', CLAIMING);
  if (l.sellerKey) {
    q = q.where('l.expense_date', '>=', shiftDay(l.expenseDate, -DUPLICATE_CLAIM_DAYS)).where('l.expense_date', '<=', shiftDay(l.expenseDate, DUPLICATE_CLAIM_DAYS));
    if (l.invoiceId) q = q.where('l.invoice_id', 'is', null);
  } else q = q.where('l.expense_date', '=', l.expenseDate).where('l.category_code', '=', l.categoryCode).where('b.applicant_id', '=', applicantId);
  if (billId) q = q.where('b.id', '!=', billId);
  const rows = await q.orderBy('b.bill_no').orderBy('l.line_no').limit(MAX_DUPLICATE_MATCHES).execute();
  return rows.map((r) => ({
    ref: {
      billId: r.bill_id,
      billNo: r.bill_no,
      lineId: r.id,
      lineNo: r.line_no,
      applicantName: r.applicant_name,
      expenseDate: r.expense_date,
      amount: Number(r.amount),
      sellerName: r.seller_name ?? '',
      days: Math.abs(daysBetween(l.expenseDate, r.expense_date)),
    },
    sameApplicant: r.applicant_id === applicantId,
    bySeller: !!l.sellerKey,
  }));
}

/**
 * The files uploaded with each invoice that did not show its number (issue 27): the upload writes them to the
 * invoice's history as 'unrecognised' (income/intake/upload.ts); a line backed by one carries a warning for the approvers.
 */
async function unreadFilesOf(db: Db, invoiceIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (!invoiceIds.length) return out;
  const rows = await db.selectFrom('income_events').select(['invoice_id', 'message']).where('invoice_id', 'in', invoiceIds).where('kind', '=', 'unrecognised').orderBy('created_at').execute();
  for (const r of rows) {
    const name = /「(.*)」/.exec(r.message)?.[1] ?? r.message;
    out.set(r.invoice_id, [...(out.get(r.invoice_id) ?? []), name]);
  }
  return out;
}

/** The findings of each line of a bill, in order. */
export async function checkLines(db: Db, bill: CheckedBill, lines: readonly CheckedLine[], today = shanghaiDay()): Promise<ReimbCheck[][]> {
  const invoices = await invoiceRows(db, lines.flatMap((l) => (l.invoiceId ? [l.invoiceId] : [])));
  const ageDays = await reimbSetting(db, 'invoiceAgeDays');
  const unread = await unreadFilesOf(db, [...invoices.keys()]);
  // A blue invoice partly or wholly reversed by red invoices received backs only its net amount (issue 29).
  const reds = await redTotalsOf(db, [...invoices.keys()]);
  const needsGrade = lines.some((l) => l.travelKind);
  const grade = needsGrade ? await gradeOf(db, bill.applicantId) : '';
  const inBill = inBillMatches(bill, lines);
  const out: ReimbCheck[][] = [];
  for (const [i, l] of lines.entries()) {
    const r = l.invoiceId ? invoices.get(l.invoiceId) : undefined;
    let standard = null;
    if (l.travelKind) {
      const tier = await cityTierOf(db, l.city);
      const s = await travelStandardOf(db, grade, tier);
      if (s)
        standard = {
          hotelPerNight: Number(s.hotel_per_night),
          seatClasses: s.seat_classes.split(/[,，、]/).map((x) => x.trim()).filter(Boolean),
          allowancePerDay: Number(s.allowance_per_day),
          label: `${ReimbGrade.label(grade) ?? grade}${ReimbCityTier.label(tier) ?? ''}`,
        };
    }
    out.push(
      lineChecks({
        amount: l.amount,
        travelKind: l.travelKind,
        nights: l.nights,
        seatClass: l.seatClass,
        today,
        invoiceAgeDays: ageDays,
        invoice: r
          ? {
              number: displayNumber(r),
              total: Number(r.amount_incl) + (reds.get(r.id) ?? 0),
              issueDate: r.issue_date,
              buyerMismatch: r.buyer_mismatch === 1,
              deadState: DEAD_STATES.includes(r.invoice_state) ? IncomeInvoiceState.label(r.invoice_state) : '',
              unreadFiles: unread.get(r.id) ?? [],
            }
          : null,
        duplicateInvoiceBill: l.invoiceId ? await duplicateInvoiceBill(db, bill.id, l.invoiceId) : null,
        duplicateClaims: [...inBill[i]!, ...(await duplicateClaims(db, bill.id, bill.applicantId, l))],
        standard,
      }),
    );
  }
  return out;
}
