/**
 * Passenger transport deduction (旅客运输服务进项税额计算抵扣, DOMAIN.md; issue 14 计算抵扣): tickets
 * naming the passenger, domestic trips, reimbursed by the company:
 *   air itinerary  (票价 + 燃油附加费) ÷ (1 + 9 %) × 9 %
 *   rail ticket     票面金额 ÷ (1 + 9 %) × 9 %
 *   road and water  票面金额 ÷ (1 + 3 %) × 3 %
 *   electronic ordinary invoice (10 / 82) whose lines are passenger transport: the tax printed on it.
 * Money in integer 分, computed with a decimal library and rounded half-up to 分. The only place these
 * formulas live: the server stores and sums what these functions answer.
 */
import { Decimal } from 'decimal.js';
import { defineEnum } from './enum.js';

const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });

/** The kinds of passenger transport documents, as the deduction groups them. */
export const TransportKind = defineEnum({
  air: ['air', '航空运输电子客票行程单'],
  rail: ['rail', '铁路电子客票'],
  road: ['road', '公路、水路等其他客票'],
  einvoice: ['einvoice', '电子普通发票（旅客运输）'],
});
export type TransportKindCode = (typeof TransportKind.values)[number];

/** Why a ticket is not deductible (the list shows the label). */
export const TransportReason = defineEnum({
  notNormal: ['notNormal', '发票状态异常'],
  abnormalVoucher: ['abnormalVoucher', '异常凭证'],
  noPassenger: ['noPassenger', '未注明旅客身份信息'],
  international: ['international', '国际旅客运输'],
  notReimbursed: ['notReimbursed', '未用于报销'],
});
export type TransportReasonCode = (typeof TransportReason.values)[number];

/** tax = basis ÷ (1 + rate) × rate, half-up to 分 (rate as a decimal string). */
const taxIncluded = (basisFen: number, rate: string): number => {
  const r = new D(rate);
  return new D(basisFen).dividedBy(r.plus(1)).times(r).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();
};

/** Air: (fare + fuel surcharge) ÷ 1.09 × 9 % (民航发展基金 and insurance are not part of it). */
export const airTicketTax = (fareFen: number, fuelFen: number): number => taxIncluded(fareFen + fuelFen, '0.09');
/** Rail: face value ÷ 1.09 × 9 %. */
export const railTicketTax = (faceFen: number): number => taxIncluded(faceFen, '0.09');
/** Road and water: face value ÷ 1.03 × 3 %. */
export const roadTicketTax = (faceFen: number): number => taxIncluded(faceFen, '0.03');
/** Electronic ordinary invoice: the tax printed on it. */
export const eInvoiceTransportTax = (printedTaxFen: number): number => printedTaxFen;

/** The formula's base of a ticket: air fare + fuel, rail and road the face value, an e-invoice its printed tax. */
export function transportBasis(t: { kind: TransportKindCode; face: number; fare?: number; fuel?: number; printedTax?: number }): number {
  switch (t.kind) {
    case 'air':
      return (t.fare ?? 0) + (t.fuel ?? 0);
    case 'rail':
    case 'road':
      return t.face;
    case 'einvoice':
      return t.printedTax ?? 0;
  }
}

/** The tax a ticket's basis gives under its kind's formula (deductible or not). */
export function transportTaxOf(kind: TransportKindCode, basisFen: number): number {
  switch (kind) {
    case 'air':
      return airTicketTax(basisFen, 0);
    case 'rail':
      return railTicketTax(basisFen);
    case 'road':
      return roadTicketTax(basisFen);
    case 'einvoice':
      return eInvoiceTransportTax(basisFen);
  }
}

/** How the basis and tax were found, in words (列表和导出的「计算依据」). */
export function transportFormula(kind: TransportKindCode, basisFen: number): string {
  const y = new D(basisFen).dividedBy(100).toFixed(2);
  switch (kind) {
    case 'air':
      return `(票价+燃油附加费) ${y} ÷ 1.09 × 9%`;
    case 'rail':
      return `票面金额 ${y} ÷ 1.09 × 9%`;
    case 'road':
      return `票面金额 ${y} ÷ 1.03 × 3%`;
    case 'einvoice':
      return `发票注明税额 ${y}`;
  }
}

/** What the pool knows about one passenger ticket. */
export interface PoolTicket {
  kind: TransportKindCode;
  /** The basis in 分 (transportBasis). */
  basis: number;
  passengerName: string;
  international: boolean;
  /** Used by a reimbursement (its usage lock) or signed against a reimbursement. */
  reimbursed: boolean;
  /** The pool's invoice state (0 正常) and risk level ('02' 异常凭证). */
  invoiceState: number;
  riskLevel: string;
}

export interface TicketDeduction {
  deductible: boolean;
  /** The deductible tax in 分: 0 when not deductible. */
  tax: number;
  /** The tax the formula gives, deductible or not. */
  formulaTax: number;
  basis: number;
  formula: string;
  /** Why not, when not deductible. */
  reason: TransportReasonCode | null;
}

/** Why a pool ticket is not deductible, the first reason that applies; null when it is. */
export function transportRefusal(t: Omit<PoolTicket, 'basis'>): TransportReasonCode | null {
  if (t.invoiceState !== 0) return 'notNormal';
  if (t.riskLevel === '02') return 'abnormalVoucher';
  if (t.kind !== 'einvoice' && !t.passengerName.trim()) return 'noPassenger';
  if (t.international) return 'international';
  if (!t.reimbursed) return 'notReimbursed';
  return null;
}

/** A pool ticket's deductible tax, its basis and formula, and why not when it is not deductible. */
export function ticketDeduction(t: PoolTicket): TicketDeduction {
  const formulaTax = transportTaxOf(t.kind, t.basis);
  const reason = transportRefusal(t);
  return { deductible: reason === null, tax: reason === null ? formulaTax : 0, formulaTax, basis: t.basis, formula: transportFormula(t.kind, t.basis), reason };
}

/** The pool kind of a passenger ticket (rail, air, road), or an e-invoice whose lines are passenger transport. */
export function transportKindOf(poolKind: string, lineNames: readonly string[]): TransportKindCode | null {
  if (poolKind === 'air' || poolKind === 'rail' || poolKind === 'road') return poolKind;
  if ((poolKind === '10' || poolKind === '82') && lineNames.length > 0 && lineNames.every(isPassengerTransportLine)) return 'einvoice';
  return null;
}

/** A line of passenger transport (*运输服务*…旅客运输 / 客运服务): freight and tolls are not. */
export const isPassengerTransportLine = (name: string): boolean => /^\*运输服务\*/.test(name) && /(旅客运输|客运)/.test(name);
/** A fuel surcharge line of an air itinerary. */
export const isFuelLine = (name: string): boolean => name.includes('燃油');
/** The 民航发展基金 line of an air itinerary (formerly 机场建设费): collected for the state, never part of the base. */
export const isAirFundLine = (name: string): boolean => name.includes('民航发展基金') || name.includes('机场建设费');
/** The fare line of an air itinerary (国内/国际航空旅客运输服务 … 票价). */
export const isAirFareLine = (name: string): boolean => name.includes('航空旅客运输');
/** An international trip, as the itinerary's fare line names it. */
export const isInternationalLine = (name: string): boolean => name.includes('国际');

/** What a paper air itinerary prints besides its total (分): 票价, 燃油附加费, 民航发展基金. */
export interface ItineraryFigures {
  fare?: number;
  fuelSurcharge?: number;
  developmentFund?: number;
}

/**
 * The air fare and fuel surcharge of an itinerary (分), the base being their sum (公告2019年第39号):
 * each from its itemised lines when there are such lines, else from the itinerary's printed figures;
 * a fare neither itemised nor printed is the total less the fuel surcharge and 民航发展基金.
 * Example: total 1,100.00 = fare 1,000 + fuel 50 + 民航发展基金 50 → base 1,050.00, tax 86.70.
 */
export function airFareAndFuel(total: number, lines: readonly { name: string; gross: number }[], printed: ItineraryFigures = {}): { fare: number; fuel: number } {
  const sum = (pick: (name: string) => boolean) => {
    const hit = lines.filter((l) => pick(l.name));
    return hit.length ? hit.reduce((a, l) => a + l.gross, 0) : null;
  };
  const fuel = sum(isFuelLine) ?? printed.fuelSurcharge ?? 0;
  const fund = sum(isAirFundLine) ?? printed.developmentFund ?? 0;
  const fare = sum(isAirFareLine) ?? printed.fare ?? total - fuel - fund;
  return { fare, fuel };
}

/** Why an invoice's itinerary figures cannot be taken (Chinese), null when they can (or there are none). */
export function itineraryProblem(kind: string, total: number, f: ItineraryFigures): string | null {
  const given = [f.fare, f.fuelSurcharge, f.developmentFund].filter((v): v is number => v !== undefined);
  if (!given.length) return null;
  if (kind !== 'air') return '票价、燃油附加费、民航发展基金只适用于航空运输电子客票行程单';
  if (given.reduce((a, v) => a + v, 0) > total) return '票价、燃油附加费与民航发展基金之和不能超过价税合计';
  return null;
}

/** YYYYMM of a YYYY-MM-DD day: the tax month a ticket belongs to (its issue date's month). */
export const periodOfDay = (day: string): string => day.slice(0, 4) + day.slice(5, 7);
/** The first and last day (YYYY-MM-DD) of a tax month YYYYMM. */
export function periodDays(period: string): { from: string; to: string } {
  const y = Number(period.slice(0, 4));
  const m = Number(period.slice(4, 6));
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const mm = String(m).padStart(2, '0');
  return { from: `${y}-${mm}-01`, to: `${y}-${mm}-${String(last).padStart(2, '0')}` };
}
/** The months YYYYMM from `from` to `to` inclusive. */
export function periodsBetween(from: string, to: string): string[] {
  const out: string[] = [];
  let y = Number(from.slice(0, 4));
  let m = Number(from.slice(4, 6));
  for (let guard = 0; guard < 1200; guard++) {
    const p = `${y}${String(m).padStart(2, '0')}`;
    if (p > to) break;
    out.push(p);
    m += 1;
    if (m > 12) {
      m = 1;
      y += 1;
    }
  }
  return out;
}
