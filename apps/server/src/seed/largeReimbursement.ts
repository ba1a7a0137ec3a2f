/**
 * The large mode of 费用报销 (`npm run seed -- --bills 100000`, issue 30): appends generated reimbursement
 * bills with 1–5 lines each to a database that holds the demo company, in batches, each batch in its
 * own transaction. Bill i is a pure function of i and the demo's reference data (its own seeded stream),
 * so a load is the same on every machine and resumes where it stopped (the bills of the large series
 * already there are skipped).
 *
 * - Spread: three years of bill days ending 2026-11-20; applicants drawn from the demo staff (each bill in
 *   the applicant's department, with its cost centre and payee profile), lines over every enabled
 *   expense category, amounts in 分 of the category's usual size.
 * - States: bills older than 30 days are 96 % pushed (已通过, 已报销, voucher date 1–10 days after the bill),
 *   1 % 报销失败, 3 % drafts; the last 30 days' bills are 45 % pushed, 35 % approved and waiting for
 *   一键报销, 5 % failed, 15 % drafts. About one line in twelve of an approved bill has its 核定 amount
 *   reduced (by 5–30 %). No bill is 审批中 or 已退回: those need a workflow instance, which the demo's
 *   approvals (seed/reimbursementApprovals.ts) start through the engine and a bulk load does not.
 * - What the large series leaves out: the lines carry no pool invoice (invoice_id null, tax 0), the
 *   vouchers (记-L…, their own series) are not in the accounting simulator (revoking one is refused by
 *   it), no push log. The reports (台账, 部门月度报销汇总, 流水) read bills and lines only.
 * Numbers BXL{10 digits} (the demo's are BX{yyyyMM}{seq}); ids of the series 6f1c9181…/9182….
 */
import { sql } from 'kysely';
import { ReimbFlowState, ReimbState } from '@zhyy/shared';
import type { Db } from '../db/index.js';
import type { ReimbBillTable, ReimbLineTable } from '../modules/reimbursement/tables.js';
import { bulkInsert } from './bulk.js';
import { incomeRowId } from './incomeData.js';
import { Rng } from './rng.js';

export const LARGE_REIMB_SEED = 20261717;
const T = { bill: 0x9181, line: 0x9182 } as const;
const DAY = 86_400_000;
const END_DAY = Date.UTC(2026, 10, 20);
const SPAN_DAYS = 3 * 365;
const pad = (n: number, w: number) => String(n).padStart(w, '0');
const iso = (ms: number) => new Date(ms).toISOString();
/** The Asia/Shanghai day of an instant. */
const shDay = (ms: number) => new Date(ms + 8 * 3_600_000).toISOString().slice(0, 10);

export const largeBillId = (i: number) => incomeRowId(T.bill, i);

/** Typical amounts in 分 (low, high) by the category's name; others 50–800 元. */
const SIZE: Array<[RegExp, number, number]> = [
  [/住宿/, 20_000, 150_000], [/交通|车船|机票|火车/, 5_000, 200_000], [/补助|补贴/, 5_000, 60_000], [/招待/, 20_000, 300_000],
  [/办公/, 2_000, 80_000], [/通讯/, 5_000, 30_000], [/会议|培训/, 50_000, 500_000], [/油|路桥|通行/, 5_000, 60_000], [/出租|市内/, 1_500, 20_000],
];
const REASONS = ['项目现场出差', '客户拜访', '参加行业会议', '日常办公采购', '业务招待', '项目投标', '设备巡检', '培训学习', '月度通讯费', '市内交通'];
const CITIES = ['北京', '上海', '广州', '深圳', '杭州', '南京', '武汉', '成都', '西安', '长沙', '郑州', '济南', '合肥', '福州', '南宁'];

/** The demo's reference data a bill is drawn from. */
export interface LargeReimbContext {
  people: Array<{ id: string; name: string; deptId: string; deptName: string; centreCode: string; centreName: string; bank: string; account: string }>;
  categories: Array<{ code: string; name: string; subjectCode: string; subjectName: string }>;
  accountant: string;
}

export async function largeReimbContext(db: Db): Promise<LargeReimbContext> {
  const k = db.kysely;
  const users = await k
    .selectFrom('users as u')
    .innerJoin('departments as d', 'd.id', 'u.dept_id')
    .leftJoin('reimb_cost_centres as c', 'c.dept_id', 'u.dept_id')
    .leftJoin('reimb_profiles as p', 'p.user_id', 'u.id')
    .select(['u.id', 'u.name', 'u.login_name', 'd.id as dept_id', 'd.name as dept_name', 'c.centre_code', 'c.centre_name', 'p.payee_bank', 'p.payee_account'])
    .where('u.status', '=', 1)
    .orderBy('u.id')
    .execute();
  const people = users.filter((u) => u.login_name !== 'admin').map((u) => ({
    id: u.id, name: u.name, deptId: u.dept_id, deptName: u.dept_name, centreCode: u.centre_code ?? '', centreName: u.centre_name ?? '', bank: u.payee_bank ?? '', account: u.payee_account ?? '',
  }));
  const categories = (await k.selectFrom('reimb_categories').select(['code', 'name', 'subject_code', 'subject_name']).where('enabled', '=', 1).orderBy('sort').execute())
    .map((c) => ({ code: c.code, name: c.name, subjectCode: c.subject_code, subjectName: c.subject_name }));
  if (!people.length || !categories.length) throw new Error('the large mode of 报销 needs the demo company (staff with departments, expense categories)');
  const accountant = users.find((u) => u.login_name === 'demo12')?.name ?? people[0]!.name;
  return { people, categories, accountant };
}

/** Bill i (0-based) of the large mode with its lines. */
export function largeBill(i: number, c: LargeReimbContext): { bill: ReimbBillTable; lines: ReimbLineTable[] } {
  const r = new Rng(LARGE_REIMB_SEED * 31 + i * 7919);
  const u = r.pick(c.people);
  const ms = END_DAY - r.int(0, SPAN_DAYS) * DAY + r.int(9 * 60, 18 * 60) * 60_000 - 8 * 3_600_000;
  const recent = END_DAY - ms < 30 * DAY;
  const x = r.next();
  const fate = recent ? (x < 0.45 ? 'pushed' : x < 0.8 ? 'waiting' : x < 0.85 ? 'failed' : 'draft') : x < 0.96 ? 'pushed' : x < 0.97 ? 'failed' : 'draft';
  const approved = fate !== 'draft';
  const id = largeBillId(i);
  const no = `BXL${pad(i, 10)}`;
  const n = r.int(1, 5);
  const lines: ReimbLineTable[] = [];
  let from = '';
  let to = '';
  for (let j = 0; j < n; j++) {
    const cat = r.pick(c.categories);
    const [, lo, hi] = SIZE.find(([re]) => re.test(cat.name)) ?? [null, 5_000, 80_000];
    const amount = r.int(lo, hi);
    const date = shDay(ms - r.int(1, 20) * DAY);
    if (!from || date < from) from = date;
    if (!to || date > to) to = date;
    const cut = approved && r.chance(1 / 12) ? amount - Math.round((amount * r.int(5, 30)) / 100) : null;
    lines.push({
      id: incomeRowId(T.line, i * 8 + j), bill_id: id, line_no: j + 1, category_code: cat.code, category_name: cat.name, expense_date: date, description: `${cat.name}${pad(j + 1, 2)}`,
      city: /住宿|交通|补助/.test(cat.name) ? r.pick(CITIES) : '', nights: /住宿/.test(cat.name) ? r.int(1, 5) : null, seat_class: '',
      amount, tax_rate: '0', tax: 0, approved_amount: cut, approve_note: cut !== null ? '超出标准部分不予报销' : '', approved_by: cut !== null ? c.accountant : '',
      deductible_tax: 0, invoice_id: null, invoice_number: '', subject_code: cat.subjectCode, subject_name: cat.subjectName, checks: '[]', seller_name: '', seller_key: '',
    });
  }
  const amount = lines.reduce((s, l) => s + l.amount, 0);
  const approvedAmount = approved ? lines.reduce((s, l) => s + (l.approved_amount ?? l.amount), 0) : 0;
  const submittedMs = ms + 5 * 60_000;
  const approvedMs = ms + r.int(1, 48) * 3_600_000;
  const pushedMs = Math.min(approvedMs + r.int(1, 9 * 24) * 3_600_000, END_DAY + 6 * DAY);
  const pushed = fate === 'pushed';
  const reason = r.pick(REASONS);
  const bill: ReimbBillTable = {
    id, bill_no: no, applicant_id: u.id, applicant_name: u.name, dept_id: u.deptId, dept_name: u.deptName, project_id: null, project_name: '', contract_no: '',
    period_from: from, period_to: to, reason, payee_name: u.name, payee_bank: u.bank, payee_account: u.account,
    flow_state: approved ? ReimbFlowState.approved : ReimbFlowState.draft, work_id: null,
    reimb_state: !approved ? null : pushed ? ReimbState.success : fate === 'failed' ? ReimbState.failed : ReimbState.unReimburse,
    amount, approved_amount: approvedAmount, tax: 0, deductible_tax: 0, line_count: n,
    acct_summary: `报销${u.name}${reason}`.slice(0, 60), cost_centre_code: u.centreCode, cost_centre_name: u.centreName,
    voucher_id: pushed ? no : '', voucher_no: pushed ? `记-L${pad(i, 8)}` : '', voucher_period: pushed ? shDay(pushedMs).slice(0, 7).replace('-', '') : '', voucher_date: pushed ? shDay(pushedMs) : '',
    push_message: fate === 'failed' ? '会计系统拒绝凭证：科目未启用（模拟失败）' : '', push_claimed_until: null, reverse_claimed_until: null,
    pushed_at: pushed || fate === 'failed' ? iso(pushedMs) : null, pushed_by: pushed || fate === 'failed' ? c.accountant : '',
    submitted_at: approved ? iso(submittedMs) : null, approved_at: approved ? iso(approvedMs) : null, created_at: iso(ms),
    updated_at: iso(pushed || fate === 'failed' ? pushedMs : approved ? approvedMs : ms),
  };
  return { bill, lines };
}

export interface LargeReimbOptions {
  bills: number;
  /** Bills per transaction. */
  batch?: number;
  log?: (line: string) => void;
}

/** Loads bills 0 … n−1 of the large mode that are not there yet; returns how many it added. */
export async function seedLargeBills(db: Db, opts: LargeReimbOptions): Promise<number> {
  const k = db.kysely;
  const log = opts.log ?? (() => undefined);
  const batch = opts.batch ?? 5000;
  const have = Number((await k.selectFrom('reimb_bills').select(sql<number>`count(*)`.as('n')).where('id', '>=', largeBillId(0)).where('id', '<', incomeRowId(T.bill + 1, 0)).executeTakeFirstOrThrow()).n);
  if (have >= opts.bills) return 0;
  const c = await largeReimbContext(db);
  const started = Date.now();
  let added = 0;
  for (let from = have; from < opts.bills; from += batch) {
    const list = Array.from({ length: Math.min(batch, opts.bills - from) }, (_, j) => largeBill(from + j, c));
    await k.transaction().execute(async (trx) => {
      await bulkInsert(trx, 'reimb_bills', list.map((v) => v.bill));
      await bulkInsert(trx, 'reimb_lines', list.flatMap((v) => v.lines));
    });
    added += list.length;
    if ((from / batch) % 5 === 0 || from + batch >= opts.bills) log(`  ${from + list.length} / ${opts.bills} bills (${Math.round((added * 1000) / Math.max(1, Date.now() - started))} a second)`);
  }
  log('  analysing…');
  for (const t of ['reimb_bills', 'reimb_lines']) await sql.raw(db.dialect === 'postgres' ? `vacuum analyze ${t}` : `analyze ${t}`).execute(k);
  return added;
}
