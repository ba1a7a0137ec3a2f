/** What outgoing invoicing holds about a user: invoices, buyers and red-letter confirmations entered, files uploaded. */
import { countOf, type UserRecordCounter } from '../../platform/user-records.js';
import './tables.js';

export const invoiceUserRecords: UserRecordCounter = async (db, userId) => {
  const count = (table: 'invoices' | 'invoice_buyers' | 'invoice_files' | 'invoice_red_confirms') =>
    db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).where('created_by', '=', userId).executeTakeFirst();
  const [invoices, buyers, files, reds] = await Promise.all([count('invoices'), count('invoice_buyers'), count('invoice_files'), count('invoice_red_confirms')]);
  const parts = [
    countOf(invoices) ? `录入${countOf(invoices)}张发票` : '',
    countOf(buyers) ? `维护${countOf(buyers)}个购方` : '',
    countOf(files) ? `上传${countOf(files)}个发票文件` : '',
    countOf(reds) ? `${countOf(reds)}张红字确认单` : '',
  ].filter(Boolean);
  return parts.length ? parts.join('、') : null;
};
