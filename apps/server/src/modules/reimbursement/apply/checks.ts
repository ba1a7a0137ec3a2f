/**
 * The checks of a bill's lines (issue 15, DOMAIN "Checks that users rely on"): the server gathers the
 * facts (the invoice, other bills claiming the same invoice or the same expense, the travel standard of
 * the applicant's grade and the city's tier) and the shared lineChecks decides (reimbursement-rules.ts; a seat
 * class against the standard's classes as ceilings by the one order of travel-classes.ts).
 */
import type { Kysely } from 'kysely';
import { IncomeInvoiceState, ReimbCityTier, ReimbFlowState, ReimbGrade, lineChecks, type ReimbCheck } from '@zhyy/shared';
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

/** Another bill (not deleted) of the same person with the same category, date and amount. */
async function duplicateClaimBill(db: Db, billId: string | null, applicantId: string, l: CheckedLine): Promise<string | null> {
  let q = db
    .selectFrom('reimb_lines as l')
    .innerJoin('reimb_bills as b', 'b.id', 'l.bill_id')
    .select('b.bill_no')
    .where('b.applicant_id', '=', applicantId)
    .where('l.category_code', '=', l.categoryCode)
    .where('l.expense_date', '=', l.expenseDate)
    .where('l.amount', '=', l.amount);
  if (billId) q = q.where('b.id', '!=', billId);
  const hit = await q.orderBy('b.bill_no').executeTakeFirst();
  return hit?.bill_no ?? null;
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
export async function checkLines(db: Db, bill: { id: string | null; applicantId: string }, lines: readonly CheckedLine[], today = shanghaiDay()): Promise<ReimbCheck[][]> {
  const invoices = await invoiceRows(db, lines.flatMap((l) => (l.invoiceId ? [l.invoiceId] : [])));
  const ageDays = await reimbSetting(db, 'invoiceAgeDays');
  const unread = await unreadFilesOf(db, [...invoices.keys()]);
  // A blue invoice partly or wholly reversed by red invoices received backs only its net amount (issue 29).
  const reds = await redTotalsOf(db, [...invoices.keys()]);
  const needsGrade = lines.some((l) => l.travelKind);
  const grade = needsGrade ? await gradeOf(db, bill.applicantId) : '';
  const out: ReimbCheck[][] = [];
  for (const l of lines) {
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
        duplicateClaimBill: await duplicateClaimBill(db, bill.id, bill.applicantId, l),
        standard,
      }),
    );
  }
  return out;
}
