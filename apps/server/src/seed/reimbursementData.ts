/**
 * The demo reimbursements' reference data (seed/reimbursement.ts): the pool invoice each kind of
 * expense is backed by (seller, kind, line name, VAT rate, amount range), the travel destinations,
 * the reasons, and the pool invoice builder. Invoice numbers carry 7 where the income demo's carry 9
 * and the large mode's 8, so they never meet.
 */
import { IncomeSource } from '@zhyy/shared';
import { identityKey } from '../modules/income/identity/identity.js';
import type { IncomeInvoiceTable, IncomeLineTable } from '../modules/income/pool/tables.js';
import { COMPANY_NAME } from './company.js';
import { creditCode, SELLER } from './invoiceData.js';

export interface ExpenseSource {
  /** reimb_categories.code (migration 0033). */
  category: string;
  seller: string;
  taxNo: string;
  /** Pool kind: rail, air, road (tickets), 81 数电专票, 82 数电普票. */
  kind: 'rail' | 'air' | 'road' | '81' | '82';
  item: string;
  unit: string;
  /** The invoice's VAT rate. */
  rate: string;
  /** The line's tax rate ('0' for 业务招待: not deductible). */
  lineRate?: string;
  /** Amount including tax, 分. */
  min: number;
  max: number;
}

const src = (category: string, seller: string, first17: string, kind: ExpenseSource['kind'], item: string, unit: string, rate: string, min: number, max: number, lineRate?: string): ExpenseSource => ({
  category, seller, taxNo: creditCode(first17), kind, item, unit, rate, min, max, ...(lineRate === undefined ? {} : { lineRate }),
});

export const RAIL = src('0101', '中国铁路上海局集团有限公司', '91310000132234986', 'rail', '铁路客运', '张', '0.09', 5_000, 80_000);
export const AIR = src('0101', '中国东方航空股份有限公司', '91310000132116173', 'air', '*运输服务*国内航空旅客运输服务', '张', '0.09', 50_000, 260_000);
export const ROAD = src('0101', '南京长途汽车客运集团有限责任公司', '91320100134956782', 'road', '公路客运', '张', '0.03', 2_000, 30_000);
export const HOTELS = [
  src('0102', '南京金陵饭店有限公司', '91320000134761532', '81', '*住宿服务*住宿费', '间夜', '0.06', 0, 0),
  src('0102', '锦江之星旅馆有限公司', '91310000607216375', '81', '*住宿服务*住宿费', '间夜', '0.06', 0, 0),
  src('0102', '华住酒店管理有限公司', '91310000MA1FL3CK7', '81', '*住宿服务*住宿费', '间夜', '0.06', 0, 0),
];
/** Daily expenses by category: [source, weight]. */
export const DAILY: ReadonlyArray<readonly [ExpenseSource, number]> = [
  [src('0201', '南京出租汽车客运服务有限公司', '91320100134880045', '82', '*运输服务*出租汽车客运服务', '次', '0.03', 1_500, 15_000), 30],
  [src('0301', '南京大牌档餐饮管理有限公司', '91320100MA1MD2KX6', '82', '*餐饮服务*餐饮服务', '次', '0.06', 30_000, 300_000, '0'), 14],
  [src('0401', '江苏苏宁办公用品有限公司', '91320104MA1T2QM5K', '82', '*纸制品*复印纸', '批', '0.13', 5_000, 200_000), 16],
  [src('0501', '中国移动通信集团江苏有限公司南京分公司', '91320100835774826', '82', '*电信服务*增值电信服务', '月', '0.06', 5_000, 30_000), 12],
  [src('0601', '南京国际会议中心有限公司', '91320100134785931', '81', '*会议服务*会议费', '项', '0.06', 100_000, 2_000_000), 3],
  [src('0701', '江苏建设教育培训中心', '91320000466002817', '81', '*教育培训服务*培训费', '人', '0.06', 50_000, 500_000), 4],
  [src('0801', '中国石化销售股份有限公司江苏南京石油分公司', '91320100134876532', '82', '*汽油*92号车用汽油', '升', '0.13', 10_000, 60_000), 14],
  [src('0802', '江苏宁沪高速公路股份有限公司', '91320000134762764', '82', '*经营租赁*通行费', '次', '0.03', 1_000, 20_000), 10],
  [src('0901', '南京市江宁区明达五金经营部', '92320115MA1T5YJ3K', '82', '*金属制品*五金配件', '批', '0.13', 5_000, 200_000), 8],
  [src('1001', '顺丰速运有限公司', '91440300279467709', '82', '*物流辅助服务*收派服务', '件', '0.06', 1_200, 20_000), 6],
];
const DAILY_WEIGHT = DAILY.reduce((a, [, w]) => a + w, 0);
export const pickDaily = (u: number): ExpenseSource => {
  let r = u * DAILY_WEIGHT;
  for (const [s, w] of DAILY) if ((r -= w) < 0) return s;
  return DAILY[0]![0];
};

/** Trip destinations: [city, weight] (the company is in 南京; trips go to its project sites and clients). */
export const DESTINATIONS: ReadonlyArray<readonly [string, number]> = [
  ['上海', 14], ['北京', 8], ['广州', 3], ['深圳', 4], ['苏州', 12], ['无锡', 9], ['杭州', 7], ['合肥', 5], ['武汉', 3], ['成都', 2],
  ['常州', 6], ['扬州', 6], ['盐城', 5], ['淮安', 4], ['镇江', 5], ['泰州', 3], ['宿迁', 2],
];
export const TRAVEL_REASONS = ['项目现场检查', '参加项目协调会', '投标文件递交', '客户拜访及合同洽谈', '工程竣工验收', '参加行业培训', '监理例会', '材料供应商考察'];
export const DAILY_REASONS = ['日常办公费用', '项目部日常费用', '客户接待费用', '通讯及交通费用', '车辆使用费用', '项目现场零星采购', '资料邮寄费用'];
export const BANKS = ['中国工商银行南京城南支行', '中国建设银行南京鼓楼支行', '中国银行南京河西支行', '招商银行南京分行营业部', '交通银行南京新街口支行'];
/** The seat class a ticket was bought in (mostly the lowest). */
export const seatOf = (kind: string, u: number, leader: boolean): string =>
  kind === 'rail' ? (leader && u < 0.5 ? '一等座' : u < 0.04 ? '一等座' : '二等座') : kind === 'air' ? (leader && u < 0.2 ? '公务舱' : '经济舱') : '普通客车';

/** The FY01 form's category options (seed/workflowTemplates.ts) for a category code. */
export const formCategoryOf = (code: string): string =>
  code.startsWith('01') ? '差旅费' : code === '0201' ? '交通费' : code === '0301' ? '业务招待费' : code === '0401' ? '办公用品' : code === '0501' ? '通讯费' : '其他';
/** A category code for an FY01 form option (the replayed instances' lines). */
export const categoryOfFormOption = (option: string): string =>
  ({ 差旅费: '0102', 交通费: '0201', 餐费: '0301', 业务招待费: '0301', 办公用品: '0401', 通讯费: '0501' } as Record<string, string>)[option] ?? '0901';
export const sourceOfCategory = (code: string): ExpenseSource => (code === '0102' ? HOTELS[0]! : DAILY.find(([s]) => s.category === code)?.[0] ?? DAILY[0]![0]);

const pad = (n: number, w: number) => String(n).padStart(w, '0');
/** Tax inside an amount including tax, rounded half up: amount × rate / (1 + rate). */
export const taxInside = (gross: number, rate: string): number => {
  const [num, den] = rateFraction(rate);
  // Integer arithmetic: gross × num / (den + num), half up.
  return Math.floor((2 * gross * num + (den + num)) / (2 * (den + num)));
};
function rateFraction(rate: string): [number, number] {
  const [, frac = ''] = rate.split('.');
  const den = 10 ** frac.length;
  return [Math.round(Number(rate) * den), den];
}

/**
 * A pool invoice of one line for an expense: the face including tax `gross`, issued on `issueDate` to the
 * company. `n` numbers it (unique in the series 7).
 */
export function expenseInvoice(s: ExpenseSource, n: number, o: { id: string; lineId: string; issueDate: string; at: string; gross: number; passenger: string }): { row: IncomeInvoiceTable; line: IncomeLineTable } {
  const yy = o.issueDate.slice(2, 4);
  const kind = s.kind;
  const digitalNo = kind === 'road' ? '' : `${yy}327${pad(n, 15)}`;
  const invoiceNo = kind === 'road' ? `GL${yy}7${pad(n, 12)}` : '';
  const tax = taxInside(o.gross, s.rate);
  const excl = o.gross - tax;
  const row: IncomeInvoiceTable = {
    id: o.id, ident: identityKey({ kind, invoiceCode: '', invoiceNo, digitalNo }), kind, invoice_code: '', invoice_no: invoiceNo, digital_no: digitalNo, issue_date: o.issueDate,
    seller_name: s.seller, seller_tax_no: s.taxNo, buyer_name: COMPANY_NAME, buyer_tax_no: SELLER.taxNo,
    amount_excl: excl, tax, amount_incl: o.gross, check_code: '',
    invoice_state: 0, red_pending: 0, risk_level: '01', verify_state: kind === 'road' ? 0 : 1, verified_at: kind === 'road' ? null : o.at, sign_state: 0, archive_no: '', booking_state: '01', booked_at: null,
    source: kind === 'rail' || kind === 'air' || kind === 'road' ? IncomeSource.uploaded : IncomeSource.collected, usage: 0, use_kind: '', doc_no: '', buyer_mismatch: 0, duplicate_of: null, arrivals: 1,
    remark: kind === 'rail' || kind === 'air' || kind === 'road' ? `乘车（机）人：${o.passenger}；出行日期：${o.issueDate}` : '', created_by: null, created_at: o.at, updated_at: o.at,
  };
  const line: IncomeLineTable = {
    id: o.lineId, invoice_id: o.id, line_no: 1, name: s.item, spec: kind === 'air' ? '票价' : '', unit: s.unit, quantity: '1', unit_price: (excl / 100).toFixed(2), amount: excl, tax_rate: s.rate, tax,
  };
  return { row, line };
}
