/**
 * The demo company's incoming-invoice pool (issue 13): 360 invoices over the last 12 months —
 * subcontractors (9 %) and materials (13 %) on 数电专票 and paper 专票, design at 6 %, small suppliers
 * at the 3 % simplified rate, rail and air tickets, tolls, a few customs notes and withholding
 * certificates — with a handful abnormal (voided, red-reversed, red confirmation pending, 失控,
 * 异常凭证, buyer not ours, a duplicate, a verification mismatch) and some held by reimbursements or
 * closed against contracts. Written in a few bulk inserts so the demo start stays quick.
 */
import {
  IncomeBookingState, IncomeInvoiceState, IncomeRiskLevel, IncomeSignState, IncomeSource, IncomeUsage, IncomeVerifyState,
  type IncomeKindCode,
} from '@zhyy/shared';
import { identityKey } from '../modules/income/identity.js';
import type { IncomeEventTable, IncomeInvoiceTable, IncomeLineTable, IncomeLockTable } from '../modules/income/tables.js';
import { demoId } from '../platform/ids.js';
import { COMPANY_NAME } from './company.js';
import type { SeedContext } from './index.js';
import { creditCode, SELLER } from './invoiceData.js';
import { Rng } from './rng.js';

const COUNT = 360;

type Supplier = { name: string; taxNo: string; kind: IncomeKindCode[]; rate: number; item: string; min: number; max: number };
const sup = (name: string, first17: string, kind: IncomeKindCode[], rate: number, item: string, min: number, max: number): Supplier => ({ name, taxNo: creditCode(first17), kind, rate, item, min, max });

const SUPPLIERS: Array<[Supplier, number]> = [
  [sup('江苏宏远建筑劳务有限公司', '91320106MA1N8KQ2X', ['81', '01'], 0.09, '*建筑服务*劳务分包', 5_000_000, 80_000_000), 6],
  [sup('南京中盛建设工程有限公司', '91320115MA1X3LP7C', ['81'], 0.09, '*建筑服务*专业分包', 10_000_000, 120_000_000), 4],
  [sup('苏州金石建材贸易有限公司', '91320505MA1P4DR3E', ['81', '01'], 0.13, '*黑色金属冶炼压延品*螺纹钢', 2_000_000, 40_000_000), 6],
  [sup('常州恒信电气设备有限公司', '91320411MA1R7GT5A', ['81'], 0.13, '*电气机械及器材*配电柜', 1_000_000, 20_000_000), 3],
  [sup('上海筑景建筑设计有限公司', '91310115MA1K2HW8B', ['81'], 0.06, '*设计服务*施工图设计', 500_000, 15_000_000), 3],
  [sup('南京市江宁区明达五金经营部', '92320115MA1T5YJ3K', ['82', '04'], 0.03, '*金属制品*五金配件', 20_000, 800_000), 3],
  [sup('无锡顺通物流有限公司', '91320214MA1Q6BN4D', ['82'], 0.03, '*运输服务*货物运输', 100_000, 3_000_000), 2],
];
const RAIL = sup('中国铁路上海局集团有限公司', '91310000132234986', ['rail'], 0.09, '铁路客运', 5_000, 80_000);
const AIR = sup('中国东方航空股份有限公司', '91310000132116173', ['air'], 0.09, '航空客运', 40_000, 300_000);
const TOLL = sup('江苏宁沪高速公路股份有限公司', '91320000134762764', ['14'], 0.03, '*经营租赁*通行费', 2_000, 30_000);
const CUSTOMS = sup('中华人民共和国南京海关', '11320000014000013', ['customs'], 0.13, '进口设备', 5_000_000, 30_000_000);
const WITHHOLD = sup('国家税务总局南京市建邺区税务局', '11320105MB1D8765X', ['withholding'], 0.06, '代扣代缴增值税', 100_000, 2_000_000);

const pad = (n: number, w: number) => String(n).padStart(w, '0');
const DAY_MS = 86_400_000;
const day = (now: Date, back: number) => new Date(now.getTime() + 8 * 3600_000 - back * DAY_MS).toISOString().slice(0, 10);

function pickSupplier(rng: Rng, i: number): Supplier {
  if (i % 12 === 5) return RAIL;
  if (i % 12 === 9) return AIR;
  if (i % 15 === 7) return TOLL;
  if (i % 90 === 44) return CUSTOMS;
  if (i % 90 === 77) return WITHHOLD;
  const total = SUPPLIERS.reduce((a, [, w]) => a + w, 0);
  let r = rng.int(1, total);
  for (const [s, w] of SUPPLIERS) if ((r -= w) <= 0) return s;
  return SUPPLIERS[0]![0];
}

export async function seedIncome(ctx: SeedContext): Promise<void> {
  const rng = new Rng(20261313);
  const now = ctx.now;
  const at = now.toISOString();
  const rows: IncomeInvoiceTable[] = [];
  const lines: IncomeLineTable[] = [];
  const events: IncomeEventTable[] = [];
  const locks: IncomeLockTable[] = [];
  const yy = pad(now.getUTCFullYear() % 100, 2);
  for (let i = 0; i < COUNT; i++) {
    const s = pickSupplier(rng, i);
    const kind = rng.pick(s.kind);
    const digital = ['81', '82', 'rail', 'air'].includes(kind);
    const coded = ['01', '04', '14'].includes(kind);
    const digitalNo = digital ? `${yy}32${pad(rng.int(0, 9999), 4)}${pad(i + 1, 12)}` : '';
    const invoiceCode = coded ? `0320019${pad(rng.int(0, 99999), 5)}` : kind === 'customs' ? `3201${yy}${pad(i, 6)}` : '';
    const invoiceNo = coded ? pad(10_000_000 + i * 7, 8) : digital ? '' : `${kind === 'customs' ? 'HG' : 'WS'}${yy}${pad(i, 8)}`;
    let amountIncl: number;
    let excl: number;
    let tax: number;
    if (kind === 'rail' || kind === 'air') {
      amountIncl = rng.int(s.min, s.max);
      tax = Math.round((amountIncl / 1.09) * 0.09);
      excl = amountIncl - tax;
    } else {
      excl = rng.int(s.min, s.max);
      tax = Math.round(excl * s.rate);
      amountIncl = excl + tax;
    }
    const back = rng.int(1, 365);
    const issueDate = day(now, back);
    const id = demoId(`income:${i}`);
    const signed = back > 30 && rng.next() < 0.7;
    const verified = back > 3;
    const row: IncomeInvoiceTable = {
      id, ident: identityKey({ kind, invoiceCode, invoiceNo, digitalNo }), kind, invoice_code: invoiceCode, invoice_no: invoiceNo, digital_no: digitalNo, issue_date: issueDate,
      seller_name: s.name, seller_tax_no: s.taxNo, buyer_name: COMPANY_NAME, buyer_tax_no: SELLER.taxNo,
      amount_excl: excl, tax, amount_incl: amountIncl, check_code: coded ? pad(rng.int(0, 99999999), 8) + pad(rng.int(0, 999999999999), 12) : '',
      invoice_state: IncomeInvoiceState.normal, red_pending: 0, risk_level: IncomeRiskLevel.normal,
      verify_state: verified ? IncomeVerifyState.match : IncomeVerifyState.none, verified_at: verified ? new Date(now.getTime() - (back - 1) * DAY_MS).toISOString() : null,
      sign_state: signed ? IncomeSignState.signed : IncomeSignState.unsigned, archive_no: signed ? `GD${issueDate.slice(0, 7).replace('-', '')}${pad(i, 4)}` : '',
      booking_state: signed ? IncomeBookingState.bookedDeduct : IncomeBookingState.none,
      source: kind === 'rail' || kind === 'air' ? IncomeSource.uploaded : kind === '04' || kind === '01' ? IncomeSource.scanned : kind === 'customs' || kind === 'withholding' ? IncomeSource.manual : IncomeSource.collected,
      usage: IncomeUsage.available, use_kind: '', doc_no: '', buyer_mismatch: 0, duplicate_of: null, arrivals: 1, remark: '', created_by: null, created_at: at, updated_at: at,
    };
    rows.push(row);
    lines.push({ id: demoId(`income-line:${i}`), invoice_id: id, line_no: 1, name: s.item, spec: '', unit: kind === 'rail' || kind === 'air' ? '张' : '项', quantity: '1', unit_price: (excl / 100).toFixed(2), amount: excl, tax_rate: String(s.rate), tax });
    events.push({ id: demoId(`income-event:${i}`), invoice_id: id, kind: 'arrive', message: `${IncomeSource.label(row.source)}进入票池`, user_name: '', created_at: at });
  }
  // The abnormal handful (异常票池), each flag at least once.
  const set = (i: number, patch: Partial<IncomeInvoiceTable>) => Object.assign(rows[i]!, patch);
  set(11, { invoice_state: IncomeInvoiceState.voided });
  set(23, { invoice_state: IncomeInvoiceState.fullRed });
  set(37, { invoice_state: IncomeInvoiceState.partRed });
  set(52, { red_pending: 1 });
  set(61, { invoice_state: IncomeInvoiceState.lostControl });
  set(74, { risk_level: IncomeRiskLevel.abnormalVoucher });
  set(88, { buyer_name: '华建工程技术服务（南京）有限公司', buyer_mismatch: 1 });
  set(96, { verify_state: IncomeVerifyState.mismatch });
  set(103, { risk_level: IncomeRiskLevel.suspicious });
  // A paper copy of invoice 120 entered again under another number: same seller, day and total.
  const orig = rows[120]!;
  set(121, { seller_name: orig.seller_name, seller_tax_no: orig.seller_tax_no, issue_date: orig.issue_date, amount_excl: orig.amount_excl, tax: orig.tax, amount_incl: orig.amount_incl, duplicate_of: orig.id });
  lines[121] = { ...lines[121]!, amount: orig.amount_excl, tax: orig.tax, unit_price: (orig.amount_excl / 100).toFixed(2) };
  // Uses: some held by reimbursements in progress, some closed (reimbursed and booked, archived against a contract).
  let bx = 0;
  for (let i = 130; i < 170; i += 3) {
    const r = rows[i]!;
    if (r.invoice_state !== IncomeInvoiceState.normal || r.duplicate_of) continue;
    const contract = r.amount_incl > 20_000_000;
    const docNo = contract ? `HT${r.issue_date.slice(0, 4)}-${pad(i, 3)}` : `BX${r.issue_date.slice(0, 7).replace('-', '')}-${pad(++bx, 4)}`;
    const useKind = contract ? 'contract' : 'reimbursement';
    const closed = contract || i % 2 === 0;
    Object.assign(r, { usage: closed ? IncomeUsage.closed : IncomeUsage.locked, use_kind: useKind, doc_no: docNo });
    locks.push({ id: demoId(`income-lock:${i}`), invoice_id: r.id, use_kind: useKind, doc_no: docNo, state: closed ? 'closed' : 'locked', active: 1, created_at: at, ended_at: closed ? at : null });
  }
  for (let k = 0; k < rows.length; k += 100) await ctx.db.insertInto('income_invoices').values(rows.slice(k, k + 100)).execute();
  for (let k = 0; k < lines.length; k += 200) await ctx.db.insertInto('income_invoice_lines').values(lines.slice(k, k + 200)).execute();
  for (let k = 0; k < events.length; k += 200) await ctx.db.insertInto('income_events').values(events.slice(k, k + 200)).execute();
  if (locks.length) await ctx.db.insertInto('income_locks').values(locks).execute();
}
