/**
 * Issue 15, 报销台账报表: 部门月度报销汇总 (pushed bills by department × voucher month × category; checked
 * against an independent reading of the lines; rows and columns add up; drill-down; export) and 部门月度报销流水
 * (pushed lines of a department and month, net of tax, totals, export), on the bills of
 * reimbursement-ledger-fixture.ts (报销台账 and the permissions are in reimbursement-ledger.test.ts).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from './helpers.js';
import { type Dept, ledgerFixture, P, sheetRows } from './reimbursement-ledger-fixture.js';

const fx = ledgerFixture();
let s: TestServer;
let t1: string;
let t12: string;
let t16: string;
let deptA: Dept;
let deptB: Dept;
let ids: Map<string, string>;
beforeAll(() => {
  ({ s, t1, t12, t16, deptA, deptB, ids } = fx);
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
