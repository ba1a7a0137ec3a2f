/**
 * The fixture of the 报销台账报表 tests (reimbursement-ledger.test.ts: 报销台账 and the permissions;
 * reimbursement-dept-reports.test.ts: 部门月度报销汇总 and 流水). Each file that calls ledgerFixture()
 * gets its own clone of the demo company with these bills and lines written straight into the tables,
 * in 2030–2031 (no demo bill is there) and with project names starting LEDGERTEST, so the filters can
 * keep to it.
 */
import type ExcelJS from 'exceljs';
import { afterAll, beforeAll } from 'vitest';
import { startTestServer, type TestServer } from './helpers.js';

export const P = '/api/reimbursement';
export type Dept = { id: string; name: string };

export type LineSpec = { cat: 'TRAFFIC' | 'HOTEL' | 'OFFICE'; amount: number; approved?: number; tax?: number; deductible?: number; invoice?: string; date?: string };
export type BillSpec = {
  no: string; dept: 'A' | 'B' | null; flow: number; reimb: number | null; voucher?: string; voucherNo?: string; submitted?: string; approved?: string;
  project?: string; applicant?: 'demo1' | 'demo16'; lines: LineSpec[];
};
export const CAT_NAMES = { TRAFFIC: '差旅-交通(测)', HOTEL: '差旅-住宿(测)', OFFICE: '办公(测)' } as const;

/** 2031-01-09T16:30Z is 2031-01-10 00:30 in Shanghai. */
export const BILLS: BillSpec[] = [
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

export interface LedgerFixture {
  s: TestServer;
  t1: string;
  t12: string;
  t16: string;
  t13: string;
  t23: string;
  /** The first two departments of the demo company, in their order. */
  deptA: Dept;
  deptB: Dept;
  /** Each bill's id by its number. */
  ids: Map<string, string>;
}

async function seedFixture(fx: LedgerFixture): Promise<void> {
  const k = fx.s.db.kysely;
  const depts = await k.selectFrom('departments').select(['id', 'name']).orderBy('sort').orderBy('id').limit(2).execute();
  [fx.deptA, fx.deptB] = depts as [Dept, Dept];
  const users = new Map((await k.selectFrom('users').select(['id', 'login_name', 'name']).where('login_name', 'in', ['demo1', 'demo16']).execute()).map((u) => [u.login_name, u]));
  const now = new Date().toISOString();
  let n = 0;
  for (const b of BILLS) {
    const id = `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
    fx.ids.set(b.no, id);
    const u = users.get(b.applicant ?? 'demo1')!;
    const dept = b.dept === 'A' ? fx.deptA : b.dept === 'B' ? fx.deptB : null;
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

/** A server of its own with the fixture, started before the file's tests and closed after them. */
export function ledgerFixture(): LedgerFixture {
  const fx = { ids: new Map<string, string>() } as LedgerFixture;
  beforeAll(async () => {
    fx.s = await startTestServer();
    [fx.t1, fx.t12, fx.t16, fx.t13, fx.t23] = (await Promise.all(['demo1', 'demo12', 'demo16', 'demo13', 'demo23'].map((u) => fx.s.login(u)))) as [string, string, string, string, string];
    await seedFixture(fx);
  });
  afterAll(async () => {
    await fx.s?.close();
  });
  return fx;
}

export const sheetRows = (ws: ExcelJS.Worksheet | undefined): unknown[][] => {
  const out: unknown[][] = [];
  ws!.eachRow((row) => out.push((row.values as unknown[]).slice(1)));
  return out;
};
