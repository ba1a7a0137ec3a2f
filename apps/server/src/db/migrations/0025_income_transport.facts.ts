/**
 * Part of migration 0025_income_transport: the facts of a passenger transport document as they were
 * worked out that day (modules/income/transport/facts.ts `transportFacts` and the formulas of
 * packages/shared transport-rules.ts, copied), so that the migration's backfill does not change when
 * today's rules do. Money in integer 分, rounded half-up.
 */
import { Decimal } from 'decimal.js';

const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });

type Kind = 'air' | 'rail' | 'road' | 'einvoice';

export interface TransportLine {
  name: string;
  amount: number;
  tax: number;
}

export interface TransportSource {
  invoiceId: string;
  kind: string;
  amountIncl: number;
  tax: number;
  remark?: string;
  lines: readonly TransportLine[];
}

export interface TransportFacts {
  invoice_id: string;
  transport_kind: string;
  passenger_name: string;
  travel_date: string;
  international: number;
  fare: number;
  fuel: number;
  basis: number;
  formula_tax: number;
}

/** tax = basis ÷ (1 + rate) × rate, half-up to 分. */
const taxIncluded = (basisFen: number, rate: string): number => {
  const r = new D(rate);
  return new D(basisFen).dividedBy(r.plus(1)).times(r).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();
};
const isPassengerTransportLine = (name: string): boolean => /^\*运输服务\*/.test(name) && /(旅客运输|客运)/.test(name);
const isFuelLine = (name: string): boolean => name.includes('燃油');
const isAirFareLine = (name: string): boolean => name.includes('航空旅客运输');
const isInternationalLine = (name: string): boolean => name.includes('国际');

function kindOf(poolKind: string, lineNames: readonly string[]): Kind | null {
  if (poolKind === 'air' || poolKind === 'rail' || poolKind === 'road') return poolKind;
  if ((poolKind === '10' || poolKind === '82') && lineNames.length > 0 && lineNames.every(isPassengerTransportLine)) return 'einvoice';
  return null;
}

function basisOf(kind: Kind, face: number, fare: number, fuel: number, printedTax: number): number {
  if (kind === 'air') return fare + fuel;
  if (kind === 'einvoice') return printedTax;
  return face;
}

function taxOf(kind: Kind, basisFen: number): number {
  if (kind === 'air' || kind === 'rail') return taxIncluded(basisFen, '0.09');
  if (kind === 'road') return taxIncluded(basisFen, '0.03');
  return basisFen;
}

const REMARK_PASSENGER = /(?:乘车（机）人|乘车人|乘机人|旅客|乘客)[：:]\s*([^；;，,\s]{1,50})/;
const REMARK_TRAVEL = /出行日期[：:]\s*(\d{4}-\d{2}-\d{2})/;

/** The facts of a passenger transport document; null when the invoice is not one. */
export function transportFacts(s: TransportSource): TransportFacts | null {
  const kind = kindOf(s.kind, s.lines.map((l) => l.name));
  if (!kind) return null;
  const gross = (l: TransportLine) => Number(l.amount) + Number(l.tax);
  let fare = 0;
  let fuel = 0;
  if (kind === 'air') {
    const fareLines = s.lines.filter((l) => isAirFareLine(l.name));
    fuel = s.lines.filter((l) => isFuelLine(l.name)).reduce((a, l) => a + gross(l), 0);
    // An itinerary without itemised lines: its face value is the fare.
    fare = fareLines.length ? fareLines.reduce((a, l) => a + gross(l), 0) : s.amountIncl - fuel;
  }
  const basis = basisOf(kind, s.amountIncl, fare, fuel, s.tax);
  const remark = s.remark ?? '';
  return {
    invoice_id: s.invoiceId,
    transport_kind: kind,
    passenger_name: (REMARK_PASSENGER.exec(remark)?.[1] ?? '').trim().slice(0, 50),
    travel_date: REMARK_TRAVEL.exec(remark)?.[1] ?? '',
    international: s.lines.some((l) => isInternationalLine(l.name)) ? 1 : 0,
    fare,
    fuel,
    basis,
    formula_tax: taxOf(kind, basis),
  };
}
