/**
 * What the pool keeps about a passenger transport document (income_transport, migration 0025): its kind
 * for the deduction, the passenger and the day of travel, domestic or international, the air fare and
 * fuel surcharge, and the basis and tax of its formula (packages/shared transport-rules.ts, the only
 * place of the formulas). Worked out once when the invoice enters the pool (arrival.ts), by the seed,
 * and by the migration for the invoices already there.
 */
import type { Kysely } from 'kysely';
import { isAirFareLine, isFuelLine, isInternationalLine, transportBasis, transportKindOf, transportTaxOf } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import './tables.js';

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
  /** From the tax service (collection) or the seed; else read from the remark (乘车（机）人：…). */
  passengerName?: string;
  travelDate?: string;
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

const REMARK_PASSENGER = /(?:乘车（机）人|乘车人|乘机人|旅客|乘客)[：:]\s*([^；;，,\s]{1,50})/;
const REMARK_TRAVEL = /出行日期[：:]\s*(\d{4}-\d{2}-\d{2})/;

/** The facts of a passenger transport document; null when the invoice is not one. */
export function transportFacts(s: TransportSource): TransportFacts | null {
  const kind = transportKindOf(s.kind, s.lines.map((l) => l.name));
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
  const basis = transportBasis({ kind, face: s.amountIncl, fare, fuel, printedTax: s.tax });
  const remark = s.remark ?? '';
  return {
    invoice_id: s.invoiceId,
    transport_kind: kind,
    passenger_name: (s.passengerName ?? REMARK_PASSENGER.exec(remark)?.[1] ?? '').trim().slice(0, 50),
    travel_date: s.travelDate ?? REMARK_TRAVEL.exec(remark)?.[1] ?? '',
    international: s.lines.some((l) => isInternationalLine(l.name)) ? 1 : 0,
    fare,
    fuel,
    basis,
    formula_tax: transportTaxOf(kind, basis),
  };
}

/** Records the facts of an invoice that has just entered the pool (nothing when it is not passenger transport). */
export async function recordTransport(trx: Kysely<Database>, s: TransportSource): Promise<void> {
  const f = transportFacts(s);
  if (f) await trx.insertInto('income_transport').values(f).onConflict((oc) => oc.column('invoice_id').doNothing()).execute();
}

/** Works the facts out again after the face or lines changed (查验 fills them from the tax service). */
export async function refreshTransport(trx: Kysely<Database>, s: TransportSource): Promise<void> {
  await trx.deleteFrom('income_transport').where('invoice_id', '=', s.invoiceId).execute();
  await recordTransport(trx, s);
}
