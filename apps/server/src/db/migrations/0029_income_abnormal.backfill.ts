/**
 * Part of migration 0029_income_abnormal: the backfill raising one case per flag of the invoices already
 * flagged, frozen as it was written that day (modules/income/abnormal/raise.ts `raiseAll`, filters.ts
 * `flagsOf`/`isAbnormal`, actions.ts `flagDocument` and events.ts `addEvent` of commit ebfee2f), with the
 * shared codes written out. Today's rules may change (the live raise.ts also looks at reimb_bills, a table
 * of 0033): this copy must not, so that the migration does to a database what it did on that day.
 * Sends no 站内消息 (user_messages comes with 0032); the worklist shows the owners their cases.
 */
import type { ExpressionBuilder, Kysely } from 'kysely';
import { v7 as uuidv7 } from 'uuid';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type EB = ExpressionBuilder<any, 'p'>;

/** IncomeAbnormalFlag's codes and labels, in its order (packages/shared api/income.ts of that day). */
const FLAG_LABELS: Array<[string, string]> = [
  ['voided', '已作废'],
  ['red', '已红冲'],
  ['redPending', '红字确认中'],
  ['lostControl', '失控'],
  ['abnormalVoucher', '异常凭证'],
  ['buyerNotOurs', '购方非本公司'],
  ['duplicate', '疑似重复'],
  ['verifyMismatch', '查验不一致'],
];
const flagLabel = (flag: string) => FLAG_LABELS.find(([f]) => f === flag)?.[1] ?? flag;
/** DEAD_FLAGS: the flags whose backing document is flagged. */
const DEAD_FLAGS = ['voided', 'red', 'redPending'];
/** IncomeUseKind's labels. */
const USE_KIND_LABELS: Record<string, string> = { reimbursement: '报销单', sign: '签收单', contract: '合同' };
/** IncomeInvoiceState: 作废 2, 已红冲 3, 部分红冲 7, 全额红冲 8, 失控 1; IncomeRiskLevel 异常凭证 '02'; IncomeVerifyState 查验不一致 2. */
const VOIDED = 2;
const RED_STATES = [3, 7, 8];
const LOST_CONTROL = 1;
const ABNORMAL_VOUCHER = '02';
const VERIFY_MISMATCH = 2;

const FLAG_SQL: Array<(eb: EB) => ReturnType<EB['or']>> = [
  (eb) => eb('p.invoice_state', '=', VOIDED),
  (eb) => eb('p.invoice_state', 'in', RED_STATES),
  (eb) => eb('p.red_pending', '=', 1),
  (eb) => eb('p.invoice_state', '=', LOST_CONTROL),
  (eb) => eb('p.risk_level', '=', ABNORMAL_VOUCHER),
  (eb) => eb('p.buyer_mismatch', '=', 1),
  (eb) => eb('p.duplicate_of', 'is not', null),
  (eb) => eb('p.verify_state', '=', VERIFY_MISMATCH),
];
const isAbnormal = (eb: EB) => eb.or(FLAG_SQL.map((f) => f(eb)));

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function flagsOf(r: any): string[] {
  const on: Record<string, boolean> = {
    voided: r.invoice_state === VOIDED,
    red: RED_STATES.includes(r.invoice_state),
    redPending: Number(r.red_pending) === 1,
    lostControl: r.invoice_state === LOST_CONTROL,
    abnormalVoucher: r.risk_level === ABNORMAL_VOUCHER,
    buyerNotOurs: Number(r.buyer_mismatch) === 1,
    duplicate: r.duplicate_of !== null,
    verifyMismatch: r.verify_state === VERIFY_MISMATCH,
  };
  return FLAG_LABELS.map(([f]) => f).filter((f) => on[f]);
}

async function defaultOwner(db: Db): Promise<string | null> {
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

async function documentOwner(db: Db, invoiceId: string): Promise<string | null> {
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

async function flagDocument(db: Db, c: { id: string; invoice_id: string; flag: string; owner_id: string | null }): Promise<void> {
  if (!DEAD_FLAGS.includes(c.flag)) return;
  const lock = await db.selectFrom('income_locks').select(['use_kind', 'doc_no']).where('invoice_id', '=', c.invoice_id).where('state', 'in', ['locked', 'closed']).orderBy('created_at', 'desc').limit(1).executeTakeFirst();
  const sign = await db.selectFrom('income_signings').select(['doc_type', 'doc_no', 'user_id', 'user_name']).where('invoice_id', '=', c.invoice_id).where('state', 'in', ['applying', 'signed']).orderBy('created_at', 'desc').limit(1).executeTakeFirst();
  const doc = lock ? `${USE_KIND_LABELS[lock.use_kind] ?? lock.use_kind} ${lock.doc_no}` : sign ? `签收单 ${sign.doc_no}` : '';
  if (!doc) return;
  const notified: string | null = sign?.user_id ?? c.owner_id;
  const u = await db.updateTable('income_abnormal_cases').set({ doc_flagged: doc, notified_user_id: notified, ...(notified ? { owner_id: notified } : {}) }).where('id', '=', c.id).where('doc_flagged', '=', '').executeTakeFirst();
  if (Number(u.numUpdatedRows) > 0) {
    const who = notified ? (await db.selectFrom('users').select('name').where('id', '=', notified).executeTakeFirst())?.name : '';
    const message = `发票${flagLabel(c.flag)}：已标记${doc}${who ? `，已通知${who}` : ''}`;
    await db.insertInto('income_events').values({ id: uuidv7(), invoice_id: c.invoice_id, kind: 'abnormal', message, user_name: '', created_at: new Date().toISOString() }).execute();
  }
}

async function raiseCases(db: Db, invoiceId: string, fallbackOwner: string | null): Promise<number> {
  const r = await db.selectFrom('income_invoices').selectAll().where('id', '=', invoiceId).executeTakeFirst();
  if (!r) return 0;
  const flags = flagsOf(r);
  if (!flags.length) return 0;
  const known = new Set((await db.selectFrom('income_abnormal_cases').select('flag').where('invoice_id', '=', invoiceId).execute()).map((c) => c.flag));
  const missing = flags.filter((f) => !known.has(f));
  if (!missing.length) return 0;
  const owner = (await documentOwner(db, invoiceId)) ?? fallbackOwner;
  const at = new Date().toISOString();
  let n = 0;
  for (const flag of missing) {
    const id = uuidv7();
    const x = await db
      .insertInto('income_abnormal_cases')
      .values({ id, invoice_id: invoiceId, flag, owner_id: owner, raised_at: at, state: 'open', action: '', note: '', doc_flagged: '', notified_user_id: null, resolved_by: null, resolved_by_name: '', resolved_at: null })
      .onConflict((oc) => oc.columns(['invoice_id', 'flag']).doNothing())
      .executeTakeFirst();
    const added = Number(x.numInsertedOrUpdatedRows ?? 0);
    n += added;
    if (added) await flagDocument(db, { id, invoice_id: invoiceId, flag, owner_id: owner });
  }
  return n;
}

/** Raises the cases of every flagged invoice that has none; the number of new cases. */
export async function raiseAll(db: Db): Promise<number> {
  const fallback = await defaultOwner(db);
  const ids: Array<{ id: string }> = await db
    .selectFrom('income_invoices as p')
    .select('p.id')
    .where(isAbnormal)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('income_abnormal_cases as c').select('c.id').whereRef('c.invoice_id', '=', 'p.id'))))
    .execute();
  let n = 0;
  for (const { id } of ids) n += await raiseCases(db, id, fallback);
  return n;
}
