/**
 * The accounting tests' approved bills, made directly in the tables (applying is another part's): a bill in
 * flow_state 3 (已通过) and reimb_state 0, lines whose invoices come from the demo pool and are locked for
 * the bill (income/identity/locks.ts), the categories' accounting subjects and the department's cost centre.
 */
import { IncomeBookingState, IncomeInvoiceState, IncomeUsage } from '@zhyy/shared';
import { lock } from '../src/modules/income/identity/locks.js';
import { newId } from '../src/platform/ids.js';
import { startTestServer, type TestServer } from './helpers.js';

export const CATEGORIES = [
  { code: 'T01', name: '差旅费', subject_code: '660201', subject_name: '管理费用—差旅费' },
  { code: 'T02', name: '办公费', subject_code: '660202', subject_name: '管理费用—办公费' },
  { code: 'T03', name: '业务招待费', subject_code: '', subject_name: '' },
];

let seq = 0;

export async function setupSettings(s: TestServer, deptId: string, centre = { code: 'CC-IT', name: '信息中心' }): Promise<void> {
  const db = s.db.kysely;
  const now = new Date().toISOString();
  for (const [i, c] of CATEGORIES.entries()) {
    await db.insertInto('reimb_categories').values({ ...c, travel_kind: '', default_tax_rate: '0', sort: i, enabled: 1, updated_at: now }).onConflict((oc) => oc.column('code').doUpdateSet({ subject_code: c.subject_code, subject_name: c.subject_name })).execute();
  }
  await db.insertInto('reimb_cost_centres').values({ dept_id: deptId, centre_code: centre.code, centre_name: centre.name, updated_at: now }).onConflict((oc) => oc.column('dept_id').doUpdateSet({ centre_code: centre.code, centre_name: centre.name })).execute();
}

/** Pool invoices nobody uses, with a tax number and booking 01 (they can be locked, closed and booked). */
export async function freeInvoices(s: TestServer, n: number): Promise<string[]> {
  const rows = await s.db.kysely
    .selectFrom('income_invoices')
    .select('id')
    .where('usage', '=', IncomeUsage.available)
    .where('invoice_state', '=', IncomeInvoiceState.normal)
    .where('buyer_mismatch', '=', 0)
    .where('booking_state', 'in', [IncomeBookingState.none, IncomeBookingState.revoked])
    .where('digital_no', 'like', '________________%')
    .orderBy('id')
    .limit(n + 200)
    .execute();
  const taken = new Set((await s.db.kysely.selectFrom('reimb_lines').select('invoice_id').where('invoice_id', 'is not', null).execute()).map((r) => r.invoice_id));
  return rows.map((r) => r.id).filter((id) => !taken.has(id)).slice(0, n);
}

export interface BillSpec {
  applicantLogin?: string;
  lines?: Array<{ category: string; amount: number; approved?: number; deductibleTax?: number; invoice?: boolean }>;
  reimbState?: number;
  deptId?: string | null;
  reason?: string;
}

export interface MadeBill {
  id: string;
  billNo: string;
  applicantId: string;
  invoiceIds: string[];
}

/** An approved bill (flow 3, reimb 0) with its lines; invoices from the pool locked for it. */
export async function makeBill(s: TestServer, spec: BillSpec = {}): Promise<MadeBill> {
  const db = s.db.kysely;
  const user = await db.selectFrom('users').select(['id', 'name', 'dept_id']).where('login_name', '=', spec.applicantLogin ?? 'demo12').executeTakeFirstOrThrow();
  const dept = spec.deptId === undefined ? user.dept_id : spec.deptId;
  const deptName = dept ? ((await db.selectFrom('departments').select('name').where('id', '=', dept).executeTakeFirst())?.name ?? '') : '';
  const lines = spec.lines ?? [
    { category: 'T01', amount: 54_500, deductibleTax: 4_500, invoice: true },
    { category: 'T02', amount: 20_000, approved: 18_000, invoice: true },
  ];
  const invoices = await freeInvoices(s, lines.filter((l) => l.invoice).length);
  const id = newId();
  const billNo = `BX${new Date().toISOString().slice(0, 7).replace('-', '')}${String(++seq).padStart(4, '0')}${String(Math.floor(Math.random() * 1e4)).padStart(4, '0')}`;
  const now = new Date().toISOString();
  const approvedOf = (l: (typeof lines)[number]) => l.approved ?? l.amount;
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('reimb_bills')
      .values({
        id, bill_no: billNo, applicant_id: user.id, applicant_name: user.name, dept_id: dept, dept_name: deptName, project_id: null, project_name: '', contract_no: '',
        period_from: '2026-11-01', period_to: '2026-11-05', reason: spec.reason ?? '南京出差', payee_name: user.name, payee_bank: '', payee_account: '', flow_state: 3, work_id: null,
        reimb_state: spec.reimbState ?? 0, amount: lines.reduce((t, l) => t + l.amount, 0), approved_amount: lines.reduce((t, l) => t + approvedOf(l), 0), tax: 0,
        deductible_tax: lines.reduce((t, l) => t + (l.deductibleTax ?? 0), 0), line_count: lines.length, acct_summary: '', cost_centre_code: '', cost_centre_name: '',
        voucher_id: '', voucher_no: '', voucher_period: '', voucher_date: '', push_message: '', push_claimed_until: null, pushed_at: null, pushed_by: '',
        submitted_at: now, approved_at: now, created_at: now, updated_at: now,
      })
      .execute();
    let k = 0;
    for (const [i, l] of lines.entries()) {
      const cat = (await trx.selectFrom('reimb_categories').select('name').where('code', '=', l.category).executeTakeFirst())?.name ?? l.category;
      const invoiceId = l.invoice ? invoices[k++]! : null;
      if (invoiceId) await lock(invoiceId, { kind: 'reimbursement', docNo: billNo }, trx);
      await trx
        .insertInto('reimb_lines')
        .values({
          id: newId(), bill_id: id, line_no: i + 1, category_code: l.category, category_name: cat, expense_date: '2026-11-02', description: `${cat}明细`, city: '', nights: null, seat_class: '',
          amount: l.amount, tax_rate: '0', tax: 0, approved_amount: l.approved ?? null, approve_note: '', approved_by: '', deductible_tax: l.deductibleTax ?? 0,
          invoice_id: invoiceId, invoice_number: invoiceId ? 'x' : '', subject_code: '', subject_name: '', checks: '[]',
        })
        .execute();
    }
  });
  return { id, billNo, applicantId: user.id, invoiceIds: invoices };
}

/**
 * The server of the accounting test files (reimbursement-accounting, reimbursement-push-settle): the test
 * demo with the settings a push needs, signed in as the pushing roles; the settling job runs only when a
 * test calls it (settleDue), never on its own timer in between.
 */
export async function startAccountingServer(tok: Record<string, string>): Promise<TestServer> {
  const s = await startTestServer();
  for (const u of ['demo1', 'demo12', 'demo16', 'demo13', 'admin']) tok[u] = await s.login(u);
  const deptId = (await s.db.kysely.selectFrom('users').select('dept_id').where('login_name', '=', 'demo12').executeTakeFirstOrThrow()).dept_id!;
  await setupSettings(s, deptId);
  await s.app.reimbPushSettleJob.stop();
  return s;
}

/** The accounting test files' reads of one server (`server()` once its beforeAll has run). */
export function accountingHelpers(server: () => TestServer, tok: Record<string, string>) {
  const k = () => server().db.kysely;
  return {
    call: (path: string, body: unknown, who = 'demo12') => server().call(`/api/reimbursement/accounting${path}`, body, tok[who]),
    bill: (id: string) => k().selectFrom('reimb_bills').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
    vouchersOf: (billNo: string) => k().withTables<{ accountingsim_vouchers: { id: string; voucher_no: string; period: string; body: string } }>().selectFrom('accountingsim_vouchers').selectAll().where('id', '=', billNo).execute(),
    pushes: (id: string) => k().selectFrom('reimb_pushes').selectAll().where('bill_id', '=', id).orderBy('created_at').execute(),
    invoices: (ids: string[]) => k().selectFrom('income_invoices').select(['id', 'usage', 'use_kind', 'doc_no', 'booking_state']).where('id', 'in', ids).execute(),
    messagesOf: (userId: string) => k().selectFrom('user_messages').select(['title', 'content']).where('user_id', '=', userId).execute(),
    /** The accounting exchanges of a bill, by method (the sync log indexes them by the bill number). */
    exchanges: async (billNo: string, type: string) =>
      (await k().selectFrom('sync_logs as l').innerJoin('sync_log_refs as f', 'f.sync_log_id', 'l.id').select('l.id').where('f.ref', '=', billNo).where('l.type', '=', type).execute()).length,
    /** This month in Beijing time, as the voucher period (202611). */
    period: () => new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 7).replace('-', ''),
  };
}
