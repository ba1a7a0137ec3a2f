/**
 * What the pool keeps about a passenger transport document (income_transport, migration 0025): its kind
 * for the deduction, the passenger and the day of travel, domestic or international, the air fare and
 * fuel surcharge (from the itinerary's lines, else its printed figures; 民航发展基金 is never part), and
 * the basis and tax of its formula (packages/shared transport-rules.ts, the only
 * place of the formulas). Worked out once when the invoice enters the pool (arrival.ts), by the seed,
 * and by the migration for the invoices already there.
 */
import type { Kysely } from 'kysely';
import { airFareAndFuel, isInternationalLine, transportBasis, transportKindOf, transportTaxOf, type ItineraryFigures } from '@zhyy/shared';
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
  /** A paper itinerary's printed 票价, 燃油附加费 and 民航发展基金 (entry form), used where no line itemises them. */
  itinerary?: ItineraryFigures;
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
  // Air: fare + fuel surcharge, never 民航发展基金 (公告2019年第39号; shared airFareAndFuel).
  const { fare, fuel } =
    kind === 'air'
      ? airFareAndFuel(s.amountIncl, s.lines.map((l) => ({ name: l.name, gross: Number(l.amount) + Number(l.tax) })), s.itinerary)
      : { fare: 0, fuel: 0 };
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

/**
 * Works the facts out again after the face or lines changed (查验 fills them from the tax service). An
 * air itinerary still without lines keeps the fare and fuel surcharge it was recorded with (the printed
 * figures of the entry form are not kept anywhere else).
 */
export async function refreshTransport(trx: Kysely<Database>, s: TransportSource): Promise<void> {
  const prev = await trx.selectFrom('income_transport').select(['transport_kind', 'fare', 'fuel']).where('invoice_id', '=', s.invoiceId).executeTakeFirst();
  const carry = prev?.transport_kind === 'air' && s.lines.length === 0 && !s.itinerary ? { itinerary: { fare: Number(prev.fare), fuelSurcharge: Number(prev.fuel) } } : {};
  await trx.deleteFrom('income_transport').where('invoice_id', '=', s.invoiceId).execute();
  await recordTransport(trx, { ...s, ...carry });
}
