/**
 * Issue 15, 报销台账报表 (roles 1, 12, 16): 报销台账 (bills that left draft; every filter, sort, paging,
 * the totals of the filtered set, export of bills and of lines), 部门月度报销汇总 (pushed bills by
 * department × voucher month × category; checked against an independent reading of the lines; rows and
 * columns add up; drill-down; export) and 部门月度报销流水 (pushed lines of a department and month, net of
 * tax, totals, export). Roles 13 and 23 get 权限不足 on every call.
 *
 * 部门月度报销汇总 and 流水 are in reimbursement-dept-reports.test.ts; the bills both files read are in
 * reimbursement-ledger-fixture.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ReimbFlowState, ReimbState } from '@zhyy/shared';
import type { TestServer } from './helpers.js';
import { BILLS, type BillSpec, type Dept, ledgerFixture, P, sheetRows } from './reimbursement-ledger-fixture.js';

const fx = ledgerFixture();
let s: TestServer;
let t1: string;
let t12: string;
let t16: string;
let t13: string;
let t23: string;
let deptA: Dept;
let deptB: Dept;
let ids: Map<string, string>;
beforeAll(() => {
  ({ s, t1, t12, t16, t13, t23, deptA, deptB, ids } = fx);
});

const F = { project: 'LEDGERTEST' };
const list = async (body: Record<string, unknown>, t = t12) => {
  const a = await s.call(`${P}/ledger/list`, { ...F, pageSize: 100, ...body }, t);
  expect(a.code, a.message).toBe(20000);
  return a.r as { items: Array<Record<string, any>>; total: number; totals: Record<string, number> & { amount: number; approvedAmount: number; tax: number; deductibleTax: number } };
};
const nos = (r: { items: Array<Record<string, any>> }) => r.items.map((i) => i.billNo as string).sort();
const specs = (pred: (b: BillSpec) => boolean) => BILLS.filter((b) => b.flow !== 0 && pred(b)).map((b) => b.no).sort();

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

