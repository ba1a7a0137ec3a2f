/**
 * The voucher of a reimbursement bill (记账凭证): for each line 借 its accounting subject (the line's
 * corrected one, else its category's from 报销设置) with the approved amount net of the deductible tax,
 * 借 应交税费—应交增值税（进项税额） with the deductible tax, 贷 其他应付款—员工报销 with the total approved
 * (the payable to the employee; the cashier's payment clears it later, outside this platform). Every
 * expense entry carries the bill's cost centre (辅助核算). A bill whose mapping is missing is not sent:
 * `VoucherPlan.problem` names what is missing.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { Voucher, VoucherEntry } from '../../../integrations/accounting/index.js';
import { shanghaiDay } from '../../../platform/listing.js';
import { costCentreOf } from '../settings/read.js';
import type { ReimbBillTable, ReimbLineTable } from '../tables.js';

type Db = Kysely<Database>;

export const INPUT_VAT = { code: '22210101', name: '应交税费—应交增值税（进项税额）' } as const;
export const PAYABLE = { code: '224101', name: '其他应付款—员工报销' } as const;

export const defaultSummary = (b: Pick<ReimbBillTable, 'bill_no' | 'applicant_name' | 'reason'>) => `报销 ${b.bill_no} ${b.applicant_name} ${b.reason}`.slice(0, 200);
export const approvedOf = (l: Pick<ReimbLineTable, 'approved_amount' | 'amount'>) => Number(l.approved_amount ?? l.amount);

export interface LineSubject {
  code: string;
  name: string;
}

export interface VoucherPlan {
  /** '' when the voucher can be made. */
  problem: string;
  voucher: Voucher | null;
  entries: VoucherEntry[];
  costCentre: { code: string; name: string } | null;
}

/** Each line's subject: its own when corrected on the edit page, else its category's. */
export async function lineSubjects(db: Db, lines: readonly ReimbLineTable[]): Promise<Map<string, LineSubject & { category: LineSubject }>> {
  const codes = [...new Set(lines.map((l) => l.category_code))];
  const cats = codes.length ? await db.selectFrom('reimb_categories').select(['code', 'name', 'subject_code', 'subject_name']).where('code', 'in', codes).execute() : [];
  const byCode = new Map(cats.map((c) => [c.code, c]));
  const m = new Map<string, LineSubject & { category: LineSubject }>();
  for (const l of lines) {
    const c = byCode.get(l.category_code);
    const category = { code: c?.subject_code ?? '', name: c?.subject_name ?? '' };
    m.set(l.id, l.subject_code ? { code: l.subject_code, name: l.subject_name || category.name, category } : { ...category, category });
  }
  return m;
}

/** The bill's cost centre: its own when corrected, else its department's from 报销设置. */
export async function billCostCentre(db: Db, b: Pick<ReimbBillTable, 'cost_centre_code' | 'cost_centre_name' | 'dept_id'>): Promise<{ code: string; name: string } | null> {
  if (b.cost_centre_code) return { code: b.cost_centre_code, name: b.cost_centre_name };
  const c = await costCentreOf(db, b.dept_id);
  return c ? { code: c.centre_code, name: c.centre_name } : null;
}

/**
 * The id the bill's next voucher is pushed under: the bill number, or `{bill number}-{n}` once n-1 of its
 * vouchers were reversed (红字冲销 keeps the original under its id in the accounting system, so a new
 * push under the same id would only answer the original).
 */
export async function voucherIdOf(db: Db, b: Pick<ReimbBillTable, 'id' | 'bill_no'>): Promise<string> {
  const r = await db.selectFrom('reimb_revocations').select((eb) => eb.fn.countAll<number>().as('n')).where('bill_id', '=', b.id).where('method', '=', 'reverse').where('state', '=', 1).executeTakeFirstOrThrow();
  const n = Number(r.n);
  return n ? `${b.bill_no}-${n + 1}` : b.bill_no;
}

export async function planVoucher(db: Db, b: ReimbBillTable, maker: string, at: Date = new Date()): Promise<VoucherPlan> {
  const lines = await db.selectFrom('reimb_lines').selectAll().where('bill_id', '=', b.id).orderBy('line_no').execute();
  const subjects = await lineSubjects(db, lines);
  const costCentre = await billCostCentre(db, b);
  const missing: string[] = [];
  for (const l of lines) {
    const s = subjects.get(l.id)!;
    if (!s.code || !s.name) {
      const m = `费用类别"${l.category_name}"未设置会计科目`;
      if (!missing.includes(m)) missing.push(m);
    }
  }
  if (!costCentre) missing.push(`部门"${b.dept_name || '未指定'}"未设置成本中心`);
  const total = lines.reduce((s, l) => s + approvedOf(l), 0);
  if (!lines.length || total <= 0) missing.push('报销单没有核定金额，无需入账');
  if (missing.length) return { problem: `${missing.join('；')}，请在报销设置或报销编辑中补充后再推送`, voucher: null, entries: [], costCentre };
  const summary = b.acct_summary || defaultSummary(b);
  const entries: VoucherEntry[] = [];
  let tax = 0;
  for (const l of lines) {
    const approved = approvedOf(l);
    const t = Math.min(Number(l.deductible_tax), approved);
    tax += t;
    const s = subjects.get(l.id)!;
    if (approved - t > 0) entries.push({ dc: 'debit', accountCode: s.code, accountName: s.name, amount: approved - t, summary: `${summary}（${l.category_name}）`.slice(0, 200), costCentre: costCentre! });
  }
  if (tax > 0) entries.push({ dc: 'debit', accountCode: INPUT_VAT.code, accountName: INPUT_VAT.name, amount: tax, summary: `${summary}（进项税额）`.slice(0, 200) });
  entries.push({ dc: 'credit', accountCode: PAYABLE.code, accountName: PAYABLE.name, amount: total, summary: `${summary}（应付${b.applicant_name}）`.slice(0, 200) });
  const date = shanghaiDay(at);
  const voucher: Voucher = {
    id: await voucherIdOf(db, b), date, period: date.slice(0, 7).replace('-', ''), summary: `${summary}【成本中心 ${costCentre!.code} ${costCentre!.name}】`.slice(0, 240), maker,
    sourceType: 'reimbursement', sourceNo: b.bill_no, entries,
  };
  return { problem: '', voucher, entries, costCentre };
}
