/** What outgoing invoicing holds about a user: invoices, buyers and red-letter confirmations entered, files uploaded. */
import { describeCounts, type UserRecordCounter } from '../../platform/user-records.js';
import './tables.js';

export const invoiceUserRecords: UserRecordCounter = async (db, userId) => {
  const count = (table: 'invoices' | 'invoice_buyers' | 'invoice_files' | 'invoice_red_confirms') =>
    db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).where('created_by', '=', userId).executeTakeFirst();
  const [invoices, buyers, files, reds] = await Promise.all([count('invoices'), count('invoice_buyers'), count('invoice_files'), count('invoice_red_confirms')]);
  return describeCounts([
    [invoices, (n) => `录入${n}张发票`],
    [buyers, (n) => `维护${n}个购方`],
    [files, (n) => `上传${n}个发票文件`],
    [reds, (n) => `${n}张红字确认单`],
  ]);
};
