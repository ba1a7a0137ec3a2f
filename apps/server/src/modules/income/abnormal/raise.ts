/**
 * Raising cases: whenever a flag appears on an invoice (arrival, the tax state refresh of 采集 and the
 * background collection, 查验), `raiseCases` inserts one open case per flag the invoice now carries —
 * `insert … on conflict (invoice_id, flag) do nothing`, so raising twice, or on two servers at once, is
 * one case. A resolved case stays resolved (the flag was dealt with; it is not raised again).
 *
 * The owner: the user who signed the invoice (its signing still in force: 签收中 or 已签收) — the
 * document's owner —, else the default owner: the first active role-13 user (by login name), the
 * person who keeps the incoming pool. Null only when there is no such user.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { newId } from '../../../platform/ids.js';
import { nowIso } from '../../../platform/time.js';
import { flagsOf, isAbnormal } from '../pool/filters.js';
import { flagDocument } from './actions.js';
import '../signing/tables.js';
import './tables.js';
import '../../reimbursement/tables.js';

type Db = Kysely<Database>;

/** The first active role-13 user (the default owner). */
export async function defaultOwner(db: Db): Promise<string | null> {
  const r = await db
    .selectFrom('users as u')
    .innerJoin('user_roles as r', 'r.user_id', 'u.id')
    .select('u.id')
    .where('r.role', '=', '13')
    .where('u.status', '=', 1)
    .orderBy('u.login_name')
    .limit(1)
    .executeTakeFirst();
  return r?.id ?? null;
}

/** The owner of the document the invoice backs (a reimbursement bill holding it, or its signing in force), else null. */
export async function documentOwner(db: Db, invoiceId: string): Promise<string | null> {
  // Locked or closed by a reimbursement bill: its applicant (费用报销, issue 15).
  const bill = await db
    .selectFrom('income_invoices as i')
    .innerJoin('reimb_bills as b', 'b.bill_no', 'i.doc_no')
    .select('b.applicant_id')
    .where('i.id', '=', invoiceId)
    .where('i.use_kind', '=', 'reimbursement')
    .where('i.usage', '!=', 0)
    .executeTakeFirst();
  if (bill) return bill.applicant_id;
  const s = await db
    .selectFrom('income_signings')
    .select('user_id')
    .where('invoice_id', '=', invoiceId)
    .where('state', 'in', ['applying', 'signed'])
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return s?.user_id ?? null;
}

/** Raises the cases of the flags `invoiceId` carries now; the number of new cases. */
export async function raiseCases(db: Db, invoiceId: string, fallbackOwner?: string | null, notify = true): Promise<number> {
  const r = await db.selectFrom('income_invoices').selectAll().where('id', '=', invoiceId).executeTakeFirst();
  if (!r) return 0;
  const flags = flagsOf(r);
  if (!flags.length) return 0;
  const known = new Set((await db.selectFrom('income_abnormal_cases').select('flag').where('invoice_id', '=', invoiceId).execute()).map((c) => c.flag));
  const missing = flags.filter((f) => !known.has(f));
  if (!missing.length) return 0;
  const owner = (await documentOwner(db, invoiceId)) ?? (fallbackOwner !== undefined ? fallbackOwner : await defaultOwner(db));
  const at = nowIso();
  let n = 0;
  for (const flag of missing) {
    const id = newId();
    const x = await db
      .insertInto('income_abnormal_cases')
      .values({ id, invoice_id: invoiceId, flag, owner_id: owner, raised_at: at, state: 'open', action: '', note: '', doc_flagged: '', notified_user_id: null, resolved_by: null, resolved_by_name: '', resolved_at: null })
      .onConflict((oc) => oc.columns(['invoice_id', 'flag']).doNothing())
      .executeTakeFirst();
    const added = Number(x.numInsertedOrUpdatedRows ?? 0);
    n += added;
    // 作废/红冲/红字确认中 of an invoice backing a document: the document is flagged, its owner notified.
    if (added) await flagDocument(db, { id, invoice_id: invoiceId, flag, owner_id: owner }, notify);
  }
  return n;
}

/** Raises the cases of every flagged invoice (the migration's backfill, the seed, the job's sweep). */
export async function raiseAll(db: Db, notify = true): Promise<number> {
  const fallback = await defaultOwner(db);
  const ids = await db
    .selectFrom('income_invoices as p')
    .select('p.id')
    .where(isAbnormal)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('income_abnormal_cases as c').select('c.id').whereRef('c.invoice_id', '=', 'p.id'))))
    .execute();
  let n = 0;
  for (const { id } of ids) n += await raiseCases(db, id, fallback, notify);
  return n;
}
