/**
 * Issue 15, 报销台账报表 (roles 1, 12, 16): 报销台账 (bills that left draft; every filter, sort, paging,
 * the totals of the filtered set, export of bills and of lines), 部门月度报销汇总 (pushed bills by
 * department × voucher month × category; checked against an independent reading of the lines; rows and
 * columns add up; drill-down; export) and 部门月度报销流水 (pushed lines of a department and month, net of
 * tax, totals, export). Roles 13 and 23 get 权限不足 on every call.
 *
 * The fixture writes bills and lines straight into the tables, in 2030–2031 (no demo bill is there) and
 * with project names starting LEDGERTEST, so the filters can keep to it.
 */
import type ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReimbFlowState, ReimbState } from '@zhyy/shared';
import { startTestServer, type TestServer } from './helpers.js';

let s: TestServer;
let t1: string;
let t12: string;
let t16: string;
let t13: string;
let t23: string;
const P = '/api/reimbursement';
let deptA: { id: string; name: string };
let deptB: { id: string; name: string };

type LineSpec = { cat: 'TRAFFIC' | 'HOTEL' | 'OFFICE'; amount: number; approved?: number; tax?: number; deductible?: number; invoice?: string; date?: string };
type BillSpec = {
  no: string; dept: 'A' | 'B' | null; flow: number; reimb: number | null; voucher?: string; voucherNo?: string; submitted?: string; approved?: string;
  project?: string; applicant?: 'demo1' | 'demo16'; lines: LineSpec[];
};
const CAT_NAMES = { TRAFFIC: '差旅-交通(测)', HOTEL: '差旅-住宿(测)', OFFICE: '办公(测)' } as const;

/** 2031-01-09T16:30Z is 2031-01-10 00:30 in Shanghai. */
const BILLS: BillSpec[] = [
  { no: 'BX2031010001', dept: 'A', flow: 3, reimb: 1, voucher: '2031-01-15', voucherNo: 'JZ-2031-0001', submitted: '2031-01-09T16:30:00.000Z', approved: '2031-01-12T02:00:00.000Z', project: 'LEDGERTEST 江北新区', lines: [
    { cat: 'TRAFFIC', amount: 100_00, tax: 9_00, deductible: 8_26, invoice: '25320000000000000001', date: '2031-01-05' },
    { cat: 'HOTEL', amount: 500_00, approved: 450_00, tax: 28_30, invoice: '25320000000000000002', date: '2031-01-06' },
  ] },
  { no: 'BX2031020002', dept: 'A', flow: 3, reimb: 1, voucher: '2031-02-03', voucherNo: 'JZ-2031-0002', submitted: '2031-01-20T03:00:00.000Z', approved: '2031-01-25T03:00:00.000Z', project: 'LEDGERTEST 溧水', applicant: 'demo16', lines: [
    { cat: 'OFFICE', amount: 200_00, tax: 23_01, date: '2031-01-18' },
    { cat: 'TRAFFIC', amount: 50_00, approved: 40_00, tax: 4_13, deductible: 3_30, date: '2031-01-19' },
  ] },
  { no: 'BX2031010003', dept: 'B', flow: 3, reimb: 1, voucher: '2031-01-31', voucherNo: 'JZ-2031-0003', submitted: '2031-01-09T15:59:00.000Z', approved: '2031-01-20T03:00:00.000Z', project: 'LEDGERTEST 江北新区', lines: [
    { cat: 'HOTEL', amount: 300_00, tax: 16_98, date: '2031-01-08' },
  ] },
  { no: 'BX2031030004', dept: null, flow: 3, reimb: 1, voucher: '2031-03-01', voucherNo: 'JZ-2031-0004', submitted: '2031-02-20T03:00:00.000Z', approved: '2031-02-25T03:00:00.000Z', project: 'LEDGERTEST 无部门', lines: [
    { cat: 'OFFICE', amount: 80_00, date: '2031-02-10' },
  ] },
  // Approved, not pushed: in the ledger, not in the summary.
  { no: 'BX2031030005', dept: 'B', flow: 3, reimb: 0, submitted: '2031-03-02T03:00:00.000Z', approved: '2031-03-05T03:00:00.000Z', project: 'LEDGERTEST 溧水', lines: [{ cat: 'TRAFFIC', amount: 70_00, date: '2031-03-01' }] },
  // Pushed and failed.
  { no: 'BX2031030006', dept: 'B', flow: 3, reimb: 2, submitted: '2031-03-03T03:00:00.000Z', approved: '2031-03-06T03:00:00.000Z', project: 'LEDGERTEST 溧水', lines: [{ cat: 'OFFICE', amount: 33_00, date: '2031-03-01' }] },
  { no: 'BX2031030007', dept: 'A', flow: 1, reimb: null, submitted: '2031-03-04T03:00:00.000Z', project: 'LEDGERTEST 在审', lines: [{ cat: 'OFFICE', amount: 60_00, date: '2031-03-02' }] },
  // A draft: never in the ledger.
  { no: 'BX2031030008', dept: 'A', flow: 0, reimb: null, project: 'LEDGERTEST 草稿', lines: [{ cat: 'OFFICE', amount: 999_00, date: '2031-03-02' }] },
  // Pushed, voucher in December 2030: outside the summary's 2031.
  { no: 'BX2030120009', dept: 'B', flow: 3, reimb: 1, voucher: '2030-12-31', voucherNo: 'JZ-2030-0009', submitted: '2030-12-20T03:00:00.000Z', approved: '2030-12-25T03:00:00.000Z', project: 'LEDGERTEST 去年', lines: [{ cat: 'TRAFFIC', amount: 10_00, date: '2030-12-18' }] },
  { no: 'BX2031030010', dept: 'B', flow: 2, reimb: null, submitted: '2031-03-05T03:00:00.000Z', project: 'LEDGERTEST 退回', lines: [{ cat: 'HOTEL', amount: 120_00, date: '2031-03-02' }] },
];
const ids = new Map<string, string>();

async function seedFixture() {
  const k = s.db.kysely;
  const depts = await k.selectFrom('departments').select(['id', 'name']).orderBy('sort').orderBy('id').limit(2).execute();
  [deptA, deptB] = depts as [typeof deptA, typeof deptB];
  const users = new Map((await k.selectFrom('users').select(['id', 'login_name', 'name']).where('login_name', 'in', ['demo1', 'demo16']).execute()).map((u) => [u.login_name, u]));
  const now = new Date().toISOString();
  let n = 0;
  for (const b of BILLS) {
    const id = `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
    ids.set(b.no, id);
    const u = users.get(b.applicant ?? 'demo1')!;
    const dept = b.dept === 'A' ? deptA : b.dept === 'B' ? deptB : null;
    const sum = (f: (l: LineSpec) => number) => b.lines.reduce((x, l) => x + f(l), 0);
    await k.insertInto('reimb_bills').values({
      id, bill_no: b.no, applicant_id: u.id, applicant_name: u.name, dept_id: dept?.id ?? null, dept_name: dept?.name ?? '', project_id: null, project_name: b.project ?? '',
      contract_no: '', period_from: '2031-01-01', period_to: '2031-01-31', reason: `出差 ${b.no}`, payee_name: '', payee_bank: '', payee_account: '',
      flow_state: b.flow, work_id: null, reimb_state: b.reimb, amount: sum((l) => l.amount), approved_amount: sum((l) => l.approved ?? l.amount), tax: sum((l) => l.tax ?? 0),
      deductible_tax: sum((l) => l.deductible ?? 0), line_count: b.lines.length, acct_summary: '', cost_centre_code: '', cost_centre_name: '', voucher_id: '',
      voucher_no: b.voucherNo ?? '', voucher_period: b.voucher ? b.voucher.slice(0, 7).replace('-', '') : '', voucher_date: b.voucher ?? '', push_message: '',
      push_claimed_until: null, pushed_at: b.voucher ? `${b.voucher}T02:00:00.000Z` : null, pushed_by: '', submitted_at: b.submitted ?? null, approved_at: b.approved ?? null,
      created_at: now, updated_at: now,
    }).execute();
    let no = 0;
    for (const l of b.lines) {
      no += 1;
      await k.insertInto('reimb_lines').values({
        id: `00000000-0000-4000-9000-${String(n * 100 + no).padStart(12, '0')}`, bill_id: id, line_no: no, category_code: l.cat, category_name: CAT_NAMES[l.cat],
        expense_date: l.date ?? '2031-01-01', description: `${CAT_NAMES[l.cat]} ${b.no}-${no}`, city: '', nights: null, seat_class: '', amount: l.amount, tax_rate: '0.06',
        tax: l.tax ?? 0, approved_amount: l.approved ?? null, approve_note: '', approved_by: '', deductible_tax: l.deductible ?? 0, invoice_id: null,
        invoice_number: l.invoice ?? '', subject_code: '6602', subject_name: '管理费用', checks: '[]',
      }).execute();
    }
  }
}

beforeAll(async () => {
  s = await startTestServer();
  [t1, t12, t16, t13, t23] = (await Promise.all(['demo1', 'demo12', 'demo16', 'demo13', 'demo23'].map((u) => s.login(u)))) as [string, string, string, string, string];
  await seedFixture();
});
afterAll(async () => {
  await s?.close();
});

const F = { project: 'LEDGERTEST' };
const list = async (body: Record<string, unknown>, t = t12) => {
  const a = await s.call(`${P}/ledger/list`, { ...F, pageSize: 100, ...body }, t);
  expect(a.code, a.message).toBe(20000);
  return a.r as { items: Array<Record<string, any>>; total: number; totals: Record<string, number> & { amount: number; approvedAmount: number; tax: number; deductibleTax: number } };
};
const nos = (r: { items: Array<Record<string, any>> }) => r.items.map((i) => i.billNo as string).sort();
const specs = (pred: (b: BillSpec) => boolean) => BILLS.filter((b) => b.flow !== 0 && pred(b)).map((b) => b.no).sort();
const sheetRows = (ws: ExcelJS.Worksheet | undefined): unknown[][] => {
  const out: unknown[][] = [];
  ws!.eachRow((row) => out.push((row.values as unknown[]).slice(1)));
  return out;
};

describe('permissions: roles 1, 12, 16; 13 and 23 get 权限不足', () => {
  const CALLS: Array<[string, Record<string, unknown>]> = [
    ['ledger/options', {}], ['ledger/list', {}], ['ledger/export', F], ['summary/view', { fromMonth: '2031-01', toMonth: '2031-12' }],
    ['summary/bills', { fromMonth: '2031-01', toMonth: '2031-12' }], ['summary/export', { fromMonth: '2031-01', toMonth: '2031-12' }],
    ['laundry/list', { month: '2031-01' }], ['laundry/export', { month: '2031-01' }],
  ];
  it.each(CALLS)('%s', async (path, body) => {
    for (const t of [t13, t23]) {
      const a = await s.call(`${P}/${path}`, body, t);
      expect(a.status).toBe(403);
      expect(a.message).toBe('权限不足');
    }
    for (const t of [t1, t12, t16]) {
      const a = await s.call(`${P}/${path}`, body, t);
      expect(a.status, `${path} ${a.message}`).toBe(200);
    }
  });
});

describe('报销台账', () => {
  it('lists every bill that left draft (审批中, 已退回, 已通过), never a draft; the totals are the sums of the bills', async () => {
    const r = await list({});
    expect(nos(r)).toEqual(specs(() => true));
    expect(nos(r)).not.toContain('BX2031030008');
    expect(r.total).toBe(9);
    // The totals of the filtered set equal the sums of its rows, and the rows' sums equal their lines'.
    const sum = (k: string) => r.items.reduce((x, i) => x + (i[k] as number), 0);
    expect(r.totals).toEqual({ count: 9, lineCount: sum('lineCount'), amount: sum('amount'), approvedAmount: sum('approvedAmount'), tax: sum('tax'), deductibleTax: sum('deductibleTax') });
    const lines = BILLS.filter((b) => b.flow !== 0).flatMap((b) => b.lines);
    expect(r.totals.amount).toBe(lines.reduce((x, l) => x + l.amount, 0));
    expect(r.totals.approvedAmount).toBe(lines.reduce((x, l) => x + (l.approved ?? l.amount), 0));
    expect(r.totals.tax).toBe(lines.reduce((x, l) => x + (l.tax ?? 0), 0));
    expect(r.totals.deductibleTax).toBe(lines.reduce((x, l) => x + (l.deductible ?? 0), 0));
    expect(r.totals.lineCount).toBe(lines.length);
    const one = r.items.find((i) => i.billNo === 'BX2031010001')!;
    expect(one).toMatchObject({ id: ids.get('BX2031010001'), deptName: deptA.name, flowState: 3, reimbState: 1, amount: 600_00, approvedAmount: 550_00, tax: 37_30, deductibleTax: 8_26, lineCount: 2, categories: '差旅-交通(测)、差旅-住宿(测)', voucherNo: 'JZ-2031-0001', voucherDate: '2031-01-15' });
    // Figures are numbers on both databases (bigint columns come back as text on PostgreSQL).
    for (const k of ['amount', 'approvedAmount', 'tax', 'deductibleTax', 'lineCount']) expect(typeof one[k]).toBe('number');
  });

  it('each filter', async () => {
    expect(nos(await list({ billNo: 'BX2031010001' }))).toEqual(['BX2031010001']);
    expect(nos(await list({ billNo: '20310300' }))).toEqual(specs((b) => b.no.includes('20310300')));
    expect(nos(await list({ applicant: (await s.db.kysely.selectFrom('users').select('name').where('login_name', '=', 'demo16').executeTakeFirstOrThrow()).name }))).toEqual(['BX2031020002']);
    expect(nos(await list({ deptId: deptB.id }))).toEqual(specs((b) => b.dept === 'B'));
    expect(nos(await list({ project: 'LEDGERTEST 溧水' }))).toEqual(specs((b) => b.project === 'LEDGERTEST 溧水'));
    expect(nos(await list({ project: 'ledgertest 江北' }))).toEqual(specs((b) => b.project === 'LEDGERTEST 江北新区'));
    expect(nos(await list({ flowState: ReimbFlowState.approving }))).toEqual(['BX2031030007']);
    expect(nos(await list({ flowState: ReimbFlowState.returned }))).toEqual(['BX2031030010']);
    expect(nos(await list({ reimbState: ReimbState.success }))).toEqual(specs((b) => b.reimb === 1));
    expect(nos(await list({ reimbState: ReimbState.unReimburse }))).toEqual(['BX2031030005']);
    expect(nos(await list({ reimbState: ReimbState.failed }))).toEqual(['BX2031030006']);
    // A bill with any line of the category.
    expect(nos(await list({ categoryCode: 'HOTEL' }))).toEqual(specs((b) => b.lines.some((l) => l.cat === 'HOTEL')));
    // Days are Shanghai days: 2031-01-09T16:30Z is the 10th there, 2031-01-09T15:59Z the 9th.
    expect(nos(await list({ submittedFrom: '2031-01-10', submittedTo: '2031-01-10' }))).toEqual(['BX2031010001']);
    expect(nos(await list({ submittedFrom: '2031-01-09', submittedTo: '2031-01-09' }))).toEqual(['BX2031010003']);
    expect(nos(await list({ approvedFrom: '2031-01-20', approvedTo: '2031-01-25' }))).toEqual(['BX2031010003', 'BX2031020002']);
    expect(nos(await list({ voucherFrom: '2031-01-01', voucherTo: '2031-01-31' }))).toEqual(['BX2031010001', 'BX2031010003']);
    expect(nos(await list({ voucherTo: '2030-12-31' }))).toEqual(['BX2030120009']);
    expect(nos(await list({ amountMin: 80_00, amountMax: 300_00 }))).toEqual(specs((b) => { const a = b.lines.reduce((x, l) => x + l.amount, 0); return a >= 80_00 && a <= 300_00; }));
    expect(nos(await list({ voucherNo: 'jz-2031-000' }))).toEqual(['BX2031010001', 'BX2031010003', 'BX2031020002', 'BX2031030004']);
    // Combined, with the totals of just that set.
    const r = await list({ deptId: deptA.id, reimbState: 1 });
    expect(nos(r)).toEqual(['BX2031010001', 'BX2031020002']);
    expect(r.totals).toEqual({ count: 2, lineCount: 4, amount: 850_00, approvedAmount: 790_00, tax: 64_44, deductibleTax: 11_56 });
  });

  it('sorts and pages (the totals stay those of the whole set)', async () => {
    const all = await list({ sort: { field: 'amount', order: 'descend' } });
    const amounts = all.items.map((i) => i.amount as number);
    expect(amounts).toEqual([...amounts].sort((a, b) => b - a));
    const byNo = await list({ sort: { field: 'billNo', order: 'ascend' } });
    expect(byNo.items.map((i) => i.billNo)).toEqual(specs(() => true));
    const pages = [];
    for (let p = 1; p <= 3; p++) pages.push(await list({ sort: { field: 'billNo', order: 'ascend' }, pageIndex: p, pageSize: 4 }));
    expect(pages.flatMap((p) => p.items.map((i) => i.billNo))).toEqual(specs(() => true));
    expect(pages.map((p) => p.items.length)).toEqual([4, 4, 1]);
    for (const p of pages) expect(p.totals).toEqual(all.totals);
    // Bills without an approval time (审批中, 已退回) come last in both directions, on both databases.
    for (const order of ['ascend', 'descend']) {
      const a = await list({ sort: { field: 'approvedAt', order } });
      expect(a.items.slice(-2).map((i) => i.approvedAt)).toEqual([null, null]);
      const times = a.items.slice(0, -2).map((i) => i.approvedAt as string);
      expect(times).toEqual([...times].sort((x, y) => (order === 'ascend' ? x.localeCompare(y) : y.localeCompare(x))));
    }
    // Default: newest submission first.
    const d = await list({ reimbState: 1 });
    expect(d.items.map((i) => i.billNo)).toEqual(['BX2031030004', 'BX2031020002', 'BX2031010001', 'BX2031010003', 'BX2030120009']);
  });

  it('refuses a wrong filter in Chinese', async () => {
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ submittedFrom: '2031-02-01', submittedTo: '2031-01-01' }, '提交日期起不能晚于止'],
      [{ voucherFrom: '2031-02-01', voucherTo: '2031-01-01' }, '凭证日期起不能晚于止'],
      [{ amountMin: 500, amountMax: 100 }, '金额下限不能大于上限'],
      [{ flowState: 0 }, '审批状态不正确'],
      [{ reimbState: 5 }, '报销状态不正确'],
      [{ approvedFrom: '2031-02-30' }, '不是有效的日期'],
    ];
    for (const [body, msg] of bad) {
      const a = await s.call(`${P}/ledger/list`, body, t1);
      expect(a.status).toBe(400);
      expect(a.message).toContain(msg);
    }
  });

  it('the options: departments and the categories bills use', async () => {
    const a = await s.call(`${P}/ledger/options`, {}, t16);
    expect(a.r.depts.map((d: { id: string }) => d.id)).toEqual(expect.arrayContaining([deptA.id, deptB.id]));
    expect(a.r.categories).toEqual(expect.arrayContaining([{ code: 'HOTEL', name: '差旅-住宿(测)' }]));
  });

  it('exports the filtered bills with a 合计 row and logs it; or their lines', async () => {
    const { res, ws } = await s.download(`${P}/ledger/export`, { ...F, sort: { field: 'billNo', order: 'ascend' } }, t12);
    expect(res.statusCode).toBe(200);
    const rows = sheetRows(ws);
    expect(rows[0]!.slice(0, 3)).toEqual(['报销单号', '申请人', '部门']);
    expect(rows.slice(1, -1).map((r) => r[0])).toEqual(specs(() => true));
    const head = rows[0]!;
    const col = (h: string) => head.indexOf(h);
    const last = rows[rows.length - 1]!;
    expect(last[0]).toBe('合计');
    const totals = (await list({})).totals;
    expect(last[col('报销金额（元）')]).toBe(totals.amount / 100);
    expect(last[col('核定金额（元）')]).toBe(totals.approvedAmount / 100);
    expect(last[col('税额（元）')]).toBeCloseTo(totals.tax / 100, 2);
    expect(last[col('可抵扣税额（元）')]).toBeCloseTo(totals.deductibleTax / 100, 2);
    const b1 = rows.find((r) => r[0] === 'BX2031010001')!;
    expect(b1[col('审批状态')]).toBe('已通过');
    expect(b1[col('报销状态')]).toBe('已报销');
    expect(b1[col('提交时间')]).toBe('2031-01-10 00:30:00');
    const log = await s.db.kysely.selectFrom('file_export_logs').selectAll().where('category', '=', '报销台账').orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    expect(Number(log.row_count)).toBe(9);
    expect(log.description).toContain('项目含「LEDGERTEST」');

    const lines = await s.download(`${P}/ledger/export`, { ...F, withLines: true, deptId: deptA.id }, t16);
    const lr = sheetRows(lines.ws);
    const expected = BILLS.filter((b) => b.flow !== 0 && b.dept === 'A').flatMap((b) => b.lines);
    expect(lr.length).toBe(1 + expected.length + 1);
    expect(lr[0]![1]).toBe('行号');
    const lh = lr[0]!;
    expect(lr[lr.length - 1]![0]).toBe('合计');
    expect(lr[lr.length - 1]![lh.indexOf('核定金额（元）')]).toBe(expected.reduce((x, l) => x + (l.approved ?? l.amount), 0) / 100);
    expect(lr.slice(1, -1).reduce((x, r) => x + (r[lh.indexOf('报销金额（元）')] as number) * 100, 0)).toBeCloseTo(expected.reduce((x, l) => x + l.amount, 0), 6);
  });
});

type View = {
  months: string[]; categories: Array<{ code: string; name: string }>;
  rows: Array<{ deptId: string; deptName: string; months: Array<{ amount: number; count: number }>; categories: Array<{ amount: number; count: number }>; total: { amount: number; count: number; lineCount: number } }>;
  monthTotals: Array<{ amount: number; count: number }>; categoryTotals: Array<{ amount: number; count: number }>; total: { amount: number; count: number; lineCount: number };
};

describe('部门月度报销汇总', () => {
  const view = async (body: Record<string, unknown>) => {
    const a = await s.call(`${P}/summary/view`, body, t16);
    expect(a.code, a.message).toBe(20000);
    return a.r as View;
  };

  it('matches an independent reading of the pushed lines, by department × voucher month × category; rows and columns add up', async () => {
    const v = await view({ fromMonth: '2031-01', toMonth: '2031-12' });
    expect(v.months).toHaveLength(12);
    expect(v.months[0]).toBe('2031-01');
    // Independently: every line of a pushed bill whose voucher date is in 2031 (read from the tables, all of them).
    const lines = await s.db.kysely
      .selectFrom('reimb_lines as l').innerJoin('reimb_bills as b', 'b.id', 'l.bill_id')
      .select(['b.id as bill', 'b.dept_id', 'b.voucher_date', 'b.reimb_state', 'l.category_code', 'l.amount', 'l.approved_amount'])
      .execute();
    const pushed = lines.filter((l) => Number(l.reimb_state) === 1 && l.voucher_date >= '2031-01-01' && l.voucher_date <= '2031-12-31');
    const expect3 = new Map<string, number>();
    for (const l of pushed) {
      const k = `${l.dept_id ?? ''}|${l.voucher_date.slice(0, 7)}|${l.category_code}`;
      expect3.set(k, (expect3.get(k) ?? 0) + Number(l.approved_amount ?? l.amount));
    }
    const byDeptMonth = new Map<string, number>();
    const byDeptCat = new Map<string, number>();
    for (const [k, a] of expect3) {
      const [d, m, c] = k.split('|');
      byDeptMonth.set(`${d}|${m}`, (byDeptMonth.get(`${d}|${m}`) ?? 0) + a);
      byDeptCat.set(`${d}|${c}`, (byDeptCat.get(`${d}|${c}`) ?? 0) + a);
    }
    for (const r of v.rows) {
      v.months.forEach((m, i) => expect(r.months[i]!.amount, `${r.deptName} ${m}`).toBe(byDeptMonth.get(`${r.deptId}|${m}`) ?? 0));
      v.categories.forEach((c, i) => expect(r.categories[i]!.amount, `${r.deptName} ${c.code}`).toBe(byDeptCat.get(`${r.deptId}|${c.code}`) ?? 0));
      // The row total is the sum of its months and of its categories.
      expect(r.months.reduce((x, c) => x + c.amount, 0)).toBe(r.total.amount);
      expect(r.categories.reduce((x, c) => x + c.amount, 0)).toBe(r.total.amount);
      expect(r.months.reduce((x, c) => x + c.count, 0)).toBe(r.total.count);
      expect(r.categories.reduce((x, c) => x + c.count, 0)).toBe(r.total.lineCount);
    }
    // Every department with a figure has a row.
    expect(new Set(v.rows.map((r) => r.deptId))).toEqual(new Set(pushed.map((l) => l.dept_id ?? '')));
    // Column totals are the sums of the rows; the grand total is the sum of everything.
    v.months.forEach((_, i) => expect(v.monthTotals[i]!.amount).toBe(v.rows.reduce((x, r) => x + r.months[i]!.amount, 0)));
    v.categories.forEach((_, i) => expect(v.categoryTotals[i]!.amount).toBe(v.rows.reduce((x, r) => x + r.categories[i]!.amount, 0)));
    expect(v.total.amount).toBe(pushed.reduce((x, l) => x + Number(l.approved_amount ?? l.amount), 0));
    expect(v.total.amount).toBe(v.monthTotals.reduce((x, c) => x + c.amount, 0));
    expect(v.total.count).toBe(new Set(pushed.map((l) => l.bill)).size);
    expect(v.total.lineCount).toBe(pushed.length);

    // The fixture's own figures, by hand: department A, January: 100 + 450 (核定) ; February: 200 + 40.
    const a = v.rows.find((r) => r.deptId === deptA.id)!;
    expect(a.months[0]).toEqual({ amount: 550_00, count: 1 });
    expect(a.months[1]).toEqual({ amount: 240_00, count: 1 });
    const b = v.rows.find((r) => r.deptId === deptB.id)!;
    expect(b.months[0]).toEqual({ amount: 300_00, count: 1 });
    expect(b.total).toEqual({ amount: 300_00, count: 1, lineCount: 1 });
    const none = v.rows.find((r) => r.deptId === '')!;
    expect(none.deptName).toBe('未分配部门');
    expect(none.months[2]).toEqual({ amount: 80_00, count: 1 });
    // Not pushed (0, 2), in approval, draft and December 2030: none of it.
    const idx = v.categories.findIndex((c) => c.code === 'TRAFFIC');
    expect(v.categoryTotals[idx]).toEqual({ amount: 140_00, count: 2 });
  });

  it('a month range and departments', async () => {
    const v = await view({ fromMonth: '2030-12', toMonth: '2031-01', deptIds: [deptB.id] });
    expect(v.months).toEqual(['2030-12', '2031-01']);
    expect(v.rows.map((r) => r.deptId)).toEqual([deptB.id]);
    expect(v.rows[0]!.months).toEqual([{ amount: 10_00, count: 1 }, { amount: 300_00, count: 1 }]);
    expect(v.total).toEqual({ amount: 310_00, count: 2, lineCount: 2 });
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ fromMonth: '2031-05', toMonth: '2031-01' }, '开始月份不能晚于结束月份'],
      [{ fromMonth: '2029-01', toMonth: '2031-12' }, '月份范围不能超过24个月'],
      [{ fromMonth: '2031-13', toMonth: '2031-12' }, '月份格式须为YYYY-MM'],
    ];
    for (const [body, msg] of bad) {
      const a = await s.call(`${P}/summary/view`, body, t1);
      expect(a.status).toBe(400);
      expect(a.message).toContain(msg);
    }
  });

  it('drills down from a cell, a row and a column to the bills behind them; their parts add up to the figure', async () => {
    const v = await view({ fromMonth: '2031-01', toMonth: '2031-12' });
    const a = v.rows.find((r) => r.deptId === deptA.id)!;
    const bills = async (body: Record<string, unknown>) => (await s.call(`${P}/summary/bills`, { fromMonth: '2031-01', toMonth: '2031-12', ...body }, t12)).r;
    const jan = await bills({ deptId: deptA.id, month: '2031-01' });
    expect(jan.items.map((b: { billNo: string }) => b.billNo)).toEqual(['BX2031010001']);
    expect(jan.totals).toEqual({ count: 1, cellAmount: a.months[0]!.amount, cellLines: 2 });
    const ci = v.categories.findIndex((c) => c.code === 'TRAFFIC');
    const traffic = await bills({ deptId: deptA.id, categoryCode: 'TRAFFIC' });
    expect(traffic.items.map((b: { billNo: string }) => b.billNo)).toEqual(['BX2031020002', 'BX2031010001']);
    expect(traffic.items.map((b: { cellAmount: number }) => b.cellAmount)).toEqual([40_00, 100_00]);
    expect(traffic.totals.cellAmount).toBe(a.categories[ci]!.amount);
    expect(traffic.items[0].id).toBe(ids.get('BX2031020002'));
    const row = await bills({ deptId: deptA.id });
    expect(row.totals.cellAmount).toBe(a.total.amount);
    const column = await bills({ month: '2031-01' });
    expect(column.totals).toMatchObject({ count: v.monthTotals[0]!.count, cellAmount: v.monthTotals[0]!.amount });
    const noDept = await bills({ deptId: '' });
    expect(noDept.items.map((b: { billNo: string }) => b.billNo)).toEqual(['BX2031030004']);
    const paged = await bills({ pageSize: 1, pageIndex: 2 });
    expect(paged.items).toHaveLength(1);
    expect(paged.total).toBe(v.total.count);
  });

  it('exports the pivot by month or by category, with the 合计 row and column', async () => {
    const v = await view({ fromMonth: '2031-01', toMonth: '2031-03' });
    const { res, ws } = await s.download(`${P}/summary/export`, { fromMonth: '2031-01', toMonth: '2031-03' }, t1);
    expect(res.statusCode).toBe(200);
    const rows = sheetRows(ws);
    expect(rows[0]).toEqual(['部门', '2031-01（元）', '2031-02（元）', '2031-03（元）', '合计（元）']);
    expect(rows.length).toBe(v.rows.length + 2);
    const last = rows[rows.length - 1]!;
    expect(last).toEqual(['合计', ...v.monthTotals.map((c) => c.amount / 100), v.total.amount / 100]);
    const byCat = sheetRows((await s.download(`${P}/summary/export`, { fromMonth: '2031-01', toMonth: '2031-03', by: 'category' }, t1)).ws);
    expect(byCat[0]).toEqual(['部门', ...v.categories.map((c) => `${c.name}（元）`), '合计（元）']);
    expect(byCat[byCat.length - 1]![byCat[0]!.length - 1]).toBe(v.total.amount / 100);
    expect((await s.call(`${P}/summary/export`, { fromMonth: '2031-01', toMonth: '2031-03', by: 'x' }, t1)).message).toContain('汇总方式不正确');
  });
});

describe('部门月度报销流水', () => {
  const laundry = async (body: Record<string, unknown>) => {
    const a = await s.call(`${P}/laundry/list`, { pageSize: 100, ...body }, t16);
    expect(a.code, a.message).toBe(20000);
    return a.r as { items: Array<Record<string, any>>; total: number; totals: Record<string, number> & { amount: number; approvedAmount: number; tax: number; deductibleTax: number } };
  };

  it('one row per pushed line of the department and voucher month, net of tax computed, totals that add up', async () => {
    const r = await laundry({ month: '2031-01', deptId: deptA.id });
    expect(r.items.map((i) => `${i.billNo}-${i.lineNo}`)).toEqual(['BX2031010001-1', 'BX2031010001-2']);
    expect(r.items[0]).toMatchObject({ billId: ids.get('BX2031010001'), voucherNo: 'JZ-2031-0001', voucherDate: '2031-01-15', categoryName: '差旅-交通(测)', expenseDate: '2031-01-05', invoiceNumber: '25320000000000000001', amount: 100_00, approvedAmount: 100_00, tax: 9_00, deductibleTax: 8_26, netAmount: 91_74 });
    expect(r.items[1]).toMatchObject({ amount: 500_00, approvedAmount: 450_00, tax: 28_30, deductibleTax: 0, netAmount: 450_00 });
    const sum = (k: string) => r.items.reduce((x, i) => x + (i[k] as number), 0);
    expect(r.totals).toEqual({ count: 2, amount: sum('amount'), approvedAmount: sum('approvedAmount'), tax: sum('tax'), deductibleTax: sum('deductibleTax'), netAmount: sum('netAmount') });
    expect(r.totals.netAmount).toBe(r.totals.approvedAmount - r.totals.deductibleTax);
    // The month's total for the department equals the summary's cell.
    const v = (await s.call(`${P}/summary/view`, { fromMonth: '2031-01', toMonth: '2031-01' }, t16)).r as View;
    expect(r.totals.approvedAmount).toBe(v.rows.find((x) => x.deptId === deptA.id)!.months[0]!.amount);
  });

  it('every department, no department, a category; not-pushed bills never show', async () => {
    const all = await laundry({ month: '2031-01' });
    expect(all.items.map((i) => i.billNo)).toEqual(['BX2031010001', 'BX2031010001', 'BX2031010003']);
    expect((await laundry({ month: '2031-03', deptId: '' })).items.map((i) => i.billNo)).toEqual(['BX2031030004']);
    // March's 0/2/审批中/退回 bills of B hold lines, but none is pushed.
    expect((await laundry({ month: '2031-03', deptId: deptB.id })).total).toBe(0);
    expect((await laundry({ month: '2031-02', categoryCode: 'TRAFFIC' })).items.map((i) => i.approvedAmount)).toEqual([40_00]);
    const sorted = await laundry({ month: '2031-01', sort: { field: 'approvedAmount', order: 'descend' } });
    expect(sorted.items.map((i) => i.approvedAmount)).toEqual([450_00, 300_00, 100_00]);
    expect((await s.call(`${P}/laundry/list`, {}, t1)).message).toContain('月份');
  });

  it('exports the lines with a 合计 row', async () => {
    const { res, ws } = await s.download(`${P}/laundry/export`, { month: '2031-01' }, t12);
    expect(res.statusCode).toBe(200);
    const rows = sheetRows(ws);
    expect(rows[0]).toEqual(['报销单号', '凭证号', '凭证日期', '申请人', '部门', '费用类别', '费用日期', '说明', '发票号码', '报销金额（元）', '核定金额（元）', '税额（元）', '可抵扣税额（元）', '不含税净额（元）']);
    expect(rows.length).toBe(1 + 3 + 1);
    expect(rows[4]!.slice(-5)).toEqual([900, 850, 54.28, 8.26, 841.74]);
    const log = await s.db.kysely.selectFrom('file_export_logs').selectAll().where('category', '=', '部门月度报销流水').executeTakeFirstOrThrow();
    expect(Number(log.row_count)).toBe(3);
  });
});
