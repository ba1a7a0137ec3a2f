/**
 * The incoming invoices' generator, shared by the demo company (seed/income.ts) and the large mode
 * (seed/largeIncome.ts): the demo company's suppliers with their weights (the mix of a construction
 * company: subcontractors and construction services at 9 %, materials and equipment at 13 %, design
 * and consulting at 6 %, small suppliers at the 3 % simplified rate, fuel, hotels, rail, air and road
 * tickets, tolls, a few customs notes and withholding certificates) and one invoice's face drawn from
 * a seeded stream. Numbers never meet the tax simulator's (its 20-digit numbers carry 2 at position 5
 * and its 8-digit numbers start with the day of the year): the demo's carry 9 / start with 9, the large
 * mode's 8 / 8.
 */
import { IncomeSource, type IncomeKindCode } from '@zhyy/shared';
import { identityKey } from '../modules/income/identity/identity.js';
import type { IncomeInvoiceTable, IncomeLineTable } from '../modules/income/pool/tables.js';
import { COMPANY_NAME } from './company.js';
import { creditCode, SELLER } from './invoiceData.js';
import type { Rng } from './rng.js';

export type IncomeCategory = 'construction' | 'materials' | 'design' | 'simplified' | 'fuel' | 'hotel' | 'rail' | 'air' | 'road' | 'toll' | 'customs' | 'withholding';

export interface Supplier {
  name: string;
  taxNo: string;
  category: IncomeCategory;
  kinds: IncomeKindCode[];
  rate: number;
  /** Line names the supplier invoices (one to three lines drawn from them). */
  items: string[];
  unit: string;
  /** Amount excluding tax, 分. */
  min: number;
  max: number;
}

const sup = (name: string, first17: string, category: IncomeCategory, kinds: IncomeKindCode[], rate: number, items: string[], unit: string, min: number, max: number): Supplier => ({
  name, taxNo: creditCode(first17), category, kinds, rate, items, unit, min, max,
});

/** [supplier, weight]: weights are shares of the invoice count (tickets and tolls are many and small). */
export const INCOME_SUPPLIERS: ReadonlyArray<readonly [Supplier, number]> = [
  // Subcontractors and construction services, 9 %.
  [sup('江苏宏远建筑劳务有限公司', '91320106MA1N8KQ2X', 'construction', ['81', '01'], 0.09, ['*建筑服务*劳务分包', '*建筑服务*脚手架搭设'], '项', 5_000_000, 80_000_000), 40],
  [sup('南京中盛建设工程有限公司', '91320115MA1X3LP7C', 'construction', ['81'], 0.09, ['*建筑服务*专业分包', '*建筑服务*土石方工程'], '项', 10_000_000, 120_000_000), 25],
  [sup('江苏华通机电安装工程有限公司', '91320102MA1W6FE2P', 'construction', ['81', '85'], 0.09, ['*建筑服务*机电安装', '*建筑服务*消防工程'], '项', 3_000_000, 60_000_000), 20],
  [sup('苏州吴中幕墙装饰工程有限公司', '91320506MA1M4TQ8R', 'construction', ['81'], 0.09, ['*建筑服务*幕墙工程', '*建筑服务*装饰装修'], '项', 5_000_000, 90_000_000), 15],
  // Materials and equipment, 13 %.
  [sup('苏州金石建材贸易有限公司', '91320505MA1P4DR3E', 'materials', ['81', '01'], 0.13, ['*黑色金属冶炼压延品*螺纹钢', '*黑色金属冶炼压延品*盘螺', '*黑色金属冶炼压延品*H型钢'], '吨', 2_000_000, 40_000_000), 45],
  [sup('南京海螺水泥销售有限公司', '91320100MA1Y2KC6F', 'materials', ['81'], 0.13, ['*水泥*P.O42.5水泥', '*水泥*P.O52.5水泥'], '吨', 500_000, 15_000_000), 35],
  [sup('南京宁新商品混凝土有限公司', '91320113MA1U7WL3H', 'materials', ['81'], 0.13, ['*非金属矿物制品*C30商品混凝土', '*非金属矿物制品*C35商品混凝土'], '立方米', 1_000_000, 25_000_000), 35],
  [sup('常州恒信电气设备有限公司', '91320411MA1R7GT5A', 'materials', ['81'], 0.13, ['*电气机械及器材*配电柜', '*电线电缆*电力电缆'], '台', 1_000_000, 20_000_000), 20],
  [sup('无锡巨能工程机械租赁有限公司', '91320211MA1V5PJ9N', 'materials', ['81'], 0.13, ['*经营租赁*塔吊租赁', '*经营租赁*挖掘机租赁'], '台班', 300_000, 8_000_000), 15],
  [sup('江苏苏宁办公用品有限公司', '91320104MA1T2QM5K', 'materials', ['82', '81'], 0.13, ['*纸制品*复印纸', '*办公设备*打印机', '*文具*文件夹'], '批', 20_000, 1_500_000), 20],
  // Design, consulting, supervision, 6 %.
  [sup('上海筑景建筑设计有限公司', '91310115MA1K2HW8B', 'design', ['81'], 0.06, ['*设计服务*施工图设计', '*设计服务*方案设计'], '项', 500_000, 15_000_000), 15],
  [sup('江苏建科工程咨询有限公司', '91320100MA1Q8XR4D', 'design', ['81'], 0.06, ['*鉴证咨询服务*工程监理', '*鉴证咨询服务*造价咨询'], '项', 300_000, 8_000_000), 15],
  [sup('南京智源信息技术有限公司', '91320114MA1P6DT7G', 'design', ['81', '82'], 0.06, ['*信息技术服务*软件服务费', '*信息技术服务*云服务费'], '项', 100_000, 3_000_000), 8],
  // Small suppliers at the 3 % simplified rate.
  [sup('南京市江宁区明达五金经营部', '92320115MA1T5YJ3K', 'simplified', ['82', '04'], 0.03, ['*金属制品*五金配件', '*金属制品*紧固件'], '批', 20_000, 800_000), 25],
  [sup('无锡顺通物流有限公司', '91320214MA1Q6BN4D', 'simplified', ['82', '81'], 0.03, ['*运输服务*货物运输', '*运输服务*装卸搬运'], '车次', 100_000, 3_000_000), 20],
  [sup('南京市鼓楼区利民劳保用品商店', '92320106MA1R3CK8W', 'simplified', ['82'], 0.03, ['*劳保用品*安全帽', '*劳保用品*反光背心'], '批', 10_000, 300_000), 15],
  // Fuel and hotels on business trips.
  [sup('中国石化销售股份有限公司江苏南京石油分公司', '91320100134876532', 'fuel', ['82'], 0.13, ['*汽油*92号车用汽油', '*柴油*0号车用柴油'], '升', 20_000, 200_000), 45],
  [sup('南京金陵饭店有限公司', '91320000134761532', 'hotel', ['82', '81'], 0.06, ['*住宿服务*住宿费', '*餐饮服务*餐费'], '间夜', 30_000, 300_000), 30],
  // Tickets (deductible at 9 %) and tolls.
  [sup('中国铁路上海局集团有限公司', '91310000132234986', 'rail', ['rail'], 0.09, ['铁路客运'], '张', 5_000, 80_000), 150],
  [sup('中国东方航空股份有限公司', '91310000132116173', 'air', ['air'], 0.09, ['航空客运'], '张', 40_000, 300_000), 40],
  [sup('中国国际航空股份有限公司', '91110000100006015', 'air', ['air'], 0.09, ['航空客运'], '张', 40_000, 300_000), 25],
  [sup('南京长途汽车客运集团有限责任公司', '91320100134956782', 'road', ['road'], 0.03, ['公路客运'], '张', 2_000, 30_000), 45],
  [sup('江苏宁沪高速公路股份有限公司', '91320000134762764', 'toll', ['14'], 0.03, ['*经营租赁*通行费'], '次', 2_000, 30_000), 120],
  [sup('江苏扬子大桥股份有限公司', '91320000134773415', 'toll', ['14'], 0.03, ['*经营租赁*通行费'], '次', 1_000, 10_000), 40],
  // Customs notes and withholding certificates.
  [sup('中华人民共和国南京海关', '11320000014000013', 'customs', ['customs'], 0.13, ['进口设备'], '批', 5_000_000, 30_000_000), 2],
  [sup('国家税务总局南京市建邺区税务局', '11320105MB1D8765X', 'withholding', ['withholding'], 0.06, ['代扣代缴增值税'], '项', 100_000, 2_000_000), 2],
];
const WEIGHT = INCOME_SUPPLIERS.reduce((a, [, w]) => a + w, 0);

export function pickSupplier(rng: Rng): Supplier {
  let r = rng.next() * WEIGHT;
  for (const [s, w] of INCOME_SUPPLIERS) if ((r -= w) < 0) return s;
  return INCOME_SUPPLIERS[0]![0];
}

/** Another company's name and tax number printed as the buyer (an invoice sent to us by mistake). */
export const OTHER_BUYER = { name: '华建工程技术服务（南京）有限公司', taxNo: creditCode('91320105MA1W3KD6Y') };

const pad = (n: number, w: number) => String(n).padStart(w, '0');
const TICKETS = new Set(['rail', 'air', 'road']);
const DIGITAL = new Set(['81', '82', '85', '86', 'rail', 'air', 'dtoll']);
const CODED = new Set(['01', '04', '08', '10', '14']);
/** The number prefix of the documents without a code or 数电 number: customs notices, road tickets, paper rail tickets and itineraries, withholding certificates. */
const NUMBER_PREFIX: Record<string, string> = { customs: 'HG', road: 'GL', rail: 'TL', air: 'XC' };

export interface DrawnInvoice {
  row: IncomeInvoiceTable;
  lines: IncomeLineTable[];
  supplier: Supplier;
}

/**
 * One invoice's face and lines: `n` its number in its series (unique within the series), `series`
 * the digit that keeps the series apart (9 demo, 8 large mode), `lineCount` at most this many lines.
 */
export function drawIncome(rng: Rng, n: number, series: '8' | '9', o: { id: string; lineId: (k: number) => string; issueDate: string; at: string; maxLines: number; supplier?: Supplier }): DrawnInvoice {
  const s = o.supplier ?? pickSupplier(rng);
  const picked = rng.pick(s.kinds);
  // A ticket as drawn (the random draws stay those of a ticket even when it becomes an e-invoice below).
  const ticket = TICKETS.has(picked);
  // Some road passenger stations issue 数电普票 whose line is passenger transport (deducted by the tax printed).
  // A quarter of the toll invoices are 数电 ones (dtoll, issue 29: no 专/普 label, the 20-digit number).
  const kind = picked === 'road' && n % 6 === 1 ? '82' : picked === '14' && n % 4 === 1 ? 'dtoll' : picked;
  const yy = o.issueDate.slice(2, 4);
  // A third of the rail tickets and air itineraries are paper ones (no 20-digit number): computed by the formula
  // of 公告2019年第39号, while the 数电 ones (公告2024年第8号, 第9号) are ticked with their stated tax.
  const paperTicket = (kind === 'rail' || kind === 'air') && n % 3 === 0;
  const digital = DIGITAL.has(kind) && !paperTicket;
  const coded = CODED.has(kind);
  const digitalNo = digital ? `${yy}32${series}${pad(n, 15)}` : '';
  // 8-digit numbers: the series digit and 7 digits; the code carries the rest of n (unique codes + numbers).
  const invoiceCode = coded ? `032${series}${pad(Math.floor(n / 1e7), 4)}${kind === '14' ? '12' : '11'}${yy}` : kind === 'customs' ? `3201${yy}${series}${pad(n % 1e5, 5)}` : '';
  const invoiceNo = coded ? `${series}${pad(n % 1e7, 7)}` : digital ? '' : `${NUMBER_PREFIX[kind] ?? 'WS'}${yy}${series}${pad(n, 12)}`;
  let excl: number;
  let tax: number;
  let incl: number;
  if (ticket) {
    incl = rng.int(s.min, s.max);
    tax = picked === 'road' ? Math.round((incl / 1.03) * 0.03) : Math.round((incl / 1.09) * 0.09);
    excl = incl - tax;
  } else {
    // Amounts spread logarithmically between min and max (many small, few large).
    excl = Math.round(s.min * (s.max / s.min) ** rng.next());
    tax = Math.round(excl * s.rate);
    incl = excl + tax;
  }
  const source = TICKETS.has(kind) ? IncomeSource.uploaded : kind === '01' || kind === '04' ? IncomeSource.scanned : kind === 'customs' || kind === 'withholding' ? IncomeSource.manual : IncomeSource.collected;
  const row: IncomeInvoiceTable = {
    id: o.id, ident: identityKey({ kind, invoiceCode, invoiceNo, digitalNo }), kind, invoice_code: invoiceCode, invoice_no: invoiceNo, digital_no: digitalNo, issue_date: o.issueDate,
    seller_name: s.name, seller_tax_no: s.taxNo, buyer_name: COMPANY_NAME, buyer_tax_no: SELLER.taxNo,
    amount_excl: excl, tax, amount_incl: incl, check_code: coded ? pad(rng.int(0, 9999999), 8) + pad(rng.int(0, 999999999), 12) : '',
    invoice_state: 0, red_pending: 0, risk_level: '01', verify_state: 0, verified_at: null, sign_state: 0, archive_no: '', booking_state: '01', booked_at: null,
    source, usage: 0, use_kind: '', doc_no: '', buyer_mismatch: 0, duplicate_of: null, arrivals: 1, remark: '', created_by: null, created_at: o.at, updated_at: o.at,
  };
  // Lines: tickets one; others one to maxLines, the amount and tax split so that they add up to the face.
  const count = ticket || kind === 'customs' || kind === 'withholding' ? 1 : Math.min(o.maxLines, 1 + Math.floor(rng.next() * rng.next() * 3));
  const lines: IncomeLineTable[] = [];
  let restAmount = excl;
  let restTax = tax;
  for (let k = 0; k < count; k++) {
    const last = k === count - 1;
    const amount = last ? restAmount : Math.round((excl / count) * (0.6 + 0.8 * rng.next()));
    const lineTax = last ? restTax : Math.round(amount * s.rate);
    restAmount -= amount;
    restTax -= lineTax;
    const qty = ticket || s.unit === '项' ? 1 : rng.int(1, 200);
    lines.push({
      id: o.lineId(k), invoice_id: o.id, line_no: k + 1, name: s.items[k % s.items.length]!, spec: '', unit: s.unit, quantity: String(qty),
      unit_price: (amount / 100 / qty).toFixed(2), amount, tax_rate: String(s.rate), tax: lineTax,
    });
  }
  if (ticket) passengerTicket(row, lines, n, o.lineId);
  return { row, lines, supplier: s };
}

/** The demo's travellers (employees on business trips). */
export const PASSENGERS = ['张伟', '王芳', '李娜', '刘洋', '陈静', '杨帆', '赵磊', '黄敏', '周杰', '吴婷', '徐强', '孙丽', '马超', '朱琳', '胡斌', '郭峰'];
const FUEL = [2000, 4000, 6000, 12000];
const AIR_FUND = 5000;
const taxIn = (gross: number, rate: number) => Math.round((gross / (1 + rate)) * rate);

/**
 * A passenger ticket's face as the real ones read (no random draws: n decides): the passenger and the day
 * of travel in the remark, as the tax service prints them (乘车（机）人：…；出行日期：…), except a third of
 * the road tickets (定额客票 without the traveller's name); an air itinerary itemised as fare, fuel
 * surcharge (both 9 %, the printed tax on their sum) and 民航发展基金 (no tax), one in 23 international;
 * the 数电普票 of a road passenger station with its passenger-transport line.
 */
function passengerTicket(row: IncomeInvoiceTable, lines: IncomeLineTable[], n: number, lineId: (k: number) => string): void {
  const named = !(row.kind === 'road' && n % 3 === 0) && row.kind !== '82';
  if (named) row.remark = `乘车（机）人：${PASSENGERS[n % PASSENGERS.length]}；出行日期：${row.issue_date}`;
  if (row.kind === '82') {
    Object.assign(lines[0]!, { name: '*运输服务*公路旅客运输服务', tax_rate: '0.03' });
    return;
  }
  if (row.kind !== 'air') return;
  const fuel = FUEL[n % FUEL.length]!;
  const fare = row.amount_incl - fuel - AIR_FUND;
  const intl = n % 23 === 0;
  const fareTax = taxIn(fare, 0.09);
  const fuelTax = taxIn(fuel, 0.09);
  Object.assign(row, { tax: fareTax + fuelTax, amount_excl: row.amount_incl - fareTax - fuelTax });
  const line = (k: number, name: string, spec: string, gross: number, rate: string, tax: number): IncomeLineTable => ({
    id: lineId(k), invoice_id: row.id, line_no: k + 1, name, spec, unit: '张', quantity: '1', unit_price: ((gross - tax) / 100).toFixed(2), amount: gross - tax, tax_rate: rate, tax,
  });
  lines.splice(0, lines.length,
    line(0, intl ? '*运输服务*国际航空旅客运输服务' : '*运输服务*国内航空旅客运输服务', '票价', fare, '0.09', fareTax),
    line(1, '*运输服务*燃油附加费', '', fuel, '0.09', fuelTax),
    line(2, '民航发展基金', '', AIR_FUND, '0', 0),
  );
}

/** The Asia/Shanghai day `back` days before `now`. */
export const shanghaiDayBefore = (now: Date, back: number) => new Date(now.getTime() + 8 * 3600_000 - back * 86_400_000).toISOString().slice(0, 10);

/** A UUID-shaped id of a generated row: `table` (4 hex digits) and the row's number (version nibble 8: never a v5 or v7 id). */
export const incomeRowId = (table: number, n: number) => `6f1c${table.toString(16).padStart(4, '0')}-0d13-8000-8000-${n.toString(16).padStart(12, '0')}`;
