/**
 * The simulated incoming invoices of one company and day: drawn from a seed (company tax number +
 * day), so nothing is stored and the same day always gives the same invoices. About 1,800 a month
 * (weekdays more than weekends). A few per cent later turn void, red-reversed, 失控, 异常凭证 or 疑点
 * after a delay; their state is a function of the time asked. Numbers carry the day and the position
 * in the day, so 查验 finds an invoice from its number alone.
 */
import type { IncomeInvoiceLine, IncomeInvoiceState, IncomeKind, IncomeRiskLevel, IncomingInvoice, IncomeParty } from '../income-types.js';
import { dayNumber, dayOf, DIGITAL_ONLY_KINDS } from '../income-rules.js';
import { shanghaiTime } from './numbers.js';
import { goodsLines, ticketLines } from './income-goods.js';
import { between, creditCode, digits, pick, seeded, suppliersOf, weighted, type Rng, type SupplyCategory } from './income-supply.js';

export const MONTHLY_VOLUME = 1800;
const SHANGHAI_MS = 8 * 3600_000;
const HOUR = 3600_000;

const CATEGORY_WEIGHTS: Record<SupplyCategory, number> = { subcontract: 15, materials: 30, design: 5, simplified: 10, rail: 15, air: 8, road: 5, toll: 12 };
const KIND_WEIGHTS: Record<SupplyCategory, Partial<Record<IncomeKind, number>>> = {
  subcontract: { '81': 75, '01': 10, '85': 10, '08': 5 },
  materials: { '81': 70, '01': 15, '85': 10, '08': 5 },
  design: { '81': 80, '82': 20 },
  simplified: { '82': 45, '81': 25, '04': 10, '10': 10, '86': 10 },
  rail: { '51': 1 },
  air: { '61': 1 },
  road: { '99': 1 },
  toll: { '14': 1 },
};
/** The last two digits of a 12-digit invoice code, by kind. */
const CODE_TAIL: Partial<Record<IncomeKind, string>> = { '04': '04', '08': '13', '10': '11', '14': '12', '85': '30', '86': '31', '99': '00' };
const PAPER: ReadonlySet<IncomeKind> = new Set(['01', '04', '85', '86']);
const NUMBERED_20: ReadonlySet<IncomeKind> = new Set(['81', '82', '85', '86', '51', '61']);
const CHECK_CODED: ReadonlySet<IncomeKind> = new Set(['04', '10', '14', '86']);
const CONTROLLABLE: ReadonlySet<IncomeKind> = new Set(['01', '08', '81', '85']);
const TICKETS: ReadonlySet<IncomeKind> = new Set(['51', '61', '99', '14']);

const PASSENGERS = ['张伟', '王芳', '李娜', '刘洋', '陈静', '杨帆', '赵磊', '黄敏', '周杰', '吴婷', '徐强', '孙丽', '马超', '朱琳', '胡斌', '郭峰'];
const PROJECTS = ['城市轨道交通3号线土建工程', '滨江花园二期住宅工程', '高新区综合管廊工程', '第一中学新校区建设工程', '产业园标准厂房工程'];

export interface Company {
  name: string;
  taxNumber: string;
}

/** When and how an invoice changes after issue. */
export interface Fate {
  atMs: number;
  state?: IncomeInvoiceState;
  risk?: IncomeRiskLevel;
}

/** An invoice as drawn: the face, and its fate (the state follows from the time asked). */
export interface DrawnInvoice {
  face: Omit<IncomingInvoice, 'state' | 'riskLevel' | 'changedAt'>;
  issuedMs: number;
  fate: Fate | null;
}

const pad = (n: number, w: number) => String(n).padStart(w, '0');
const dayOfYear = (day: string) => dayNumber(day) - dayNumber(`${day.slice(0, 4)}-01-01`) + 1;
const weekdayWeight = (day: string) => [0.3, 1, 1, 1, 1, 1, 0.45][new Date(`${day}T00:00:00Z`).getUTCDay()]!;

/** How many invoices the company receives on a day (all day long; fewer while the day is still running). */
export function dayCount(company: Company, day: string): number {
  const first = dayNumber(`${day.slice(0, 7)}-01`);
  const [y, m] = day.split('-').map(Number) as [number, number];
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  let monthWeight = 0;
  for (let i = 0; i < days; i++) monthWeight += weekdayWeight(dayOf(first + i));
  const rng = seeded(`income-count|${company.taxNumber}|${day}`);
  return Math.round((MONTHLY_VOLUME / monthWeight) * weekdayWeight(day) * (0.85 + 0.3 * rng()));
}

function otherBuyer(rng: Rng, company: Company): IncomeParty {
  if (rng() < 0.5) {
    const name = company.name.includes('有限责任公司') ? company.name.replace('有限责任公司', '有限公司') : company.name.includes('有限公司') ? company.name.replace('有限公司', '有限责任公司') : `${company.name}分公司`;
    return { name, taxNumber: company.taxNumber };
  }
  return { name: company.name, taxNumber: creditCode(rng, '110108') };
}

function drawFate(rng: Rng, kind: IncomeKind, issuedMs: number): Fate | null {
  const r = rng();
  const delay = (loDays: number, hiDays: number) => issuedMs + between(rng, loDays * 24, hiDays * 24) * HOUR + between(rng, 0, 3599) * 1000;
  if (TICKETS.has(kind) || r >= 0.054) return null;
  if (r < 0.012 && PAPER.has(kind)) {
    const local = new Date(issuedMs + SHANGHAI_MS);
    const monthEnd = Date.UTC(local.getUTCFullYear(), local.getUTCMonth() + 1, 1) - SHANGHAI_MS;
    const room = monthEnd - issuedMs;
    return room > 2 * HOUR ? { atMs: issuedMs + HOUR + Math.floor(rng() * (room - 2 * HOUR)), state: 2 } : null;
  }
  if (r < 0.032) {
    const digital = kind === '81' || kind === '82' || kind === '85' || kind === '86';
    return { atMs: delay(3, 45), state: digital ? (rng() < 0.4 ? 7 : 8) : 3 };
  }
  if (r < 0.037) return CONTROLLABLE.has(kind) ? { atMs: delay(20, 90), state: 1 } : null;
  if (r < 0.049) return { atMs: delay(15, 120), risk: '02' };
  return { atMs: delay(10, 60), risk: '03' };
}

function numbers(rng: Rng, kind: IncomeKind, day: string, index: number, prov: string) {
  const yy = day.slice(2, 4);
  const ddd = pad(dayOfYear(day), 3);
  const seq = pad(index, 4);
  const allElectronicNo = NUMBERED_20.has(kind) ? `${yy}${prov.slice(0, 2)}2${ddd}${seq}${digits(rng, 8)}` : '';
  if (DIGITAL_ONLY_KINDS.has(kind)) return { invoiceCode: '', invoiceNo: allElectronicNo, allElectronicNo, key: allElectronicNo };
  const invoiceCode = kind === '01' ? `${prov}${yy}${digits(rng, 3)}0` : `0${prov}${yy}${digits(rng, 3)}${CODE_TAIL[kind]}`;
  const invoiceNo = `${ddd}${seq}${digits(rng, 1)}`;
  return { invoiceCode, invoiceNo, allElectronicNo, key: allElectronicNo || `${invoiceCode}${invoiceNo}` };
}

/** Where a number says its invoice is: the day and the position in that day (null when it cannot be one of ours). */
export function locate(q: { invoiceCode?: string; invoiceNo: string }): { day: string; index: number } | null {
  let yy: string;
  let ddd: number;
  let index: number;
  if (q.invoiceNo.length === 20) {
    yy = q.invoiceNo.slice(0, 2);
    ddd = Number(q.invoiceNo.slice(5, 8));
    index = Number(q.invoiceNo.slice(8, 12));
  } else {
    const code = q.invoiceCode ?? '';
    yy = code.length === 10 ? code.slice(4, 6) : code.slice(5, 7);
    ddd = Number(q.invoiceNo.slice(0, 3));
    index = Number(q.invoiceNo.slice(3, 7));
  }
  const year = 2000 + Number(yy);
  const day = dayOf(dayNumber(`${year}-01-01`) + ddd - 1);
  if (ddd < 1 || day.slice(0, 4) !== String(year)) return null;
  return { day, index };
}

const cache = new Map<string, DrawnInvoice[]>();
const CACHE_DAYS = 120;

/** Forgets the days drawn so far (a cache only: drawing again gives the same invoices). */
export const forgetDrawnDays = () => cache.clear();

/** The company's invoices of one day, in order of issue (all of them, including those later in the day than now). */
export function dayInvoices(company: Company, day: string): DrawnInvoice[] {
  const cacheKey = `${company.taxNumber}|${company.name}|${day}`;
  const hit = cache.get(cacheKey);
  if (hit) return hit;
  const count = dayCount(company, day);
  const rng = seeded(`income-day|${company.taxNumber}|${day}`);
  const midnight = Date.parse(`${day}T00:00:00Z`) - SHANGHAI_MS;
  const times = Array.from({ length: count }, () => midnight + 8 * HOUR + Math.floor(rng() * 12 * 3600) * 1000).sort((a, b) => a - b);
  const suppliers = suppliersOf(company.taxNumber);
  const out = times.map((issuedMs, index): DrawnInvoice => {
    const category = weighted(rng, CATEGORY_WEIGHTS);
    const kind = weighted(rng, KIND_WEIGHTS[category] as Record<IncomeKind, number>);
    const seller = pick(rng, suppliers[category]);
    const nums = numbers(rng, kind, day, index, seller.city.prov);
    let lines: IncomeInvoiceLine[];
    let passengerName: string | undefined;
    let travelDate: string | undefined;
    let remark = '';
    if (category === 'rail' || category === 'air' || category === 'road' || category === 'toll') {
      lines = ticketLines(rng, category);
      if (category !== 'toll') {
        passengerName = pick(rng, PASSENGERS);
        travelDate = dayOf(dayNumber(day) + between(rng, 0, 10));
        remark = `乘车（机）人：${passengerName}；出行日期：${travelDate}`;
      }
    } else {
      const n = category === 'materials' ? between(rng, 1, 5) : category === 'simplified' ? between(rng, 1, 3) : category === 'subcontract' ? between(rng, 1, 2) : 1;
      lines = goodsLines(rng, category, n);
      if (category === 'subcontract') remark = `建筑服务发生地：${seller.city.city}市；建筑项目名称：${pick(rng, PROJECTS)}`;
    }
    const buyer = rng() < 0.03 ? otherBuyer(rng, company) : { name: company.name, taxNumber: company.taxNumber };
    const amountExcludingTax = lines.reduce((s, l) => s + l.amountExcludingTax, 0);
    const tax = lines.reduce((s, l) => s + l.tax, 0);
    const face: DrawnInvoice['face'] = {
      ...nums,
      kind,
      issueDate: day,
      issuedAt: shanghaiTime(new Date(issuedMs)),
      seller: { name: seller.name, taxNumber: seller.taxNumber },
      buyer,
      amountExcludingTax,
      tax,
      total: amountExcludingTax + tax,
      checkCode: CHECK_CODED.has(kind) ? `${between(rng, 1, 9)}${digits(rng, 19)}` : '',
      lines,
      remark,
      ...(passengerName ? { passengerName, travelDate } : {}),
    };
    return { face, issuedMs, fate: drawFate(rng, kind, issuedMs) };
  });
  if (cache.size >= CACHE_DAYS) cache.delete(cache.keys().next().value!);
  cache.set(cacheKey, out);
  return out;
}

/** The invoice as the service shows it at `nowMs`: its state and risk level once its fate has come. */
export function asSeenAt(d: DrawnInvoice, nowMs: number): IncomingInvoice {
  const come = d.fate && d.fate.atMs <= nowMs ? d.fate : null;
  return {
    ...d.face,
    lines: d.face.lines.map((l) => ({ ...l })),
    state: come?.state ?? 0,
    riskLevel: come?.risk ?? '01',
    changedAt: come ? shanghaiTime(new Date(come.atMs)) : '',
  };
}
