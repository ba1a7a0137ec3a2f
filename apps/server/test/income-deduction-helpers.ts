/**
 * Shared pieces of the ticking tests (income-deduction-*.test.ts, issue 14): the server with the four
 * roles' tokens and the tax period, a tickable pool invoice known to the simulated tax service, an
 * invoice's tick facts, the service's own tick of it, a tick request, and an import sheet.
 */
import ExcelJS from 'exceljs';
import { expect } from 'vitest';
import { registerKnownIncoming } from '../src/integrations/tax/index.js';
import { simDb } from '../src/integrations/tax/simulator/store.js';
import { startTestServer, type TestServer } from './helpers.js';
import { entry, nextDigital } from './income-helpers.js';

export const D = '/api/income/deduction';
export const ZERO = '00000000-0000-4000-8000-000000000000';

export type TickPeriodFacts = { period: string; windowFrom: string; windowTo: string };
export interface TickEnv {
  s: TestServer;
  t1: string;
  t13: string;
  t14: string;
  t16: string;
  period: TickPeriodFacts;
}

/** A test server (with the demo), the tokens of roles 1, 13, 14 and 16, and the current tax period. */
export async function startTicking(): Promise<TickEnv> {
  const s = await startTestServer();
  const [t1, t13, t14, t16] = (await Promise.all(['demo1', 'demo13', 'demo14', 'demo16'].map((n) => s.login(n)))) as [string, string, string, string];
  const p = await s.call(`${D}/period`, {}, t13);
  expect(p.code, p.message).toBe(20000);
  return { s, t1, t13, t14, t16, period: p.r };
}

/** The helpers over the file's server (read when called: the server starts in beforeAll). */
export function tickHelpers(env: () => Pick<TickEnv, 's' | 't13' | 'period'>) {
  /** An issue day inside the period's window. */
  const inWindow = () => {
    const { period } = env();
    const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
    const end = period.windowTo < today ? period.windowTo : today;
    return new Date(Date.parse(`${end}T00:00:00Z`) - 3 * 86_400_000).toISOString().slice(0, 10);
  };
  let amountSerial = 0;

  /**
   * A tickable pool invoice (数电专票, verified), entered through the pool and known to the simulated tax
   * service (unless `known: false`); `risk` also as the service sees it.
   */
  async function fresh(o: { known?: boolean; risk?: '01' | '02' | '03'; tax?: number; booked?: boolean; sellerName?: string; kind?: string } = {}): Promise<{ id: string; no: string }> {
    const { s, t13 } = env();
    const no = nextDigital();
    const tax = o.tax ?? 900;
    // A different amount each time: the same seller, day and total would be flagged 疑似重复.
    const excl = 10000 + ++amountSerial;
    const a = await s.call('/api/income/pool/save', entry({ digitalNo: no, issueDate: inWindow(), amountExcl: excl, tax, amountIncl: excl + tax, lines: [{ name: '*建筑服务*劳务分包', spec: '', unit: '项', quantity: '1', unitPrice: (excl / 100).toFixed(2), amount: excl, taxRate: '0.09', tax }], ...(o.sellerName ? { sellerName: o.sellerName } : {}), ...(o.kind ? { kind: o.kind } : {}) }), t13);
    expect(a.code, a.message).toBe(20000);
    await s.db.kysely.updateTable('income_invoices').set({ verify_state: 1, verified_at: new Date().toISOString(), risk_level: o.risk ?? '01', booking_state: o.booked ? '02' : '01' }).where('id', '=', a.r.id).execute();
    if (o.known !== false) await registerKnownIncoming({ db: s.db, synclog: s.app.synclog }, [{ key: no, kind: o.kind ?? '81', issueDate: inWindow(), tax, riskLevel: o.risk ?? '01' }]);
    return { id: a.r.id, no };
  }
  const facts = (id: string) => env().s.db.kysely.selectFrom('income_invoices').select(['vat_usage', 'tick_state', 'effective_tax', 'deduct_reason', 'tick_period', 'ticked_by']).where('id', '=', id).executeTakeFirstOrThrow();
  const simTick = (key: string) => simDb(env().s.db).selectFrom('taxsim_income_ticks').selectAll().where('invoice_key', '=', key).executeTakeFirst();
  const tick = (body: Record<string, unknown>, t = env().t13, page = '') => env().s.call(`${D}/${page}tick`, { vatUsage: 1, ...body }, t);
  return { inWindow, fresh, facts, simTick, tick };
}

/** An import sheet: the header 发票代码, 发票号码, 数电号码, 有效税额, then the rows. */
export async function sheet(rows: Array<[string, string, string, string]>): Promise<string> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('勾选');
  ws.addRow(['发票代码', '发票号码', '数电号码', '有效税额']);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer()).toString('base64');
}
