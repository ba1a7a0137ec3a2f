/**
 * The bill editor's form values and what they become: the save call's body, the values a bill opens with,
 * and a line's amount — typed as text in 元 and read with the shared rule (readAmountInput), so a bad figure
 * ("-50", "abc", above REIMB_MAX_AMOUNT) is marked on its field and never silently becomes 0.00 (issue 31 #7).
 */
import type { Rule } from 'antd/es/form';
import dayjs, { type Dayjs } from 'dayjs';
import { REIMB_MAX_AMOUNT, REIMB_MAX_AMOUNT_MESSAGE, TRAVEL_CLASSES, daysBetween, formatFen, readAmountInput, sameBillDuplicates, sellerKey, type DuplicateClaimMatch, type ReimbBillDetail, type ReimbCheck } from '@zhyy/shared';

export interface LineValues {
  categoryCode?: string;
  expenseDate?: Dayjs;
  description?: string;
  city?: string;
  nights?: number | null;
  seatClass?: string;
  /** As typed, in 元 (e.g. "2,020.90"). */
  amount?: string;
  taxRate?: string;
  invoiceId?: string | null;
  /** 收款方 of a line without an invoice (the invoice's seller stands for a line with one). */
  sellerName?: string;
}
export interface Values {
  period?: [Dayjs, Dayjs];
  reason?: string;
  projectName?: string;
  contractNo?: string;
  payeeName?: string;
  payeeBank?: string;
  payeeAccount?: string;
  saveAsDefault?: boolean;
  lines?: LineValues[];
}

/** The seat classes a transport line may name: the shared order (travel-classes.ts), vehicle by vehicle, lowest first. */
export const SEATS = TRAVEL_CLASSES;
export const day = (d: Dayjs) => d.format('YYYY-MM-DD');

/** A line's amount as the form shows it: 分 → "2,020.90". */
export const amountText = (fen: number | null | undefined): string => (fen ? formatFen(fen) : '');

/** The problem with a typed amount, or null when it is a good one (more than 0, at most REIMB_MAX_AMOUNT). */
export function amountProblem(text: string | undefined): string | null {
  const raw = (text ?? '').trim();
  if (raw === '') return '请输入金额';
  if (raw.startsWith('-') || raw.startsWith('－')) return '金额不能为负数';
  const a = readAmountInput(raw, { label: '金额' });
  if (!a.ok) return a.error;
  if (a.fen <= 0) return '金额必须大于0';
  if (a.fen > REIMB_MAX_AMOUNT) return REIMB_MAX_AMOUNT_MESSAGE;
  return null;
}

/** A typed amount in 分 for the sums while typing: 0 while it is not a good one (its field says why). */
export function amountFen(text: string | undefined): number {
  if (amountProblem(text)) return 0;
  const a = readAmountInput(text, { label: '金额' });
  return a.ok ? a.fen : 0;
}

/** The form rule of a line's amount: the problem shown on the field. */
export const amountRule: Rule = {
  validator: async (_: unknown, v: string | undefined) => {
    const p = amountProblem(v);
    if (p) throw new Error(p);
  },
};

/**
 * The same receipt entered twice in this bill, found while typing (issue 32 #4 within a bill; the server finds the
 * same on save, checks.ts): each line's matches with the other lines by the shared rule. The seller is the
 * invoice's (sellerOf) or the 收款方 typed; the lines have no ids before the save, so the references name only the line.
 */
export function typedDuplicates(lines: readonly LineValues[], sellerOf: (invoiceId: string) => string): DuplicateClaimMatch[][] {
  const facts = lines.map((l) => {
    const seller = (l.invoiceId ? sellerOf(l.invoiceId) : l.sellerName) ?? '';
    return { seller, sellerKey: sellerKey(seller), amount: amountFen(l.amount), expenseDate: l.expenseDate ? day(l.expenseDate) : '', categoryCode: l.categoryCode ?? '', hasInvoice: !!l.invoiceId };
  });
  return sameBillDuplicates(facts).map((js, i) =>
    js.map((j) => {
      const m = facts[j]!;
      return {
        ref: { billId: '', billNo: '', lineId: '', lineNo: j + 1, applicantName: '', expenseDate: m.expenseDate, amount: m.amount, sellerName: m.seller.trim(), days: Math.abs(daysBetween(facts[i]!.expenseDate, m.expenseDate)) },
        sameApplicant: true,
        bySeller: !!m.sellerKey,
        sameBill: true,
      };
    }),
  );
}

/** A stored finding of a match within the bill (the editor finds those again while typing): its reference names this bill. */
export const isInBillMatch = (c: ReimbCheck, billId: string | undefined) => c.code === 'duplicateClaim' && (c.ref ? c.ref.billId === billId : c.message.startsWith('与本单'));

export function toSaveBody(v: Values, id?: string) {
  return {
    ...(id ? { id } : {}),
    periodFrom: v.period?.[0] ? day(v.period[0]) : '',
    periodTo: v.period?.[1] ? day(v.period[1]) : '',
    reason: v.reason ?? '',
    projectName: v.projectName ?? '',
    contractNo: v.contractNo ?? '',
    payeeName: v.payeeName ?? '',
    payeeBank: v.payeeBank ?? '',
    payeeAccount: v.payeeAccount ?? '',
    saveAsDefault: !!v.saveAsDefault,
    lines: (v.lines ?? []).map((l) => ({
      categoryCode: l.categoryCode ?? '',
      expenseDate: l.expenseDate ? day(l.expenseDate) : '',
      description: l.description ?? '',
      city: l.city ?? '',
      nights: l.nights ?? null,
      seatClass: l.seatClass ?? '',
      amount: amountFen(l.amount),
      taxRate: l.taxRate ?? '',
      invoiceId: l.invoiceId ?? null,
      sellerName: l.invoiceId ? '' : (l.sellerName ?? '').trim(),
    })),
  };
}

export function initialValues(b: ReimbBillDetail | undefined, payee: { payeeName: string; payeeBank: string; payeeAccount: string } | undefined): Values {
  if (!b)
    return {
      period: [dayjs().startOf('month'), dayjs()],
      payeeName: payee?.payeeName,
      payeeBank: payee?.payeeBank,
      payeeAccount: payee?.payeeAccount,
      lines: [{ expenseDate: dayjs() }],
    };
  return {
    period: [dayjs(b.periodFrom), dayjs(b.periodTo)],
    reason: b.reason,
    projectName: b.projectName,
    contractNo: b.contractNo,
    payeeName: b.payeeName,
    payeeBank: b.payeeBank,
    payeeAccount: b.payeeAccount,
    lines: b.lines.map((l) => ({
      categoryCode: l.categoryCode,
      expenseDate: dayjs(l.expenseDate),
      description: l.description,
      city: l.city,
      nights: l.nights,
      seatClass: l.seatClass,
      amount: amountText(l.amount),
      taxRate: l.taxRate,
      invoiceId: l.invoiceId,
      sellerName: l.invoiceId ? '' : l.sellerName,
    })),
  };
}
