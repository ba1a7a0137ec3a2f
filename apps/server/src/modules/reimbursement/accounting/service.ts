/**
 * 报销入账 (issue 15): pushing approved bills to the accounting system and revoking them.
 *
 * Push: the bill in 0 未报销 or 2 报销失败 is claimed by one conditional UPDATE to -1 报销中 with a lease
 * (push_claimed_until); a claim whose lease ran out (a crashed push) may be taken again, after asking the
 * accounting side whether the voucher arrived; the settling job (settle.ts) does the same for a bill nobody
 * pushes again, so no bill stays 报销中 past its lease. The bill number is the voucher id (the idempotency key),
 * so no repeat or concurrent push makes a second voucher. Success → 1 已报销 (voucher number, period,
 * date, who, when), the bill's invoices closed in the pool (usage lock) and booked 02 with the tax service;
 * failure → 2 报销失败 with the reason. One reimb_pushes row per attempt; the applicant is told.
 *
 * Revoke: only when the accounting side no longer holds the voucher and its period is not closed; the
 * bill returns to 0 (voucher fields cleared), its invoices to locked (reopen) with booking 06. Refused
 * attempts are recorded too. Revoking by a red reversing voucher (红字冲销, issue 32 item 3) is reverse.ts.
 *
 * The voucher id is the bill number; after a 红字冲销 the original stays in the accounting system under it,
 * so the next push of the bill uses `{bill number}-{n}` (voucher.ts `voucherIdOf`), still one id per round.
 */
import type { Kysely } from 'kysely';
import { ReimbFlowState, ReimbRevocationState, ReimbState, type ReimbEditBody, type ReimbEditDetail, type ReimbPushResult, type ReimbRevokeAnswer } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import { AccountingError, periodText, type AccountingGateway, type VoucherAnswer } from '../../../integrations/accounting/index.js';
import type { IncomeBookingGateway } from '../../../integrations/tax/income-types.js';
import { AppError, conflict, notFound, refuse } from '../../../platform/envelope.js';
import { newId } from '../../../platform/ids.js';
import { isoAfter, nowIso } from '../../../platform/time.js';
import { queueChanges, sendQueued, type QueuedChanges } from '../../income/booking/service.js';
import { close, reopen } from '../../income/identity/locks.js';
import { notifyUser } from '../../messages/service.js';
import type { ReimbBillTable } from '../tables.js';
import { approvedOf, billCostCentre, defaultSummary, lineSubjects, planVoucher } from './voucher.js';

type Db = Kysely<Database>;

/** How long a push holds its claim: past it, a push that never finished may be taken again. */
export const PUSH_LEASE_MS = 120_000;

export interface Actor {
  id: string | null;
  name: string;
}

export interface AccountingDeps {
  db: Db;
  accounting: () => Promise<AccountingGateway>;
  /** The tax service's booking flag (入账标识); null when the income area is absent. */
  booking: (() => Promise<IncomeBookingGateway>) | null;
  log?: { warn: (o: unknown, m: string) => void };
}

export const ReimbRefusals = {
  notFound: '报销单不存在',
  notApproved: '报销单尚未审批通过，不能推送',
  applying: (no: string) => `报销单 ${no} 正在报销中，请稍后刷新查看结果`,
  notPushable: (no: string, label: string) => `报销单 ${no} 当前为${label}，不能推送`,
  notEditable: (label: string) => `报销单当前为${label}，只有未报销或报销失败的报销单可以编辑`,
  notRevocable: (label: string) => `报销单当前为${label}，只有已报销的报销单可以撤销`,
  voucherExists: (no: string) => `凭证 ${no} 仍在会计系统中，请先在会计系统删除该凭证后再撤销`,
  periodClosed: (period: string) => `会计期间 ${periodText(period)} 已结账，不能撤销该期间的报销凭证`,
  changed: '报销单状态已变化，请刷新后重试',
} as const;

export const stateLabel = (s: number | null) => (s === null ? '未审批' : ReimbState.has(s) ? ReimbState.label(s) : String(s));
export const billLink = (id: string) => `/my/reimbursement/detail/${id}`;

export async function pushRow(db: Db, billId: string, action: 'push' | 'revoke' | 'reverse', ok: boolean, voucherNo: string, message: string, userName: string): Promise<void> {
  await db.insertInto('reimb_pushes').values({ id: newId(), bill_id: billId, action, ok: ok ? 1 : 0, voucher_no: voucherNo, message: message.slice(0, 1000), user_name: userName, created_at: nowIso() }).execute();
}

export async function invoiceIdsOf(db: Db, billId: string): Promise<string[]> {
  const rows = await db.selectFrom('reimb_lines').select('invoice_id').where('bill_id', '=', billId).where('invoice_id', 'is not', null).execute();
  return [...new Set(rows.map((r) => r.invoice_id!))];
}

/** Claims the bill for a push: 0 / 2 → -1, or a -1 whose lease ran out. Answers how it was claimed, or null. */
async function claim(db: Db, id: string): Promise<'fresh' | 'stale' | null> {
  const now = nowIso();
  const until = isoAfter(PUSH_LEASE_MS);
  const a = await db
    .updateTable('reimb_bills')
    .set({ reimb_state: ReimbState.applying, push_claimed_until: until, updated_at: now })
    .where('id', '=', id)
    .where('flow_state', '=', ReimbFlowState.approved)
    .where('reimb_state', 'in', [ReimbState.unReimburse, ReimbState.failed])
    .executeTakeFirst();
  if (Number(a.numUpdatedRows) > 0) return 'fresh';
  const b = await db
    .updateTable('reimb_bills')
    .set({ push_claimed_until: until, updated_at: now })
    .where('id', '=', id)
    .where('reimb_state', '=', ReimbState.applying)
    .where((eb) => eb.or([eb('push_claimed_until', 'is', null), eb('push_claimed_until', '<', now)]))
    .executeTakeFirst();
  return Number(b.numUpdatedRows) > 0 ? 'stale' : null;
}

const result = (b: Pick<ReimbBillTable, 'id' | 'bill_no'>, ok: boolean, reimbState: number | null, message: string, answer?: { voucherNo: string; period: string }): ReimbPushResult => ({
  billId: b.id, billNo: b.bill_no, ok, reimbState, voucherNo: answer?.voucherNo ?? '', voucherPeriod: answer?.period ?? '', message,
});

/** Pushes one bill; never throws for the bill's own refusals (they are the result's message). */
export async function pushBill(deps: AccountingDeps, billId: string, by: Actor): Promise<ReimbPushResult> {
  const { db } = deps;
  const b0 = await db.selectFrom('reimb_bills').selectAll().where('id', '=', billId).executeTakeFirst();
  if (!b0) return { billId, billNo: '', ok: false, reimbState: null, voucherNo: '', voucherPeriod: '', message: ReimbRefusals.notFound };
  if (b0.flow_state !== ReimbFlowState.approved) return result(b0, false, b0.reimb_state, ReimbRefusals.notApproved);
  const how = await claim(db, billId);
  if (!how) {
    const now = await db.selectFrom('reimb_bills').selectAll().where('id', '=', billId).executeTakeFirstOrThrow();
    if (now.reimb_state === ReimbState.success) return result(now, true, now.reimb_state, `报销单 ${now.bill_no} 已报销，凭证号 ${now.voucher_no}`, { voucherNo: now.voucher_no, period: now.voucher_period });
    if (now.reimb_state === ReimbState.applying) return result(now, false, now.reimb_state, ReimbRefusals.applying(now.bill_no));
    return result(now, false, now.reimb_state, ReimbRefusals.notPushable(now.bill_no, stateLabel(now.reimb_state)));
  }
  const b = await db.selectFrom('reimb_bills').selectAll().where('id', '=', billId).executeTakeFirstOrThrow();
  const plan = await planVoucher(db, b, by.name);
  if (!plan.voucher) return fail(deps, b, plan.problem, by);
  let gateway: AccountingGateway;
  let answer: VoucherAnswer;
  try {
    gateway = await deps.accounting();
    // A claim taken over from a push that never finished: the voucher may have arrived already.
    const known = how === 'stale' ? await gateway.voucherState(plan.voucher.id, { userId: by.id, refs: [b.bill_no] }) : null;
    answer = known?.status === 'posted' ? { id: plan.voucher.id, voucherNo: known.voucherNo, period: known.period } : await gateway.pushVoucher(plan.voucher, { userId: by.id });
  } catch (err) {
    if (!(err instanceof AppError)) deps.log?.warn({ err, billNo: b.bill_no }, 'reimbursement push failed unexpectedly');
    const message = err instanceof AppError ? err.message : '推送会计系统失败，请稍后重试';
    return fail(deps, b, message, by);
  }
  return succeed(deps, b, answer, plan.voucher.date, by);
}

export async function fail(deps: AccountingDeps, b: ReimbBillTable, message: string, by: Actor): Promise<ReimbPushResult> {
  const { db } = deps;
  const text = `推送失败：${message}`;
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('reimb_bills').set({ reimb_state: ReimbState.failed, push_message: message.slice(0, 1000), push_claimed_until: null, updated_at: nowIso() }).where('id', '=', b.id).where('reimb_state', '=', ReimbState.applying).execute();
    await pushRow(trx, b.id, 'push', false, '', message, by.name);
  });
  await notifyUser(db, b.applicant_id, { title: `报销单 ${b.bill_no} 入账失败`, content: `您的报销单 ${b.bill_no} 推送会计系统失败：${message}。财务人员处理后将重新推送。`, link: billLink(b.id) }).catch(() => undefined);
  return result(b, false, ReimbState.failed, text);
}

export async function succeed(deps: AccountingDeps, b: ReimbBillTable, a: VoucherAnswer, voucherDate: string, by: Actor): Promise<ReimbPushResult> {
  const { db } = deps;
  const invoiceIds = await invoiceIdsOf(db, b.id);
  const use = { kind: 'reimbursement' as const, docNo: b.bill_no };
  const notes: string[] = [];
  const booker = { id: by.id, name: by.name };
  const source = { type: 'reimbursement' as const, no: b.bill_no };
  const done = await db.transaction().execute(async (trx): Promise<QueuedChanges | null | false> => {
    const now = nowIso();
    const u = await trx
      .updateTable('reimb_bills')
      .set({ reimb_state: ReimbState.success, voucher_id: a.id, voucher_no: a.voucherNo, voucher_period: a.period, voucher_date: voucherDate, push_message: '', push_claimed_until: null, pushed_at: now, pushed_by: by.name, updated_at: now })
      .where('id', '=', b.id)
      .where('reimb_state', '=', ReimbState.applying)
      .executeTakeFirst();
    if (Number(u.numUpdatedRows) === 0) return false;
    for (const id of invoiceIds) {
      try {
        await close(id, use, trx, by.name);
      } catch (e) {
        // An invoice the bill no longer holds (released by hand): the voucher stands; say so in the history.
        if (!(e instanceof AppError)) throw e;
        notes.push(e.message);
      }
    }
    await pushRow(trx, b.id, 'push', true, a.voucherNo, `凭证号 ${a.period} ${a.voucherNo}${notes.length ? `；${notes.join('；')}` : ''}`, by.name);
    // The booking flags (02) are queued with the bill's success: a crash after the commit leaves them to the booking job.
    return invoiceIds.length && deps.booking ? queueChanges(trx, invoiceIds, '02', source, booker) : null;
  });
  if (done === false) {
    const now = await db.selectFrom('reimb_bills').selectAll().where('id', '=', b.id).executeTakeFirstOrThrow();
    return result(now, now.reimb_state === ReimbState.success, now.reimb_state, now.reimb_state === ReimbState.success ? `报销单 ${b.bill_no} 已报销，凭证号 ${now.voucher_no}` : ReimbRefusals.changed, { voucherNo: now.voucher_no, period: now.voucher_period });
  }
  let booking = '';
  if (done && deps.booking) {
    try {
      const ans = await sendQueued(db, await deps.booking(), done, booker);
      booking = `，发票入账${ans.done}张${ans.refused ? `，${ans.refused}张未入账（${ans.results.filter((r) => !r.ok).map((r) => r.message).join('；')}）` : ''}`;
    } catch (err) {
      deps.log?.warn({ err, billNo: b.bill_no }, 'reimbursement booking flags not sent; the booking job sends them');
      booking = '，发票入账标识稍后重试';
    }
  }
  await notifyUser(db, b.applicant_id, { title: `报销单 ${b.bill_no} 已入账`, content: `您的报销单 ${b.bill_no} 已推送会计系统，凭证号 ${periodText(a.period)} ${a.voucherNo}，核定金额 ${(Number(b.approved_amount) / 100).toFixed(2)} 元。`, link: billLink(b.id) }).catch(() => undefined);
  return result(b, true, ReimbState.success, `报销成功，凭证号 ${a.voucherNo}${booking}`, a);
}

/** Pushes the bills one after another (each its own claim and voucher). */
export async function pushBills(deps: AccountingDeps, billIds: readonly string[], by: Actor): Promise<ReimbPushResult[]> {
  const out: ReimbPushResult[] = [];
  for (const id of [...new Set(billIds)]) out.push(await pushBill(deps, id, by));
  return out;
}

// ---------------------------------------------------------------- edit

const EDITABLE: number[] = [ReimbState.unReimburse, ReimbState.failed];

export async function editDetail(db: Db, billId: string): Promise<ReimbEditDetail> {
  const b = await db.selectFrom('reimb_bills').selectAll().where('id', '=', billId).executeTakeFirst();
  if (!b) throw notFound(ReimbRefusals.notFound);
  const lines = await db.selectFrom('reimb_lines').selectAll().where('bill_id', '=', billId).orderBy('line_no').execute();
  const subjects = await lineSubjects(db, lines);
  const dept = await billCostCentre(db, { cost_centre_code: '', cost_centre_name: '', dept_id: b.dept_id });
  const plan = await planVoucher(db, b, '');
  const history = await db.selectFrom('reimb_pushes').selectAll().where('bill_id', '=', billId).orderBy('created_at', 'desc').execute();
  return {
    id: b.id, billNo: b.bill_no, applicantName: b.applicant_name, deptName: b.dept_name, reason: b.reason, reimbState: b.reimb_state, flowState: b.flow_state,
    amount: Number(b.amount), approvedAmount: Number(b.approved_amount), deductibleTax: Number(b.deductible_tax), pushMessage: b.push_message, voucherNo: b.voucher_no, voucherPeriod: b.voucher_period,
    summary: b.acct_summary, costCentreCode: b.cost_centre_code, costCentreName: b.cost_centre_name, defaultSummary: defaultSummary(b),
    deptCostCentreCode: dept?.code ?? '', deptCostCentreName: dept?.name ?? '',
    lines: lines.map((l) => {
      const s = subjects.get(l.id)!;
      return {
        id: l.id, lineNo: l.line_no, categoryCode: l.category_code, categoryName: l.category_name, expenseDate: l.expense_date, description: l.description,
        amount: Number(l.amount), approvedAmount: approvedOf(l), deductibleTax: Number(l.deductible_tax), invoiceNumber: l.invoice_number,
        subjectCode: l.subject_code, subjectName: l.subject_name, categorySubjectCode: s.category.code, categorySubjectName: s.category.name,
      };
    }),
    voucher: plan.entries.map((e) => ({ dc: e.dc, accountCode: e.accountCode, accountName: e.accountName, amount: e.amount, summary: e.summary ?? '' })),
    problem: plan.problem,
    editable: b.flow_state === ReimbFlowState.approved && EDITABLE.includes(Number(b.reimb_state)),
    history: history.map((h) => ({ id: h.id, action: h.action, ok: h.ok === 1, voucherNo: h.voucher_no, message: h.message, userName: h.user_name, createdAt: h.created_at })),
  };
}

/** Saves a bill's accounting fields (0 or 2 only; the guard is in the UPDATE). */
export async function editBill(db: Db, body: ReimbEditBody): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const b = await trx.selectFrom('reimb_bills').select(['id', 'bill_no', 'reimb_state', 'flow_state']).where('id', '=', body.billId).executeTakeFirst();
    if (!b) throw notFound(ReimbRefusals.notFound);
    const u = await trx
      .updateTable('reimb_bills')
      .set({ acct_summary: body.summary, cost_centre_code: body.costCentreCode, cost_centre_name: body.costCentreName, updated_at: nowIso() })
      .where('id', '=', body.billId)
      .where('flow_state', '=', ReimbFlowState.approved)
      .where('reimb_state', 'in', EDITABLE)
      .executeTakeFirst();
    if (Number(u.numUpdatedRows) === 0) throw refuse(ReimbRefusals.notEditable(b.flow_state === ReimbFlowState.approved ? stateLabel(b.reimb_state) : ReimbFlowState.label(b.flow_state)), 409);
    const ids = new Set((await trx.selectFrom('reimb_lines').select('id').where('bill_id', '=', body.billId).execute()).map((l) => l.id));
    for (const l of body.lines) {
      if (!ids.has(l.id)) throw refuse('明细行不属于该报销单');
      await trx.updateTable('reimb_lines').set({ subject_code: l.subjectCode, subject_name: l.subjectName }).where('id', '=', l.id).where('bill_id', '=', body.billId).execute();
    }
    return b.bill_no;
  });
}

// ---------------------------------------------------------------- revoke

async function revocationRow(db: Db, b: ReimbBillTable, reason: string, state: number, message: string, by: Actor): Promise<void> {
  await db
    .insertInto('reimb_revocations')
    .values({ id: newId(), bill_id: b.id, bill_no: b.bill_no, voucher_no: b.voucher_no, voucher_period: b.voucher_period, reason, state, message: message.slice(0, 1000), requested_by: by.id, requested_by_name: by.name, created_at: nowIso(), method: 'delete', reversal_voucher_no: '', reversal_period: '' })
    .execute();
}

/** Revokes a pushed bill once its voucher is gone from the accounting side; refusals are recorded (state 2) and thrown. */
export async function revokeBill(deps: AccountingDeps, billId: string, reason: string, by: Actor): Promise<ReimbRevokeAnswer> {
  const { db } = deps;
  const b = await db.selectFrom('reimb_bills').selectAll().where('id', '=', billId).executeTakeFirst();
  if (!b) throw notFound(ReimbRefusals.notFound);
  if (b.reimb_state !== ReimbState.success) throw refuse(ReimbRefusals.notRevocable(stateLabel(b.reimb_state)), 409);
  const refused = async (message: string) => {
    await db.transaction().execute(async (trx) => {
      await revocationRow(trx, b, reason, ReimbRevocationState.refused, message, by);
      await pushRow(trx, b.id, 'revoke', false, b.voucher_no, `撤销被拒绝：${message}`, by.name);
    });
    return refuse(message, 409);
  };
  try {
    const gateway = await deps.accounting();
    const v = await gateway.voucherState(b.voucher_id || b.bill_no, { userId: by.id, refs: [b.bill_no] });
    if (v.status === 'posted') throw await refused(ReimbRefusals.voucherExists(v.voucherNo));
    if (b.voucher_period) {
      const p = await gateway.periodState(b.voucher_period, { userId: by.id, refs: [b.bill_no] });
      if (p.closed) throw await refused(ReimbRefusals.periodClosed(b.voucher_period));
    }
  } catch (err) {
    if (err instanceof AccountingError) throw await refused(`无法确认会计系统中的凭证状态：${err.message}`);
    throw err;
  }
  const invoiceIds = await invoiceIdsOf(db, b.id);
  const queued = await db.transaction().execute(async (trx) => {
    const u = await trx
      .updateTable('reimb_bills')
      .set({ reimb_state: ReimbState.unReimburse, voucher_id: '', voucher_no: '', voucher_period: '', voucher_date: '', pushed_at: null, pushed_by: '', push_message: '', push_claimed_until: null, updated_at: nowIso() })
      .where('id', '=', b.id)
      .where('reimb_state', '=', ReimbState.success)
      .executeTakeFirst();
    if (Number(u.numUpdatedRows) === 0) throw conflict(ReimbRefusals.changed);
    const message = `凭证 ${b.voucher_no} 已在会计系统删除，报销单恢复为未报销`;
    await revocationRow(trx, b, reason, ReimbRevocationState.done, message, by);
    await pushRow(trx, b.id, 'revoke', true, b.voucher_no, `撤销报销：${reason}`, by.name);
    return releaseInvoices(deps, trx, b, invoiceIds, by);
  });
  await sendUnbooking(deps, b, queued, by);
  await notifyUser(db, b.applicant_id, { title: `报销单 ${b.bill_no} 已撤销入账`, content: `您的报销单 ${b.bill_no}（凭证号 ${b.voucher_no}）已撤销入账，原因：${reason}。`, link: billLink(b.id) }).catch(() => undefined);
  return { billNo: b.bill_no, voucherNo: b.voucher_no, message: `已撤销报销单 ${b.bill_no}，恢复为未报销`, method: 'delete', reversalVoucherNo: '', reversalPeriod: '' };
}

/**
 * The revoked bill's invoices (in the transaction that revokes it): back to locked for the bill (the usage
 * lock released from 已使用) and booking 06 queued, as 02 was with the push. Answers what to send.
 */
export async function releaseInvoices(deps: AccountingDeps, trx: Db, b: Pick<ReimbBillTable, 'bill_no'>, invoiceIds: readonly string[], by: Actor): Promise<QueuedChanges | null> {
  const use = { kind: 'reimbursement' as const, docNo: b.bill_no };
  for (const id of invoiceIds) {
    try {
      await reopen(id, use, trx, by.name);
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
    }
  }
  return invoiceIds.length && deps.booking ? queueChanges(trx, [...invoiceIds], '06', { type: 'reimbursement', no: b.bill_no }, { id: by.id, name: by.name }) : null;
}

/** Sends the queued 06 flags now; a failure leaves them to the booking job. */
export async function sendUnbooking(deps: AccountingDeps, b: Pick<ReimbBillTable, 'bill_no'>, queued: QueuedChanges | null, by: Actor): Promise<void> {
  if (!queued || !deps.booking) return;
  try {
    await sendQueued(deps.db, await deps.booking(), queued, { id: by.id, name: by.name });
  } catch (err) {
    deps.log?.warn({ err, billNo: b.bill_no }, 'reimbursement unbooking flags not sent; the booking job sends them');
  }
}
