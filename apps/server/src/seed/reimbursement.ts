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
 */
import { INPUT_VAT, PAYABLE } from '../modules/reimbursement/accounting/voucher.js';
import type { Kysely } from 'kysely';
import { FlowState, IncomeBookingState, IncomeUsage, ReimbFlowState, ReimbRevocationState, ReimbState } from '@zhyy/shared';
import type { Database } from '../db/schema.js';
import { formatVoucherNo, type Voucher } from '../integrations/accounting/index.js';
import { shanghaiMonth } from '../modules/income/signing/archive-no.js';
import type { IncomeEventTable, IncomeInvoiceTable, IncomeLineTable, IncomeLockTable } from '../modules/income/pool/tables.js';
import type { ReimbBillTable, ReimbLineTable, ReimbPushTable, ReimbRevocationTable } from '../modules/reimbursement/tables.js';
import { WorkflowEngine } from '../modules/workflow/engine.js';
import type { Actor } from '../modules/workflow/engine-core.js';
import type { FieldBase, FlowDefinition } from '@zhyy/shared';
import { OutcomeRegistry } from '../modules/workflow/outcomes.js';
import { wf } from '../modules/workflow/tables.js';
import { demoId } from '../platform/ids.js';
import { bulkInsert } from './bulk.js';
import { DEPARTMENTS, type DemoUser } from './company.js';
import type { SeedContext } from './index.js';
import { incomeRowId as rowId, shanghaiDayBefore } from './incomeData.js';
import { seedTicks, tickDemo } from './income-ticks.js';
import { transportOf } from './income.js';
import { Rng } from './rng.js';
import {
  AIR, BANKS, categoryOfFormOption, DAILY_REASONS, DESTINATIONS, expenseInvoice, formCategoryOf, HOTELS, pickDaily, RAIL, ROAD, seatOf, sourceOfCategory, taxInside, TRAVEL_REASONS,
  type ExpenseSource,
} from './reimbursementData.js';

/** About 700 bills a month over twelve months (8,400). */
export const REIMB_DEMO_PER_MONTH = 700;
export const REIMB_DEMO_DAYS = 360;
const SEED = 20261515;
const T = { bill: 0x9101, line: 0x9102, invoice: 0x9103, invLine: 0x9104, event: 0x9105, lock: 0x9106, push: 0x9107, revocation: 0x9108, tickLog: 0x9109 } as const;
/** Invoice numbers of the series 7 start here (the replayed FY01 bills' after the generated ones). */
const INVOICE_N0 = 10_000_000;
const DAY = 86_400_000;
const HOUR = 3_600_000;
const pad = (n: number, w: number) => String(n).padStart(w, '0');
const iso = (ms: number) => new Date(ms).toISOString();
const shDay = (ms: number) => new Date(ms + 8 * HOUR).toISOString().slice(0, 10);
const dayStart = (day: string) => Date.parse(`${day}T00:00:00+08:00`);
const FAIL_MESSAGES = ['会计系统拒绝凭证：科目未启用（模拟失败）', '无法连接会计系统，请稍后重试', '会计系统拒绝凭证：成本中心不存在'];
const REVOKE_REASONS = ['凭证摘要有误，需重新推送', '费用科目选择错误，更正后重新推送', '成本中心有误，需更正后重新推送'];
const REFUSED_REVOKE = '会计系统拒绝撤销：该凭证所属期间已结账';

type Fate = 'draft' | 'approving' | 'returned' | 'waiting' | 'pushed' | 'failed' | 'revoked' | 'revokeRefused';

interface LineSpec {
  code: string;
  src: ExpenseSource | null;
  date: string;
  gross: number;
  city: string;
  nights: number | null;
  seat: string;
  description: string;
  approved: number | null;
  note: string;
}

interface BillSpec {
  ms: number;
  applicant: DemoUser;
  reason: string;
  from: string;
  to: string;
  project: string;
  lines: LineSpec[];
  fate: Fate;
  approvedMs: number;
  pushedMs: number;
  /** A replayed FY01 instance this bill belongs to. */
  instance?: { workId: number; submittedAt: string | null; approvedAt: string | null };
  id?: string;
  no?: string;
}

interface Standard {
  hotel: number;
  seats: string;
  allowance: number;
}

const actorOf = (u: DemoUser): Actor => ({ id: u.id, name: u.name, roles: u.roles, deptId: demoId(`dept:${u.dept}`), deptName: DEPARTMENTS.find((d) => d.key === u.dept)?.name ?? '' });

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

  // ---- The bills' specs ----
  const total = Math.max(12, Math.round(perMonth * 12));
  const specs: BillSpec[] = [];
  const destWeight = DESTINATIONS.reduce((a, [, w]) => a + w, 0);
  const pickDest = () => {
    let r = rng.next() * destWeight;
    for (const [c, w] of DESTINATIONS) if ((r -= w) < 0) return c;
    return DESTINATIONS[0]![0];
  };
  for (let i = 0; i < total; i++) {
    const ms = Math.min(nowMs - 30 * 60_000, nowMs - Math.round(((total - i) / total) * REIMB_DEMO_DAYS * DAY) + rng.int(0, 20 * 3600) * 1000);
    const applicant = rng.pick(people);
    const grade = gradeOf(applicant);
    const to = shanghaiDayBefore(new Date(ms), rng.int(1, 12));
    const lines: LineSpec[] = [];
    let from = to;
    let reason: string;
    if (rng.chance(0.45)) {
      // A trip: out and back, hotel nights, the allowance, sometimes a taxi.
      const city = pickDest();
      const nights = rng.int(1, 4);
      from = shanghaiDayBefore(new Date(dayStart(to) + 12 * HOUR), nights);
      const tier = tiers.get(city) ?? 3;
      const st = standards.get(`${grade}:${tier}`) ?? { hotel: 40_000, seats: '二等座', allowance: 8_000 };
      const src = tier === 1 && ['北京', '广州', '深圳'].includes(city) ? (rng.chance(0.7) ? AIR : RAIL) : rng.chance(0.85) ? RAIL : ROAD;
      const fare = rng.int(src.min, src.max);
      for (const [date, dir] of [[from, '去程'], [to, '返程']] as const) {
        lines.push({ code: '0101', src, date, gross: fare + rng.int(-500, 500), city, nights: null, seat: seatOf(src.kind, rng.next(), grade === 'leader'), description: `南京—${city}${dir}`.replace(/—(.+)返程$/, (_, c) => `${c}—南京返程`), approved: null, note: '' });
      }
      const price = Math.round((st.hotel * (0.55 + 0.6 * rng.next())) / 100) * 100;
      const hotel: LineSpec = { code: '0102', src: rng.pick(HOTELS), date: to, gross: price * nights, city, nights, seat: '', description: `${city}住宿${nights}晚`, approved: null, note: '' };
      if (price > st.hotel && rng.chance(0.6)) Object.assign(hotel, { approved: st.hotel * nights, note: '超出住宿标准，按标准核定' });
      lines.push(hotel);
      if (rng.chance(0.8)) lines.push({ code: '0103', src: null, date: to, gross: st.allowance * (nights + 1), city, nights: nights + 1, seat: '', description: `出差补助${nights + 1}天`, approved: null, note: '' });
      if (rng.chance(0.3)) {
        const taxi = sourceOfCategory('0201');
        lines.push({ code: '0201', src: taxi, date: from, gross: rng.int(taxi.min, taxi.max), city, nights: null, seat: '', description: `${city}市内交通`, approved: null, note: '' });
      }
      reason = `赴${city}${rng.pick(TRAVEL_REASONS)}`;
    } else {
      const n = rng.int(2, 6);
      from = shanghaiDayBefore(new Date(dayStart(to) + 12 * HOUR), rng.int(3, 25));
      const span = Math.round((dayStart(to) - dayStart(from)) / DAY);
      for (let k = 0; k < n; k++) {
        const src = pickDaily(rng.next());
        const date = shanghaiDayBefore(new Date(dayStart(to) + 12 * HOUR), rng.int(0, span));
        const gross = Math.round(src.min * (src.max / src.min) ** rng.next());
        lines.push({ code: src.category, src, date, gross, city: '', nights: null, seat: '', description: `${categories.get(src.category)?.name ?? ''}${src.category === '0301' ? '（客户接待）' : ''}`, approved: null, note: '' });
      }
      lines.sort((a, b) => a.date.localeCompare(b.date));
      reason = rng.pick(DAILY_REASONS);
    }
    const approvedMs = ms + rng.int(1, 4) * DAY + rng.int(0, 8 * 3600) * 1000;
    const pushedMs = approvedMs + rng.int(1, 8) * DAY + rng.int(0, 6 * 3600) * 1000;
    const fate: Fate = approvedMs >= nowMs || i >= total - 3 ? 'approving' : pushedMs >= nowMs ? 'waiting' : 'pushed';
    specs.push({ ms, applicant, reason, from, to, project: '', lines, fate, approvedMs, pushedMs });
  }
  // At least a few waiting for 一键报销; a few failed, revoked, revocations refused — among the last 90 days' pushed ones.
  const pushed = specs.filter((s) => s.fate === 'pushed');
  const recent = pushed.filter((s) => s.pushedMs > nowMs - 90 * DAY);
  const take = (n: number, from: BillSpec[], fate: Fate) => {
    for (let k = 0; k < n; k++) {
      const cands = from.filter((s) => s.fate === 'pushed');
      if (!cands.length) return;
      cands[rng.int(0, cands.length - 1)]!.fate = fate;
    }
  };
  const waiting = specs.filter((s) => s.fate === 'waiting').length;
  if (waiting < 3) pushed.slice(-(3 - waiting)).forEach((s) => (s.fate = 'waiting'));
  take(Math.max(2, Math.round(total * 0.012)), recent, 'failed');
  take(Math.max(2, Math.round(total * 0.008)), recent, 'revoked');
  take(Math.max(1, Math.round(total * 0.002)), recent, 'revokeRefused');
  // The company's leaders have nobody above them for the department-manager step: bills in approval are the staff's.
  const staff = people.filter((u) => u.dept !== 'company');
  for (const s of specs) if (s.fate === 'approving' && s.applicant.dept === 'company') s.applicant = rng.pick(staff);

  // The FY01 instances the workflow seed replayed become bills of their own.
  const replayed = await wf(db)
    .selectFrom('wf_instances')
    .select(['work_id', 'starter_id', 'state', 'form_data', 'created_at', 'started_at', 'finished_at'])
    .where('flow_no', '=', 'FY01')
    .where('record_id', 'is', null)
    .where('state', '<>', FlowState.deleted)
    .orderBy('work_id')
    .execute();
  for (const inst of replayed) {
    const applicant = byId.get(inst.starter_id);
    if (!applicant) continue;
    const form = JSON.parse(inst.form_data) as { reason?: string; period?: [string, string]; project?: string; lines?: Array<{ category: string; date: string; description?: string; amount: number }> };
    const ms = Date.parse(inst.created_at);
    const lines: LineSpec[] = (form.lines ?? []).map((l) => {
      const code = categoryOfFormOption(l.category);
      const hotel = code === '0102';
      return { code, src: sourceOfCategory(code), date: l.date, gross: Number(l.amount), city: hotel ? '上海' : '', nights: hotel ? Math.max(1, Math.min(5, Math.round(Number(l.amount) / 45_000))) : null, seat: '', description: l.description ?? '', approved: null, note: '' };
    });
    if (!lines.length) continue;
    const fate: Fate = inst.state === FlowState.draft ? 'draft' : inst.state === FlowState.returned ? 'returned' : inst.state === FlowState.complete ? 'waiting' : 'approving';
    const [from, to] = form.period ?? [lines[0]!.date, lines[0]!.date];
    specs.push({
      ms, applicant, reason: form.reason ?? '费用报销', from, to, project: form.project ?? '', lines, fate, approvedMs: inst.finished_at ? Date.parse(inst.finished_at) : 0, pushedMs: 0,
      instance: { workId: Number(inst.work_id), submittedAt: inst.started_at, approvedAt: inst.finished_at },
    });
  }

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
      push_message: fate === 'failed' ? rng.pick(FAIL_MESSAGES) : '', push_claimed_until: null,
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
      revocations.push({ id: rowId(T.revocation, revocations.length), bill_id: bill.id, bill_no: bill.bill_no, voucher_no: v!.no, voucher_period: v!.period, reason: rng.pick(REVOKE_REASONS), state: done ? ReimbRevocationState.done : ReimbRevocationState.refused, message, requested_by: accountant.id, requested_by_name: accountant.name, created_at: iso(at) });
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

const clip = (v: string, f: FieldBase) => (f.maxLength ? v.slice(0, f.maxLength) : v);
/**
 * The FY01 form of a bill, filled from the template's current definition (so a changed form still gets
 * its values): the known keys (reason, period, project, payee, bankAccount, lines, amount, files), then
 * every other field by its type.
 */
export function fy01Form(def: FlowDefinition, b: ReimbBillTable, ls: ReimbLineTable[], u: DemoUser): Record<string, unknown> {
  const total = ls.reduce((a, l) => a + l.amount, 0);
  const deptId = demoId(`dept:${u.dept}`);
  const scalar = (f: FieldBase & { type: string }, l?: ReimbLineTable): unknown => {
    switch (f.type) {
      case 'text':
      case 'textarea':
        return clip(l ? l.description || l.category_name : f.key === 'payee' ? b.payee_name : f.key === 'bankAccount' ? b.payee_account : f.key === 'project' ? b.project_name : f.key === 'billNo' ? b.bill_no : b.reason, f);
      case 'number':
        return Math.max(1, f.min ?? 1);
      case 'money':
        return l ? l.amount : total;
      case 'date':
        return l ? l.expense_date : b.period_to;
      case 'select': {
        const opts = f.options ?? [];
        const want = l ? [formCategoryOf(l.category_code), l.category_name] : [];
        return want.find((w) => opts.includes(w)) ?? opts.at(-1) ?? '';
      }
      default:
        return '';
    }
  };
  const out: Record<string, unknown> = {};
  for (const f of def.form) {
    if (f.type === 'dateRange') out[f.key] = [b.period_from, b.period_to];
    else if (f.type === 'attachments') out[f.key] = [];
    else if (f.type === 'user') out[f.key] = { id: u.id, name: u.name };
    else if (f.type === 'dept') out[f.key] = { id: deptId, name: b.dept_name };
    else if (f.type === 'table') out[f.key] = ls.map((l) => Object.fromEntries((f.columns ?? []).map((c) => [c.key, scalar(c, l)])));
    else out[f.key] = scalar(f);
  }
  return out;
}

/** Starts an FY01 instance for each bill (record_type reimbursement, record_id the bill) and moves some of them on. */
async function startApprovals(ctx: SeedContext, specs: BillSpec[], bills: ReimbBillTable[], lines: ReimbLineTable[], rng: Rng): Promise<void> {
  const clock = { t: 0 };
  const engine = new WorkflowEngine({ kysely: ctx.db, dialect: 'sqlite', close: async () => undefined }, new OutcomeRegistry(), () => new Date(clock.t));
  const byId = new Map(ctx.users.map((u) => [u.id, u]));
  const billById = new Map(bills.map((b) => [b.id, b]));
  const limit = ctx.now.getTime() - 60_000;
  const tpl = await wf(ctx.db).selectFrom('wf_templates').select('definition').where('flow_no', '=', 'FY01').where('is_current', '=', 1).executeTakeFirst();
  if (!tpl) return;
  const def = JSON.parse(tpl.definition) as FlowDefinition;
  for (const s of specs) {
    const b = billById.get(s.id!)!;
    const u = s.applicant;
    const ls = lines.filter((l) => l.bill_id === b.id);
    const form = fy01Form(def, b, ls, u);
    clock.t = Math.min(limit, Date.parse(b.submitted_at ?? b.created_at));
    const moved = await engine.start(actorOf(u), { flowNo: 'FY01', title: `费用报销 ${b.bill_no}：${b.reason}`, form }, ctx.db, { recordType: 'reimbursement', recordId: b.id });
    let state: number = moved.state;
    for (let m = rng.int(0, 2); m > 0 && state === FlowState.running; m--) {
      clock.t = Math.min(limit, clock.t + rng.int(30, 600) * 60_000);
      const open = await wf(ctx.db).selectFrom('wf_work_items').select(['handler_id']).where('work_id', '=', moved.workId).where('state', '=', 0).orderBy('handler_name').execute();
      const who = open.length ? byId.get(open[0]!.handler_id) : undefined;
      if (!who) break;
      state = (await engine.send(actorOf(who), { workId: moved.workId, opinion: '同意' }, ctx.db)).state;
    }
    const set: Partial<ReimbBillTable> = { work_id: moved.workId };
    if (state === FlowState.complete) Object.assign(set, { flow_state: ReimbFlowState.approved, reimb_state: ReimbState.unReimburse, approved_at: new Date(clock.t).toISOString() });
    await ctx.db.updateTable('reimb_bills').set(set).where('id', '=', b.id).execute();
  }
}
