/** Table types of migration 0031_income_booking (income_invoices.booked_at is on IncomeInvoiceTable). */
import '../../../db/schema.js';

export interface BookingDeliveryTable {
  id: string;
  invoice_id: string;
  state: string;
  source_type: string;
  source_no: string;
  requested_by: string;
  attempts: number;
  next_attempt_at: string | null;
  last_error: string;
  status: string;
  claimed_by: string;
  claimed_until: string | null;
  sent_at: string | null;
  created_at: string;
  updated_at: string;
}

declare module '../../../db/schema.js' {
  interface Database {
    income_booking_deliveries: BookingDeliveryTable;
  }
}
