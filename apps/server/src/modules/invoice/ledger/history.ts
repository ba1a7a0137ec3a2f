/**
 * What the ledger's detail page shows beyond /invoice/detail: the blue original of a red invoice,
 * the red-letter confirmations against a blue one, the tax exchanges about it (sync_log_refs: its
 * order, serial and invoice numbers) and the operation log rows recorded about it (record_kind 'invoice').
 */
import type { Kysely } from 'kysely';
import type { InvoiceHistory } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import { notFound } from '../../../platform/envelope.js';
import { toRedRow } from '../redletter/read.js';

const LIMIT = 100;

export async function invoiceHistory(db: Kysely<Database>, id: string, canChange: boolean): Promise<InvoiceHistory> {
  const i = await db.selectFrom('invoices').select(['id', 'order_no', 'serial_no', 'invoice_no', 'digital_no', 'blue_invoice_id']).where('id', '=', id).executeTakeFirst();
  if (!i) throw notFound('发票不存在');
  const refs = [i.order_no, i.serial_no, i.invoice_no, i.digital_no].filter((r): r is string => !!r);
  const [blue, reds, syncs, ops] = await Promise.all([
    i.blue_invoice_id
      ? db.selectFrom('invoices').select(['id', 'invoice_no', 'digital_no', 'issue_date', 'amount_incl', 'status']).where('id', '=', i.blue_invoice_id).executeTakeFirst()
      : Promise.resolve(undefined),
    db.selectFrom('invoice_red_confirms as r').leftJoin('invoices as ri', 'ri.id', 'r.red_invoice_id').selectAll('r').select('ri.invoice_no as red_invoice_no').where('r.blue_invoice_id', '=', id).orderBy('r.created_at', 'desc').execute(),
    db
      .selectFrom('sync_logs as s')
      .leftJoin('users as u', 'u.id', 's.user_id')
      .select(['s.id', 's.type', 's.status', 's.memo', 's.created_at', 'u.name as user_name'])
      .where('s.id', 'in', db.selectFrom('sync_log_refs').select('sync_log_id').where('ref', 'in', refs))
      .orderBy('s.created_at', 'desc')
      .limit(LIMIT)
      .execute(),
    db
      .selectFrom('operation_logs')
      .select(['id', 'type', 'description', 'user_name', 'created_at'])
      .where('record_kind', '=', 'invoice')
      .where('record_id', '=', id)
      .orderBy('created_at', 'desc')
      .limit(LIMIT)
      .execute(),
  ]);
  return {
    blue: blue ? { id: blue.id, invoiceNo: blue.invoice_no, digitalNo: blue.digital_no, issueDate: blue.issue_date, amountIncl: Number(blue.amount_incl), status: blue.status } : null,
    redConfirms: reds.map((r) => toRedRow(r as Parameters<typeof toRedRow>[0])),
    syncLogs: syncs.map((s) => ({ id: s.id, type: s.type, status: s.status, memo: s.memo, userName: s.user_name ?? '系统', createdAt: s.created_at })),
    operations: ops.map((o) => ({ id: o.id, type: o.type, description: o.description, userName: o.user_name || '系统', createdAt: o.created_at })),
    canChange,
  };
}
