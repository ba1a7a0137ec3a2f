/**
 * The demo company's reimbursements (issue 15): twelve months of bills, about 700 a month (8,400), each
 * of 2 to 6 lines, from the demo staff with their departments; cost centres for every department and a
 * payee profile for every person. docs/reimbursement.md, "Demo data", describes the mix.
 *
 * - Travel bills (transport out and back: rail, air or coach tickets; hotel nights; the daily allowance;
 *   sometimes a taxi) and daily bills (taxi, 业务招待, 办公, 通讯, 会议, 培训, fuel, tolls, 项目现场, 快递).
 * - Every line except the allowance (差旅-补助 has no invoice) is backed by a pool invoice of its own
 *   (income_invoices + line, buyer the company; the tickets with their income_transport facts), held by
 *   the bill: usage 1 (locked) while the bill is not pushed, 2 (closed) once pushed, use_kind
 *   reimbursement, doc_no the bill number, an income_locks row and the pool's events; pushed ones booked
 *   (booking_state 02, booked_at the push). The 数电专票 among them are known to the simulated tax
 *   service and ticked like the rest of the pool (income-ticks.ts tickDemo), so 抵扣勾选 can tick them.
 * - Most approved bills are pushed (reimb_state 1) with vouchers 记-NNNN numbered per month in push order,
 *   each also in the accounting simulator's tables (accountingsim_vouchers / accountingsim_counters) so
 *   the simulator finds it; the last days' approved ones wait for 一键报销 (0); a few failed (2, with the
 *   message); a few were revoked (reimb_revocations, the bill back at 0, the invoices locked again); one
 *   or two revocations were refused by the accounting side (the bill stays pushed).
 * - The last days' bills wait for approval: real FY01 instances started through the workflow engine with
 *   record_type reimbursement and record_id the bill. The FY01 instances the workflow seed replays
 *   (seed/workflow.ts) become bills of their own (their form's lines, their state: 草稿, 审批中, 已退回,
 *   已通过). Older approved bills carry no workflow instance (work_id null): replaying 8,000 approvals
 *   through the engine would cost minutes.
 * - Sums: a bill's amount, approved amount, tax and deductible tax are its lines' sums; a line's tax is
 *   amount × rate / (1 + rate) rounded half up; deductible tax is the ticket's by the transport formulas.
 *
 * Written in multi-row inserts (seed/bulk.ts); ids UUID-shaped by number (incomeRowId, tables 0x91xx).
 * The bills' specs are drawn in reimbursementSpecs.ts, the approvals started in reimbursementApprovals.ts.
 */
import { INPUT_VAT, PAYABLE } from '../modules/reimbursement/accounting/voucher.js';
import type { Kysely } from 'kysely';
import { IncomeBookingState, IncomeUsage, ReimbFlowState, ReimbRevocationState, ReimbState, sellerKey } from '@zhyy/shared';
import type { Database } from '../db/schema.js';
import { formatVoucherNo, type Voucher } from '../integrations/accounting/index.js';
import { shanghaiMonth } from '../modules/income/signing/archive-no.js';
import type { IncomeEventTable, IncomeInvoiceTable, IncomeLineTable, IncomeLockTable } from '../modules/income/pool/tables.js';
import type { ReimbBillTable, ReimbLineTable, ReimbPushTable, ReimbRevocationTable } from '../modules/reimbursement/tables.js';
import { wf } from '../modules/workflow/tables.js';
import { demoId } from '../platform/ids.js';
import { bulkInsert } from './bulk.js';
import { DEPARTMENTS, type DemoUser } from './company.js';
import type { SeedContext } from './context.js';
import { incomeRowId as rowId } from './incomeData.js';
import { seedTicks, tickDemo } from './income-ticks.js';
import { transportOf } from './income.js';
import { startApprovals } from './reimbursementApprovals.js';
import { BANKS, expenseInvoice, taxInside } from './reimbursementData.js';
import { addReplayedSpecs, DAY, dayStart, drawSpecs, HOUR, type BillSpec, type Standard } from './reimbursementSpecs.js';
import { Rng } from './rng.js';

/** About 700 bills a month over twelve months (8,400). */
export const REIMB_DEMO_PER_MONTH = 700;
export { REIMB_DEMO_DAYS } from './reimbursementSpecs.js';
const SEED = 20261515;
const T = { bill: 0x9101, line: 0x9102, invoice: 0x9103, invLine: 0x9104, event: 0x9105, lock: 0x9106, push: 0x9107, revocation: 0x9108, tickLog: 0x9109 } as const;
/** Invoice numbers of the series 7 start here (the replayed FY01 bills' after the generated ones). */
const INVOICE_N0 = 10_000_000;
const pad = (n: number, w: number) => String(n).padStart(w, '0');
const iso = (ms: number) => new Date(ms).toISOString();
const shDay = (ms: number) => new Date(ms + 8 * HOUR).toISOString().slice(0, 10);
const FAIL_MESSAGES = ['会计系统拒绝凭证：科目未启用（模拟失败）', '无法连接会计系统，请稍后重试', '会计系统拒绝凭证：成本中心不存在'];
const REVOKE_REASONS = ['凭证摘要有误，需重新推送', '费用科目选择错误，更正后重新推送', '成本中心有误，需更正后重新推送'];
const REFUSED_REVOKE = '会计系统拒绝撤销：该凭证所属期间已结账';

export async function seedReimbursement(ctx: SeedContext): Promise<void> {
  const db = ctx.db;
  const rng = new Rng(SEED);
  const nowMs = ctx.now.getTime();
  const perMonth = ctx.reimbPerMonth ?? REIMB_DEMO_PER_MONTH;

  // Reference data: categories (migration 0033), standards and city tiers.
  const categories = new Map((await db.selectFrom('reimb_categories').selectAll().execute()).map((c) => [c.code, c]));
  const tiers = new Map((await db.selectFrom('reimb_city_tiers').selectAll().execute()).map((c) => [c.city, c.tier]));
  const standards = new Map((await db.selectFrom('reimb_travel_standards').selectAll().execute()).map((s) => [`${s.grade}:${s.city_tier}`, { hotel: Number(s.hotel_per_night), seats: s.seat_classes, allowance: Number(s.allowance_per_day) } as Standard]));

  // Cost centres for every department; payee profiles for every person (the company's leaders graded 公司领导).
  const depts = await db.selectFrom('departments').select(['id', 'name', 'manager_id']).orderBy('sort').execute();
  const centreOf = new Map(depts.map((d, i) => [d.id, { code: `CC${pad(101 + i, 4)}`, name: d.name }]));
  await bulkInsert(db, 'reimb_cost_centres', depts.map((d) => ({ dept_id: d.id, centre_code: centreOf.get(d.id)!.code, centre_name: centreOf.get(d.id)!.name, updated_at: iso(nowMs - 90 * DAY) })));
  const managers = new Set(depts.map((d) => d.manager_id).filter((x): x is string => !!x));
  const people = ctx.users.filter((u) => u.loginName !== 'admin');
  const payee = new Map(people.map((u) => [u.id, { bank: rng.pick(BANKS), account: `6222${pad(rng.int(0, 99_999_999), 8)}${pad(rng.int(0, 9_999_999), 7)}` }]));
  const gradeOf = (u: DemoUser) => (u.dept === 'company' ? 'leader' : managers.has(u.id) ? 'manager' : 'staff');
  await bulkInsert(db, 'reimb_profiles', people.map((u) => ({ user_id: u.id, grade: u.dept === 'company' ? 'leader' : '', payee_name: u.name, payee_bank: payee.get(u.id)!.bank, payee_account: payee.get(u.id)!.account, updated_at: iso(nowMs - 90 * DAY) })));
  const byId = new Map(ctx.users.map((u) => [u.id, u]));
  const deptName = (u: DemoUser) => DEPARTMENTS.find((d) => d.key === u.dept)?.name ?? '';

  // reimbPerMonth 0: reference data only (income-demo.test.ts checks the incoming pool alone at full volume).
  if (perMonth <= 0) return;

  // ---- The bills' specs (reimbursementSpecs.ts): the generated ones, then the replayed FY01 instances ----
  const specs = drawSpecs({ rng, nowMs, perMonth, people, gradeOf, categories, tiers, standards });
  await addReplayedSpecs(db, specs, byId);

  // Numbers BX{yyyyMM}{seq} by the month the bill was made, in order; the counters at each month's last.
  specs.sort((a, b) => a.ms - b.ms);
  const seqs = new Map<string, number>();
  specs.forEach((s, i) => {
    const m = shanghaiMonth(new Date(s.ms));
    seqs.set(m, (seqs.get(m) ?? 0) + 1);
    s.no = `BX${m}${pad(seqs.get(m)!, 4)}`;
    s.id = rowId(T.bill, i);
  });

  // Vouchers: numbered per month of the push, in push order (revoked ones took a number too).
  const vouchered = specs.filter((s) => ['pushed', 'revoked', 'revokeRefused'].includes(s.fate)).sort((a, b) => a.pushedMs - b.pushedMs);
  const vseq = new Map<string, number>();
  const voucherOf = new Map<BillSpec, { no: string; period: string; date: string; id: string }>();
  for (const s of vouchered) {
    const period = shanghaiMonth(new Date(s.pushedMs));
    vseq.set(period, (vseq.get(period) ?? 0) + 1);
    voucherOf.set(s, { no: formatVoucherNo(vseq.get(period)!), period, date: shDay(s.pushedMs), id: s.no! });
  }

  // ---- Rows ----
  const accountant = ctx.users.find((u) => u.loginName === 'demo12') ?? ctx.users[0]!;
  const bills: ReimbBillTable[] = [];
  const lines: ReimbLineTable[] = [];
  const invoices: IncomeInvoiceTable[] = [];
  const invLines: IncomeLineTable[] = [];
  const events: IncomeEventTable[] = [];
  const locks: IncomeLockTable[] = [];
  const pushes: ReimbPushTable[] = [];
  const revocations: ReimbRevocationTable[] = [];
  const simVouchers: Array<{ id: string; period: string; voucher_no: string; body: string; posted_at: string }> = [];
  const lineInvoice = new Map<string, IncomeInvoiceTable>();
  let n = 0;
  let ln = 0;
  for (const s of specs) {
    const u = s.applicant;
    const deptId = demoId(`dept:${u.dept}`);
    const centre = centreOf.get(deptId) ?? { code: '', name: '' };
    const approved = ['waiting', 'pushed', 'failed', 'revoked', 'revokeRefused'].includes(s.fate);
    const pushedNow = s.fate === 'pushed' || s.fate === 'revokeRefused';
    const v = voucherOf.get(s);
    const createdAt = iso(s.ms);
    const submittedAt = s.instance ? s.instance.submittedAt : s.fate === 'draft' ? null : iso(s.ms + 5 * 60_000);
    const approvedAt = s.instance ? s.instance.approvedAt : approved ? iso(s.approvedMs) : null;
    const billLines: ReimbLineTable[] = [];
    for (const [k, l] of s.lines.entries()) {
      const cat = categories.get(l.code)!;
      const lineId = rowId(T.line, ln++);
      let invoice: IncomeInvoiceTable | null = null;
      const rate = l.src ? (l.src.lineRate ?? l.src.rate) : '0';
      if (l.src) {
        const at = Math.min(s.ms - 10 * 60_000, dayStart(l.date) + 9 * HOUR + rng.int(0, 10 * 3600) * 1000);
        const inv = expenseInvoice(l.src, INVOICE_N0 + n, { id: rowId(T.invoice, n), lineId: rowId(T.invLine, n), issueDate: l.date, at: iso(at), gross: l.gross, passenger: u.name });
        invoice = inv.row;
        const usage = pushedNow ? IncomeUsage.closed : IncomeUsage.locked;
        Object.assign(invoice, {
          usage, use_kind: 'reimbursement', doc_no: s.no, updated_at: pushedNow ? iso(s.pushedMs) : createdAt,
          ...(pushedNow ? { booking_state: IncomeBookingState.bookedDeduct, booked_at: iso(s.pushedMs) } : {}),
        });
        invoices.push(invoice);
        invLines.push(inv.line);
        events.push({ id: rowId(T.event, n * 3), invoice_id: invoice.id, kind: 'arrive', message: `${invoice.source === 2 ? '上传' : '采集'}进入票池`, user_name: invoice.source === 2 ? u.name : '', created_at: iso(at) });
        events.push({ id: rowId(T.event, n * 3 + 1), invoice_id: invoice.id, kind: 'lock', message: `被报销单 ${s.no} 占用`, user_name: u.name, created_at: createdAt });
        if (pushedNow) events.push({ id: rowId(T.event, n * 3 + 2), invoice_id: invoice.id, kind: 'close', message: `报销单 ${s.no} 完成使用（已关闭）`, user_name: accountant.name, created_at: iso(s.pushedMs) });
        locks.push({ id: rowId(T.lock, n), invoice_id: invoice.id, use_kind: 'reimbursement', doc_no: s.no!, state: pushedNow ? 'closed' : 'locked', active: 1, created_at: createdAt, ended_at: pushedNow ? iso(s.pushedMs) : null });
        lineInvoice.set(lineId, invoice);
        n++;
      }
      billLines.push({
        id: lineId, bill_id: s.id!, line_no: k + 1, category_code: l.code, category_name: cat.name, expense_date: l.date, description: l.description, city: l.city, nights: l.nights, seat_class: l.seat,
        amount: l.gross, tax_rate: rate, tax: taxInside(l.gross, rate), approved_amount: approved ? l.approved : null, approve_note: approved && l.approved !== null ? l.note : '', approved_by: approved && l.approved !== null ? accountant.name : '',
        deductible_tax: 0, invoice_id: invoice?.id ?? null, invoice_number: invoice ? invoice.digital_no || invoice.invoice_no : '', subject_code: cat.subject_code, subject_name: cat.subject_name, checks: '[]',
        seller_name: invoice?.seller_name ?? '', seller_key: sellerKey(invoice?.seller_name ?? ''),
      });
    }
    lines.push(...billLines);
    const fate = s.fate;
    const reimbState = !approved ? null : fate === 'pushed' || fate === 'revokeRefused' ? ReimbState.success : fate === 'failed' ? ReimbState.failed : ReimbState.unReimburse;
    const summary = `报销${u.name}${s.reason}`.slice(0, 60);
    const bill: ReimbBillTable = {
      id: s.id!, bill_no: s.no!, applicant_id: u.id, applicant_name: u.name, dept_id: deptId, dept_name: deptName(u), project_id: null, project_name: s.project, contract_no: '',
      period_from: s.from <= s.to ? s.from : s.to, period_to: s.from <= s.to ? s.to : s.from, reason: s.reason, payee_name: u.name, payee_bank: payee.get(u.id)?.bank ?? '', payee_account: payee.get(u.id)?.account ?? '',
      flow_state: fate === 'draft' ? ReimbFlowState.draft : fate === 'approving' ? ReimbFlowState.approving : fate === 'returned' ? ReimbFlowState.returned : ReimbFlowState.approved,
      work_id: s.instance?.workId ?? null, reimb_state: reimbState,
      amount: 0, approved_amount: 0, tax: 0, deductible_tax: 0, line_count: billLines.length,
      acct_summary: summary, cost_centre_code: centre.code, cost_centre_name: centre.name,
      voucher_id: pushedNow ? v!.id : '', voucher_no: pushedNow ? v!.no : '', voucher_period: pushedNow ? v!.period : '', voucher_date: pushedNow ? v!.date : '',
      push_message: fate === 'failed' ? rng.pick(FAIL_MESSAGES) : '', push_claimed_until: null, reverse_claimed_until: null,
      pushed_at: pushedNow || fate === 'failed' ? iso(s.pushedMs) : null, pushed_by: pushedNow || fate === 'failed' ? accountant.name : '',
      submitted_at: submittedAt, approved_at: approvedAt, created_at: createdAt, updated_at: iso(Math.max(s.ms, fate === 'pushed' || fate === 'failed' || fate === 'revokeRefused' ? s.pushedMs : approved ? s.approvedMs : s.ms)),
    };
    bills.push(bill);
    if (fate === 'pushed' || fate === 'failed' || fate === 'revoked' || fate === 'revokeRefused') {
      const ok = fate !== 'failed';
      pushes.push({ id: rowId(T.push, pushes.length), bill_id: bill.id, action: 'push', ok: ok ? 1 : 0, voucher_no: ok ? v!.no : '', message: ok ? `凭证推送成功，凭证号 ${v!.period} ${v!.no}` : bill.push_message, user_name: accountant.name, created_at: iso(s.pushedMs) });
    }
    if (fate === 'revoked' || fate === 'revokeRefused') {
      const at = Math.min(nowMs - 60_000, s.pushedMs + rng.int(1, 5) * DAY);
      const done = fate === 'revoked';
      const message = done ? `凭证 ${v!.period} ${v!.no} 已撤销` : REFUSED_REVOKE;
      revocations.push({ id: rowId(T.revocation, revocations.length), bill_id: bill.id, bill_no: bill.bill_no, voucher_no: v!.no, voucher_period: v!.period, reason: rng.pick(REVOKE_REASONS), state: done ? ReimbRevocationState.done : ReimbRevocationState.refused, message, requested_by: accountant.id, requested_by_name: accountant.name, created_at: iso(at), method: 'delete', reversal_voucher_no: '', reversal_period: '' });
      pushes.push({ id: rowId(T.push, pushes.length), bill_id: bill.id, action: 'revoke', ok: done ? 1 : 0, voucher_no: v!.no, message, user_name: accountant.name, created_at: iso(at) });
      if (done) bill.updated_at = iso(at);
    }
    if (pushedNow) {
      const body: Voucher = {
        id: v!.id, date: v!.date, period: v!.period, summary, maker: accountant.name, sourceType: 'reimbursement', sourceNo: bill.bill_no,
        entries: [],
      };
      simVouchers.push({ id: v!.id, period: v!.period, voucher_no: v!.no, body: JSON.stringify(body), posted_at: iso(s.pushedMs) });
    }
  }
  // Deductible tax of the tickets (the transport formulas), then the sums and the vouchers' entries.
  const transport = transportOf(invoices, invLines);
  const formulaTax = new Map(transport.map((t) => [t.invoice_id, t.formula_tax]));
  const billOf = new Map(bills.map((b) => [b.id, b]));
  const linesOf = new Map<string, ReimbLineTable[]>();
  for (const l of lines) {
    const inv = lineInvoice.get(l.id);
    if (inv && l.category_code === '0101') l.deductible_tax = formulaTax.get(inv.id) ?? 0;
    const b = billOf.get(l.bill_id)!;
    b.amount += l.amount;
    b.approved_amount += l.approved_amount ?? l.amount;
    b.tax += l.tax;
    b.deductible_tax += l.deductible_tax;
    linesOf.set(l.bill_id, [...(linesOf.get(l.bill_id) ?? []), l]);
  }
  const simById = new Map(simVouchers.map((x) => [x.id, x]));
  for (const b of bills) {
    const sv = simById.get(b.voucher_id);
    if (!sv) continue;
    const body = JSON.parse(sv.body) as Voucher;
    const bySubject = new Map<string, { name: string; amount: number }>();
    for (const l of linesOf.get(b.id) ?? []) {
      const e = bySubject.get(l.subject_code) ?? { name: l.subject_name, amount: 0 };
      e.amount += (l.approved_amount ?? l.amount) - l.deductible_tax;
      bySubject.set(l.subject_code, e);
    }
    body.entries = [...bySubject].map(([code, e]) => ({ dc: 'debit' as const, accountCode: code, accountName: e.name, amount: e.amount }));
    if (b.deductible_tax > 0) body.entries.push({ dc: 'debit', accountCode: INPUT_VAT.code, accountName: INPUT_VAT.name, amount: b.deductible_tax });
    body.entries.push({ dc: 'credit', accountCode: PAYABLE.code, accountName: PAYABLE.name, amount: b.approved_amount });
    sv.body = JSON.stringify(body);
  }

  // The 数电专票 among them are the tax service's too: known to it, ticked like the rest of the pool.
  const ticks = tickDemo(invoices, ctx.now, ctx.users, T.tickLog);

  await bulkInsert(db, 'reimb_bills', bills);
  await bulkInsert(db, 'reimb_lines', lines);
  await bulkInsert(db, 'income_invoices', invoices);
  await seedTicks(db, ticks);
  await bulkInsert(db, 'income_invoice_lines', invLines);
  await bulkInsert(db, 'income_transport', transport);
  await bulkInsert(db, 'income_events', events);
  await bulkInsert(db, 'income_locks', locks);
  await bulkInsert(db, 'reimb_pushes', pushes);
  await bulkInsert(db, 'reimb_revocations', revocations);
  await bulkInsert(db, 'reimb_counters', [...seqs].map(([month, seq]) => ({ month, seq })));
  const sim = db.withTables<{ accountingsim_vouchers: (typeof simVouchers)[number]; accountingsim_counters: { period: string; seq: number } }>();
  await bulkInsert(sim as unknown as Kysely<Database>, 'accountingsim_vouchers' as keyof Database & string, simVouchers);
  await bulkInsert(sim as unknown as Kysely<Database>, 'accountingsim_counters' as keyof Database & string, [...vseq].map(([period, seq]) => ({ period, seq })));

  // The replayed FY01 instances belong to their bills now.
  for (const s of specs.filter((x) => x.instance)) {
    await wf(db).updateTable('wf_instances').set({ record_type: 'reimbursement', record_id: s.id! }).where('work_id', '=', s.instance!.workId).execute();
  }
  // The last days' bills go through approval: real FY01 instances started through the engine.
  await startApprovals(ctx, specs.filter((s) => s.fate === 'approving' && !s.instance), bills, lines, rng);
}

