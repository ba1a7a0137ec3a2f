/**
 * 进项转出 (issue 14): a ticked-for-deduction invoice flagged 异常凭证 or 失控 (or 作废/红冲 after ticking)
 * gives back its input tax. One record per invoice — the unique index on income_transfer_outs.invoice_id
 * (and on the idempotency key) makes a repeated or concurrent request find the first record instead of
 * making a second — and one voucher: the record's id is the voucher's id at the accounting gateway,
 * which answers a repeat with the voucher number it gave. A new record is due for the job only after
 * TRANSFER_PUSH_LEASE_MS (its request pushes it at once); a failed push leaves it 'pending' (attempts, last
 * error, next try). The job (job.ts) settles a due record by asking the accounting side first (a push cut
 * short by a crash may have arrived), then pushes only what did not. Success resolves the case.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { AbnormalAction, formatFen, IncomeAbnormalFlag, STATUS_FLAGS, TRANSFER_OUT_CREDIT, TRANSFER_OUT_DEBIT, TransferOutReason, type AbnormalActionAnswer, type TransferOutBody, type TransferOutRecord, type TransferProposalBody } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import { accountingConfigFromEnv, createAccountingGateway, type AccountingConfig, type AccountingGateway, type Voucher } from '../../../integrations/accounting/index.js';
import { currentUser } from '../../../platform/context.js';
import { AppError, notFound, refuse } from '../../../platform/envelope.js';
import { newId } from '../../../platform/ids.js';
import { shanghaiDay } from '../../../platform/listing.js';
import { isoAfter, nowIso } from '../../../platform/time.js';
import { addEvent } from '../pool/events.js';
import type { IncomeInvoiceTable } from '../pool/tables.js';
import type { IncomeTransferOutTable } from './tables.js';
import './tables.js';

type Db = Kysely<Database>;
const yuan = (fen: number) => formatFen(Number(fen));
export const numberOf = (r: Pick<IncomeInvoiceTable, 'digital_no' | 'invoice_code' | 'invoice_no'>) => r.digital_no || `${r.invoice_code}${r.invoice_no}`;

export const accountingGatewayOf = (app: FastifyInstance, config: AccountingConfig = accountingConfigFromEnv()): AccountingGateway => createAccountingGateway({ db: app.db, synclog: app.synclog }, config);

/** The delay before the n-th retry: 1, 2, 4 … minutes, at most an hour. */
export const retryDelayMs = (attempts: number) => Math.min(60, 2 ** Math.max(0, attempts - 1)) * 60_000;

export function toTransferOut(t: IncomeTransferOutTable): TransferOutRecord {
  return { id: t.id, invoiceId: t.invoice_id, reason: Number(t.reason), amount: Number(t.amount), state: t.state, voucherNo: t.voucher_no, lastError: t.last_error, attempts: Number(t.attempts), createdByName: t.created_by_name, createdAt: t.created_at, pushedAt: t.pushed_at, period: t.voucher_period || t.period || '' };
}

/** The voucher of a transfer-out: 借 the reason's cost/expense account, 贷 应交税费—应交增值税（进项税额转出）. */
export function transferVoucher(t: IncomeTransferOutTable, inv: IncomeInvoiceTable, flag: string): Voucher {
  const date = voucherDate(shanghaiDay(t.created_at), t.period ?? '');
  const debit = TRANSFER_OUT_DEBIT[Number(t.reason)]!;
  const summary = `进项转出：发票${numberOf(inv)}（${IncomeAbnormalFlag.label(flag)}，${TransferOutReason.label(Number(t.reason))}）`;
  return {
    id: t.id, date, period: date.slice(0, 7).replace('-', ''), summary, maker: t.created_by_name, sourceType: 'incomeTransferOut', sourceNo: numberOf(inv),
    entries: [
      { dc: 'debit', accountCode: debit.code, accountName: debit.name, amount: Number(t.amount), summary },
      { dc: 'credit', accountCode: TRANSFER_OUT_CREDIT.code, accountName: TRANSFER_OUT_CREDIT.name, amount: Number(t.amount), summary },
    ],
  };
}

/**
 * The voucher's date: the day it is made, or — when a proposal named an earlier period (the period the
 * bureau's change arrived in, confirmed later) — that period's last day.
 */
export function voucherDate(today: string, period: string): string {
  if (!/^\d{6}$/.test(period) || period >= today.slice(0, 7).replace('-', '')) return today;
  const y = Number(period.slice(0, 4));
  const m = Number(period.slice(4));
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}

/**
 * How long a new record is left to its own request's push before the job may take it: far above one
 * accounting call's timeout, so the job never pushes a voucher whose first push is still under way; past it
 * (the request died mid-exchange) the job asks the accounting side first (`settleTransfer`).
 */
export const TRANSFER_PUSH_LEASE_MS = 120_000;

/** Records the voucher the accounting side holds for a pending record (guarded: recorded once) and resolves the case. */
async function recordPushed(db: Db, t: IncomeTransferOutTable, a: { voucherNo: string; period: string }): Promise<void> {
  const at = nowIso();
  await db.transaction().execute(async (trx) => {
    const u = await trx.updateTable('income_transfer_outs').set({ state: 'pushed', voucher_no: a.voucherNo, voucher_period: a.period, pushed_at: at, last_error: '', attempts: Number(t.attempts) + 1 }).where('id', '=', t.id).where('state', '=', 'pending').executeTakeFirst();
    if (Number(u.numUpdatedRows) === 0) return; // another server recorded the same voucher first
    await trx
      .updateTable('income_abnormal_cases')
      .set({ state: 'resolved', action: AbnormalAction.transferOut, resolved_by: t.created_by, resolved_by_name: t.created_by_name, resolved_at: at, note: `${TransferOutReason.label(Number(t.reason))}，转出税额${yuan(t.amount)}元，凭证号 ${a.voucherNo}` })
      .where('id', '=', t.case_id)
      .where('state', '=', 'open')
      .execute();
    await addEvent(trx, t.invoice_id, 'transferOut', `进项转出已生成凭证 ${a.period} ${a.voucherNo}（转出税额${yuan(t.amount)}元）`, t.created_by_name);
  });
}

/** Pushes a pending record's voucher (the request, or the retry job); the record as it is afterwards. */
export async function pushTransfer(db: Db, gateway: AccountingGateway, id: string, userId: string | null): Promise<IncomeTransferOutTable> {
  const t = await db.selectFrom('income_transfer_outs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  if (t.state !== 'pending') return t;
  const inv = await db.selectFrom('income_invoices').selectAll().where('id', '=', t.invoice_id).executeTakeFirstOrThrow();
  const c = await db.selectFrom('income_abnormal_cases').select(['flag']).where('id', '=', t.case_id).executeTakeFirst();
  try {
    await recordPushed(db, t, await gateway.pushVoucher(transferVoucher(t, inv, c?.flag ?? IncomeAbnormalFlag.abnormalVoucher), { userId }));
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const attempts = Number(t.attempts) + 1;
    await db.updateTable('income_transfer_outs').set({ attempts, last_error: err.message.slice(0, 500), next_try_at: isoAfter(retryDelayMs(attempts)) }).where('id', '=', id).where('state', '=', 'pending').execute();
  }
  return db.selectFrom('income_transfer_outs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/**
 * The job's step for a record still pending past its due time (a failed push, or a push cut short by a crash):
 * asks the accounting side by the record's id — the voucher's idempotency key — whether the voucher arrived;
 * posted → recorded as pushed without pushing again; not found → pushed now. A failed question leaves the
 * record pending for the next try (back-off as for a failed push).
 */
export async function settleTransfer(db: Db, gateway: AccountingGateway, id: string): Promise<IncomeTransferOutTable> {
  const t = await db.selectFrom('income_transfer_outs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  if (t.state !== 'pending') return t;
  try {
    const v = await gateway.voucherState(t.id, { userId: null, refs: [t.invoice_id] });
    if (v.status === 'notFound') return await pushTransfer(db, gateway, id, null);
    await recordPushed(db, t, v);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const attempts = Number(t.attempts) + 1;
    await db.updateTable('income_transfer_outs').set({ attempts, last_error: err.message.slice(0, 500), next_try_at: isoAfter(retryDelayMs(attempts)) }).where('id', '=', id).where('state', '=', 'pending').execute();
  }
  return db.selectFrom('income_transfer_outs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

function answerOf(t: IncomeTransferOutTable, repeated: boolean): AbnormalActionAnswer {
  const r = toTransferOut(t);
  const message =
    t.state === 'pushed'
      ? `${repeated ? '该发票已进项转出' : '进项转出成功'}，凭证号 ${t.voucher_no}`
      : `进项转出已记录，凭证尚未推送到会计系统（${t.last_error || '处理中'}），系统将自动重试`;
  return { caseId: t.case_id, state: t.state === 'pushed' ? 'resolved' : 'open', message, transferOut: r };
}

export async function transferOut(db: Db, req: FastifyRequest, b: TransferOutBody, gateway: AccountingGateway, period = ''): Promise<AbnormalActionAnswer> {
  const user = currentUser(req);
  const byKey = b.idempotencyKey ? await db.selectFrom('income_transfer_outs').selectAll().where('idem_key', '=', b.idempotencyKey).executeTakeFirst() : undefined;
  if (byKey) return answerOf(byKey.state === 'pending' ? await pushTransfer(db, gateway, byKey.id, user.id) : byKey, true);
  const c = await db.selectFrom('income_abnormal_cases').selectAll().where('id', '=', b.caseId).executeTakeFirst();
  if (!c) throw notFound('异常记录不存在');
  if (!STATUS_FLAGS.includes(c.flag)) throw refuse(`${IncomeAbnormalFlag.label(c.flag)}的发票不能进项转出`);
  const had = await db.selectFrom('income_transfer_outs').selectAll().where('invoice_id', '=', c.invoice_id).executeTakeFirst();
  if (had) return answerOf(had.state === 'pending' ? await pushTransfer(db, gateway, had.id, user.id) : had, true);
  if (c.state !== 'open') throw refuse('该异常已处理', 409);
  const inv = await db.selectFrom('income_invoices').selectAll().where('id', '=', c.invoice_id).executeTakeFirstOrThrow();
  if (Number(inv.tick_state ?? 0) !== 1 || Number(inv.vat_usage ?? 0) !== 1) throw refuse('该发票未勾选抵扣，不能进项转出');
  const eff = Number(inv.effective_tax ?? 0);
  const amount = b.amount ?? eff;
  if (!(amount > 0 && amount <= eff)) throw refuse(`转出税额须大于0且不超过有效税额${yuan(eff)}元`);
  const id = newId();
  const at = nowIso();
  const inserted = await db.transaction().execute(async (trx) => {
    const x = await trx
      .insertInto('income_transfer_outs')
      .values({ id, invoice_id: c.invoice_id, case_id: c.id, idem_key: b.idempotencyKey ?? null, reason: b.reason, amount, state: 'pending', voucher_no: '', voucher_period: '', attempts: 0, last_error: '', next_try_at: isoAfter(TRANSFER_PUSH_LEASE_MS), created_by: user.id, created_by_name: user.name, created_at: at, pushed_at: null, period })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    if (Number(x.numInsertedOrUpdatedRows ?? 0) === 0) return false;
    await addEvent(trx, c.invoice_id, 'transferOut', `进项转出：${TransferOutReason.label(b.reason)}，转出税额${yuan(amount)}元`, user.name);
    return true;
  });
  if (!inserted) {
    // A concurrent request for the same invoice (or key) recorded first: its record is the one.
    const first = await db.selectFrom('income_transfer_outs').selectAll().where((eb) => eb.or([eb('invoice_id', '=', c.invoice_id), ...(b.idempotencyKey ? [eb('idem_key', '=', b.idempotencyKey)] : [])])).executeTakeFirstOrThrow();
    return answerOf(first.state === 'pending' ? await pushTransfer(db, gateway, first.id, user.id) : first, true);
  }
  return answerOf(await pushTransfer(db, gateway, id, user.id), false);
}

/**
 * 确认转出建议 (issue 32 item 2): the re-check's proposal on the case (recheck.ts proposeFor: the amount, the
 * reason, the period) becomes the 进项转出 and its voucher, through the same one-record-one-voucher path as a
 * transfer-out the clerk fills in. Refused while the case has no amount proposed (the note says why).
 */
export async function acceptProposal(db: Db, req: FastifyRequest, b: TransferProposalBody, gateway: AccountingGateway): Promise<AbnormalActionAnswer> {
  const c = await db.selectFrom('income_abnormal_cases').selectAll().where('id', '=', b.caseId).executeTakeFirst();
  if (!c) throw notFound('异常记录不存在');
  if (c.proposed_amount === null || c.proposed_amount === undefined || !c.proposed_reason) {
    const had = await db.selectFrom('income_transfer_outs').select('id').where('invoice_id', '=', c.invoice_id).executeTakeFirst();
    if (!had) throw refuse(`该异常没有可确认的进项转出建议${c.proposal_note ? `（${c.proposal_note}）` : ''}`);
  }
  return transferOut(db, req, { caseId: c.id, reason: Number(c.proposed_reason ?? TransferOutReason.abnormalVoucher), amount: c.proposed_amount === null || c.proposed_amount === undefined ? undefined : Number(c.proposed_amount), ...(b.idempotencyKey ? { idempotencyKey: b.idempotencyKey } : {}) }, gateway, c.proposed_period ?? '');
}
