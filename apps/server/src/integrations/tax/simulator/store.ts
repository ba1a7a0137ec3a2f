/** The simulator's tables as Kysely sees them (its own, outside the platform's Database type). */
import type { Kysely } from 'kysely';
import type { Db } from '../../../db/index.js';

export interface TaxsimInvoiceTable {
  serial_no: string;
  seller_tax_number: string;
  order_no: string;
  kind: number;
  colour: number;
  /** JSON of the TaxInvoiceRequest. */
  request: string;
  /** The last status written; the effective one follows from next_at (progress.ts). */
  status: number;
  /** When the current phase (creating 20, signing 21, canceling 31) ends. */
  next_at: string;
  /** How the current attempt ends: 0 created, 22 creationFailed, 24 signFailed. */
  fail_stage: number;
  fail_cause: string | null;
  invoice_no: string | null;
  invoice_code: string | null;
  all_electronic_no: string | null;
  /** 'YYYY-MM-DD HH:mm:ss' Asia/Shanghai. */
  issued_at: string | null;
  amount_excluding_tax: number;
  tax: number;
  amount_including_tax: number;
  /** base64 */
  pdf: string | null;
  xml: string | null;
  reissue_day: string | null;
  reissue_count: number;
  cancel_reason: string | null;
  created_at: string;
  updated_at: string;
}

export interface TaxsimRedConfirmTable {
  bill_id: string;
  seller_tax_number: string;
  bill_no: string;
  confirm_no: string | null;
  applicant: number;
  state: string;
  state_at: string;
  blue_serial_no: string;
  blue_invoice_no: string;
  blue_issue_date: string;
  red_reason: number;
  vat_usage: number | null;
  buyer_name: string;
  buyer_tax_number: string | null;
  amount_excluding_tax: number;
  tax: number;
  /** JSON of RedConfirm['lines']. */
  lines: string;
  red_order_no: string;
  red_serial_no: string | null;
  fail_cause: string | null;
  applied_at: string;
  updated_at: string;
}

export type TaxsimTables = {
  taxsim_invoices: TaxsimInvoiceTable;
  taxsim_red_confirms: TaxsimRedConfirmTable;
  taxsim_deliveries: { id: string; serial_no: string; email: string | null; mobile: string | null; sent_at: string };
  taxsim_counters: { name: string; value: number };
  /** 0018_taxsim_income: 查验 calls per invoice and day (Asia/Shanghai). */
  taxsim_income_checks: { invoice_key: string; check_day: string; count: number; updated_at: string };
  /** 0026 (0028: rebate_state, the 退税统计 state beside stat_state = 抵扣统计; amount, 分 excluding tax): the bureau's calendar per period, the invoices ticked, the invoices known besides the drawn ones (income-ticks.ts). */
  taxsim_income_periods: { period: string; deadline: string; stat_state: number; updated_at: string; rebate_state?: number };
  taxsim_income_ticks: { invoice_key: string; usage: number; reason: number | null; effective_tax: number; period: string; ticked_at: string };
  taxsim_income_known: { invoice_key: string; kind: string; issue_date: string; tax: number; risk_level: string; invoice_state: number; registered_at: string; amount?: number | null };
  /** 0031_income_booking: the booking flag (入账标识) per invoice, and the test hook of failing calls. */
  taxsim_income_bookings: { invoice_key: string; state: string; booked_at: string; ever_booked: number; updated_at: string };
  taxsim_booking_faults: { id: string; remaining: number };
  /** 0046_income_status_recheck: the bureau's status changes made by the simulator control (income-status.ts). */
  taxsim_income_status: { invoice_key: string; invoice_state: number; risk_level: string; changed_at: string };
  /** 0044: the customs notices (海关缴款书) the simulator holds for a company (its customs collection call, income-customs.ts). */
  taxsim_customs_notices: {
    notice_no: string; fill_date: string; customs_name: string; customs_code: string; payer_name: string; payer_tax_no: string;
    dutiable_price: number; tax: number; notice_state: number; entered_at: string;
  };
};

export type SimDb = Kysely<TaxsimTables>;

export const simDb = (db: Db): SimDb => db.kysely.withTables<TaxsimTables>() as unknown as SimDb;

export type InvoiceRow = TaxsimInvoiceTable;
export type RedConfirmRow = TaxsimRedConfirmTable;

/** The next value of a named sequence (atomic on both engines). */
export async function nextCounter(sdb: SimDb, name: string, start: number): Promise<number> {
  await sdb.insertInto('taxsim_counters').values({ name, value: start - 1 }).onConflict((oc) => oc.column('name').doNothing()).execute();
  const row = await sdb
    .updateTable('taxsim_counters')
    .set((eb) => ({ value: eb('value', '+', 1) }))
    .where('name', '=', name)
    .returning('value')
    .executeTakeFirstOrThrow();
  return Number(row.value);
}
