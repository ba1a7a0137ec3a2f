/**
 * Signing and revoking (发票签收 / 签收撤销). Signing one invoice is three steps:
 *
 * 1. one transaction: sign state 0 or 2 → -1 (applying) by a guarded UPDATE, the pool's usage lock for
 *    kind 'sign' (locks.ts, same transaction: a reimbursement or another signing holding it refuses),
 *    and the signing record (applying);
 * 2. the archive side is asked (integrations/archive, outside any transaction, one sync log row), with the
 *    signing's id as the filing's identity;
 * 3. one transaction: on success -1 → 1 with the next archive number of the month (archive-no.ts: taken
 *    only here, so a failed call never takes a number and the sequence has no gaps), the lock closed for
 *    a contract (the use is final) or kept for the other documents (the reimbursement closes it when it
 *    is booked; revoking releases it); on failure -1 → 2 with the reason and the lock released. Guarded
 *    on the signing record still being `applying`.
 *
 * A signing left unfinished between 1 and 3 (the process died) is settled by the job in settle.ts, which
 * asks the archive side by the signing id and finishes it through the same step 3 (`finishSigning`).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { IncomeInvoiceState, IncomeSignDocType, IncomeSignState as S, IncomeUsage, OperationLogType, type RevokeBody, type SignAnswer, type SignBody, type SignOutcome } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import { ArchiveError, archiveConfigFromEnv, createArchiveGateway, type ArchiveConfig, type ArchiveGateway } from '../../../integrations/archive/index.js';
import { currentUser } from '../../../platform/context.js';
import { AppError, conflict, notFound, refuse, refuseWhenNoneDone } from '../../../platform/envelope.js';
import { newId } from '../../../platform/ids.js';
import { nowIso } from '../../../platform/time.js';
import { close, lock, release } from '../identity/locks.js';
import { referenceOrRefuse, type ReferenceKind } from '../../invoice/reference.js';
import { nextArchiveNo, shanghaiMonth } from './archive-no.js';
import { addSignEvent } from './events.js';
import { queueBooking } from '../booking/service.js';
import './tables.js';

type Db = Kysely<Database>;
const DEAD = [IncomeInvoiceState.voided, IncomeInvoiceState.red, IncomeInvoiceState.fullRed];
const BOOKED = ['02', '03'];
const numberOf = (r: { digital_no: string; invoice_no: string }) => r.digital_no || r.invoice_no;

/** The archive side as configured (the environment, read when the routes register: a wrong setting stops the start). */
export const archiveGatewayOf = (app: FastifyInstance, config: ArchiveConfig = archiveConfigFromEnv()): ArchiveGateway => createArchiveGateway({ db: app.db, synclog: app.synclog }, config);

/** Why an invoice cannot start signing (read after the guarded update changed nothing). */
async function startRefusal(trx: Db, id: string): Promise<AppError> {
  const r = await trx.selectFrom('income_invoices').select(['sign_state', 'archive_no', 'buyer_mismatch', 'invoice_state']).where('id', '=', id).executeTakeFirst();
  if (!r) return notFound('发票不存在');
  if (r.sign_state === S.signed) return conflict(`该发票已签收，档案号 ${r.archive_no}`);
  if (r.sign_state === S.applying) return conflict('该发票正在签收中，请稍后刷新');
  if (DEAD.includes(r.invoice_state as 2)) return refuse(`该发票${IncomeInvoiceState.label(r.invoice_state)}，不能签收`);
  if (r.buyer_mismatch) return refuse('购方非本公司的发票不能签收');
  return conflict('该发票当前不能签收，请刷新后重试');
}

/** The department named on each invoice (income_invoice_depts), for dept/sign. */
export async function deptOf(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const rows = await db.selectFrom('income_invoice_depts').select(['invoice_id', 'dept_id']).where('invoice_id', 'in', [...ids]).execute();
  return new Map(rows.map((r) => [r.invoice_id, r.dept_id]));
}

export async function signInvoices(app: FastifyInstance, req: FastifyRequest, b: SignBody, gateway: ArchiveGateway, scope: { deptId?: string } = {}): Promise<SignAnswer> {
  const user = currentUser(req);
  const db = app.db.kysely;
  // The document typed must exist and accept invoices (a 报销单 submitted, a real 合同 or 项目): issue 27.
  // 其他 has no register to check: its number (if any) is the clerk's own reference.
  if (b.docType !== 'other') await referenceOrRefuse(db, b.docType as ReferenceKind, { code: b.docNo });
  // 其他 without a number: the signing's own number holds the lock (QS{yyyyMMdd}-{6}).
  const docNo = b.docNo || `QS${shanghaiMonth()}${new Date(Date.now() + 8 * 3600_000).toISOString().slice(8, 10)}-${randomBytes(3).toString('hex').toUpperCase()}`;
  const use = { kind: 'sign' as const, docNo };
  if (scope.deptId !== undefined) {
    const depts = await deptOf(db, b.invoiceIds);
    if (b.invoiceIds.some((id) => depts.get(id) !== scope.deptId)) throw refuse('只能签收本部门的发票（发票所属部门在项目分摊中登记）');
  }
  const outcomes: SignOutcome[] = [];
  let pending = 0;
  for (const id of b.invoiceIds) {
    let inv: { ident: string; invoice_no: string; digital_no: string; seller_name: string; seller_tax_no: string; issue_date: string; amount_incl: number };
    let signingId: string;
    try {
      ({ inv, signingId } = await db.transaction().execute(async (trx) => {
        const u = await trx
          .updateTable('income_invoices')
          .set({ sign_state: S.applying, updated_at: nowIso() })
          .where('id', '=', id)
          .where('sign_state', 'in', [S.unsigned, S.failed])
          .where('buyer_mismatch', '=', 0)
          .where('invoice_state', 'not in', DEAD)
          .executeTakeFirst();
        if (Number(u.numUpdatedRows) === 0) throw await startRefusal(trx, id);
        await lock(id, use, trx, user.name);
        const sid = newId();
        await trx.insertInto('income_signings').values({ id: sid, invoice_id: id, doc_type: b.docType, doc_no: docNo, note: b.note, state: 'applying', archive_no: '', voucher_id: '', fail_reason: '', user_id: user.id, user_name: user.name, created_at: nowIso(), finished_at: null }).execute();
        const row = await trx.selectFrom('income_invoices').select(['ident', 'invoice_no', 'digital_no', 'seller_name', 'seller_tax_no', 'issue_date', 'amount_incl']).where('id', '=', id).executeTakeFirstOrThrow();
        return { inv: row, signingId: sid };
      }));
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      const cur = await db.selectFrom('income_invoices').select(['sign_state', 'archive_no']).where('id', '=', id).executeTakeFirst();
      outcomes.push({ invoiceId: id, signState: cur?.sign_state ?? S.unsigned, archiveNo: cur?.archive_no ?? '', message: e.message });
      continue;
    }
    let voucherId = '';
    let failure = '';
    let unanswered = '';
    try {
      ({ voucherId } = await gateway.archive(
        { signingId, invoiceId: id, invoiceKey: inv.ident, invoiceNo: numberOf(inv), sellerName: inv.seller_name, sellerTaxNo: inv.seller_tax_no, issueDate: inv.issue_date, amountIncl: Number(inv.amount_incl), docType: b.docType, docNo, note: b.note },
        { userId: user.id },
      ));
    } catch (e) {
      // No answer (timed out, unreachable, unreadable): the filing may have been received, so the signing is
      // neither failed nor signed here; it stays 签收中 and the settlement job asks the archive side (settle.ts).
      if (e instanceof ArchiveError && e.serviceCode === 'TRANSPORT') unanswered = e.message;
      else failure = e instanceof Error && e.message ? e.message : '档案系统未应答';
    }
    const finishing: Finish = { id, signingId, number: numberOf(inv), docType: b.docType, use, voucherId, failure };
    const outcome = unanswered ? await unansweredOutcome(db, requestFinisher(req), finishing, unanswered) : (await finishSigning(db, requestFinisher(req), finishing)).outcome;
    if (outcome.signState === S.applying) pending++;
    outcomes.push(outcome);
  }
  const signed = outcomes.filter((o) => o.signState === S.signed && o.message.startsWith('签收成功')).length;
  return { signed, failed: outcomes.length - signed - pending, pending, outcomes };
}

/**
 * Every invoice of the call refused or failed (none signed, none waiting for the archive side): a refusal,
 * 30000 with the reason or each invoice's number and reason, the answer beside it (issue 27 item 8).
 */
export async function refuseWhenNoneSigned(db: Db, a: SignAnswer): Promise<void> {
  if (a.signed > 0 || a.pending > 0 || a.failed === 0) return;
  const rows = await db.selectFrom('income_invoices').select(['id', 'digital_no', 'invoice_no']).where('id', 'in', a.outcomes.map((o) => o.invoiceId)).execute();
  const nos = new Map(rows.map((r) => [r.id, numberOf(r)]));
  refuseWhenNoneDone(a, 0, a.outcomes.map((o) => ({ label: nos.get(o.invoiceId) ?? '', message: o.message })), '张发票', '签收');
}

/** The answer's message: 签收成功n张，失败m张, and how many wait for the archive side's answer. */
export const signSummary = (a: SignAnswer) => `签收成功${a.signed}张，失败${a.failed}张${a.pending ? `，待核实${a.pending}张` : ''}`;

/**
 * The archive side did not answer: the outcome as it stands. Still 签收中 (the usual case): said so, with the
 * reason; already settled by the job meanwhile: what it decided.
 */
async function unansweredOutcome(db: Db, by: Finisher, f: Finish, why: string): Promise<SignOutcome> {
  const s = await db.selectFrom('income_signings').select('state').where('id', '=', f.signingId).executeTakeFirstOrThrow();
  if (s.state !== 'applying') return db.transaction().execute((trx) => finishedAlready(trx, by, f, `${IncomeSignDocType.label(f.docType)} ${f.use.docNo}`));
  return { invoiceId: f.id, signState: S.applying, archiveNo: '', message: `签收结果待核实：${why}；系统将自动向档案系统核实，请稍后刷新` };
}

export interface Finish {
  id: string;
  signingId: string;
  number: string;
  docType: string;
  use: { kind: 'sign'; docNo: string };
  voucherId: string;
  failure: string;
  /** Finished by the settlement job (settle.ts) after the signing was left unfinished (签收中断). */
  settled?: boolean;
}

/** Who finishes a signing: the signing user's request, or the settlement job (系统). */
export interface Finisher {
  name: string;
  /** Writes the operation log row in the step's transaction. */
  log(trx: Db, description: string): Promise<void>;
}

const requestFinisher = (req: FastifyRequest): Finisher => ({ name: currentUser(req).name, log: (trx, d) => req.server.oplog.record(req, OperationLogType.edit, d, trx) });

/**
 * Step 3, in one transaction. Guarded on the signing record still being `applying`: a late step 3 of the
 * request and the settlement job cannot both finish the same signing; whichever comes second changes
 * nothing and answers what the first one decided.
 */
export const finishSigning = (db: Db, by: Finisher, f: Finish): Promise<Finished> => db.transaction().execute((trx) => finish(trx, by, f));

/** The outcome; `already` when the signing had been finished before (this step 3 changed nothing). */
export interface Finished {
  outcome: SignOutcome;
  already: boolean;
}

async function finish(trx: Db, by: Finisher, f: Finish): Promise<Finished> {
  const now = nowIso();
  const docLabel = `${IncomeSignDocType.label(f.docType)} ${f.use.docNo}`;
  const how = f.settled ? '（签收中断，系统向档案系统核对后完成）' : '';
  const claimed = await trx
    .updateTable('income_signings')
    .set(f.failure ? { state: 'failed', fail_reason: f.failure.slice(0, 500), finished_at: now } : { state: 'signed', voucher_id: f.voucherId, finished_at: now })
    .where('id', '=', f.signingId)
    .where('state', '=', 'applying')
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) === 0) return { outcome: await finishedAlready(trx, by, f, docLabel), already: true };
  if (f.failure) {
    await trx.updateTable('income_invoices').set({ sign_state: S.failed, updated_at: now }).where('id', '=', f.id).where('sign_state', '=', S.applying).execute();
    await release(f.id, f.use, trx, by.name);
    await addSignEvent(trx, f.id, 'sign-failed', `签收失败（${docLabel}）：${f.failure}${how}`, by.name);
    await by.log(trx, `发票签收失败：发票 ${f.number}，${docLabel}，原因：${f.failure}${how}`);
    return { outcome: { invoiceId: f.id, signState: S.failed, archiveNo: '', message: `签收失败：${f.failure}` }, already: false };
  }
  const u = await trx.updateTable('income_invoices').set({ sign_state: S.signed, updated_at: now }).where('id', '=', f.id).where('sign_state', '=', S.applying).executeTakeFirst();
  if (Number(u.numUpdatedRows) === 0) throw conflict('该发票的签收状态已被他人改变，请刷新');
  const archiveNo = await nextArchiveNo(trx);
  await trx.updateTable('income_invoices').set({ archive_no: archiveNo }).where('id', '=', f.id).execute();
  if (f.docType === 'contract') {
    await close(f.id, f.use, trx, by.name);
    // A contract invoice archived is booked (入账标识 02); the flag goes out after this transaction (booking/).
    await queueBooking(trx, f.id, '02', { type: 'contract', no: f.use.docNo }, { id: null, name: by.name }, true);
  }
  await trx.updateTable('income_signings').set({ archive_no: archiveNo }).where('id', '=', f.signingId).execute();
  await addSignEvent(trx, f.id, 'sign', `签收归档（${docLabel}），档案号 ${archiveNo}，凭证号 ${f.voucherId}${how}`, by.name);
  await by.log(trx, `发票签收：发票 ${f.number}，${docLabel}，档案号 ${archiveNo}${how}`);
  return { outcome: { invoiceId: f.id, signState: S.signed, archiveNo, message: `签收成功，档案号 ${archiveNo}` }, already: false };
}

/** The signing was finished before (by the settlement job, or by the request's late step 3): its outcome as it stands. */
async function finishedAlready(trx: Db, by: Finisher, f: Finish, docLabel: string): Promise<SignOutcome> {
  const s = await trx.selectFrom('income_signings').select(['state', 'archive_no', 'fail_reason']).where('id', '=', f.signingId).executeTakeFirstOrThrow();
  if (s.state === 'failed') {
    // The archive side answered a filing after the signing was judged not received: keep the voucher id in the history.
    if (f.voucherId && !f.failure) await addSignEvent(trx, f.id, 'sign-failed', `签收已判定中断（${docLabel}），档案系统随后返回凭证号 ${f.voucherId}，请与财务核对后重新签收`, by.name);
    return { invoiceId: f.id, signState: S.failed, archiveNo: '', message: `签收失败：${s.fail_reason}` };
  }
  if (s.state === 'signed') return { invoiceId: f.id, signState: S.signed, archiveNo: s.archive_no, message: `签收成功，档案号 ${s.archive_no}` };
  return { invoiceId: f.id, signState: S.unsigned, archiveNo: '', message: '该签收已被撤销，请刷新' };
}

/**
 * revoke/add: withdraws the invoice's signing; its archive number stays with the revoked record, never
 * reused. Three steps, as signing (issue 27, every outbound exchange settled after a crash):
 *
 * 1. one transaction: the signing is marked as being withdrawn (`revoke_started_at`, with the reason and the
 *    user; guarded on it being `signed` and not already marked, and on the invoice still 已签收, not booked,
 *    not ticked). The invoice stays 已签收 while the archive side is asked; a second revocation is refused;
 * 2. the archive side withdraws the filing (outside any transaction, one sync log row);
 * 3. one transaction (`finishRevoke`): the signing revoked, the invoice back to 未签收 without an archive
 *    number, the lock released, the revocation recorded — guarded on the mark set in step 1, so this step
 *    and the settlement job never both record it.
 *
 * The archive side refusing: the mark is taken off (`restoreSigned`) and its reason answered. No answer (timed
 * out, unreachable): the mark stays and the settlement job (settle.ts) asks the archive side by the signing
 * id whether the filing is still there once the mark is older than the grace period.
 */
export async function revokeSigning(app: FastifyInstance, req: FastifyRequest, b: RevokeBody, gateway: ArchiveGateway): Promise<{ archiveNo: string }> {
  const user = currentUser(req);
  const db = app.db.kysely;
  const inv = await db.selectFrom('income_invoices').select(['id', 'ident', 'sign_state', 'booking_state', 'usage', 'digital_no', 'invoice_no', 'tick_state']).where('id', '=', b.invoiceId).executeTakeFirst();
  if (!inv) throw notFound('发票不存在');
  if (inv.sign_state !== S.signed) throw refuse('该发票未签收，无需撤销');
  const s = await db.selectFrom('income_signings').selectAll().where('invoice_id', '=', inv.id).where('state', '=', 'signed').orderBy('created_at', 'desc').executeTakeFirst();
  if (!s) throw refuse('该发票未签收，无需撤销');
  // A contract's use is final (and, since 入账标识, it is booked 02 too): the more specific reason first.
  if (inv.usage === IncomeUsage.closed) throw refuse(`该发票已随${IncomeSignDocType.label(s.doc_type)} ${s.doc_no} 归档完成使用，不能撤销签收`);
  if (BOOKED.includes(inv.booking_state)) throw refuse('该发票已入账，不能撤销签收');
  if (Number(inv.tick_state ?? 0) === 1) throw refuse('该发票已勾选，不能撤销签收');
  if (s.revoke_started_at) throw conflict(REVOKING);
  const w: Withdrawal = { signingId: s.id, invoiceId: inv.id, number: numberOf(inv), archiveNo: s.archive_no, docNo: s.doc_no, startedAt: nowIso(), reason: b.reason, userId: user.id, userName: user.name };
  // Step 1: the mark, before the archive side is asked.
  await db.transaction().execute(async (trx) => {
    const u = await trx
      .updateTable('income_invoices')
      .set({ updated_at: w.startedAt })
      .where('id', '=', inv.id)
      .where('sign_state', '=', S.signed)
      .where('archive_no', '=', s.archive_no)
      .where('booking_state', 'not in', BOOKED)
      .where('tick_state', '=', 0)
      .executeTakeFirst();
    if (Number(u.numUpdatedRows) === 0) throw conflict('该发票的签收、入账或勾选状态已变化，请刷新后重试');
    const m = await trx
      .updateTable('income_signings')
      .set({ revoke_started_at: w.startedAt, revoke_reason: w.reason, revoke_user_id: w.userId, revoke_user_name: w.userName })
      .where('id', '=', s.id)
      .where('state', '=', 'signed')
      .where('revoke_started_at', 'is', null)
      .executeTakeFirst();
    if (Number(m.numUpdatedRows) === 0) throw conflict(REVOKING);
  });
  // Step 2.
  try {
    await gateway.revoke({ invoiceKey: inv.ident, voucherId: s.voucher_id, archiveNo: s.archive_no, reason: b.reason }, { userId: user.id });
  } catch (e) {
    if (e instanceof ArchiveError && e.serviceCode === 'TRANSPORT') {
      // No answer: the filing may be withdrawn already. The mark stays; the settlement job asks (settle.ts).
      const settled = await db.selectFrom('income_signings').select(['state', 'revoke_started_at']).where('id', '=', s.id).executeTakeFirstOrThrow();
      if (settled.state === 'revoked') return { archiveNo: s.archive_no };
      if (settled.revoke_started_at !== w.startedAt) throw conflict(RESTORED);
      throw refuse(`撤销结果待核实：${e.message}；系统将自动向档案系统核实，请稍后刷新`);
    }
    // Refused: nothing was withdrawn, the signing is as it was.
    await db.transaction().execute((trx) => restoreSigned(trx, requestFinisher(req), w));
    throw e;
  }
  // Step 3.
  const { already } = await finishRevoke(db, requestFinisher(req), w);
  if (already) {
    const now = await db.selectFrom('income_signings').select('state').where('id', '=', s.id).executeTakeFirstOrThrow();
    if (now.state !== 'revoked') throw conflict(RESTORED);
  }
  return { archiveNo: s.archive_no };
}

export const REVOKING = '该签收正在撤销中，请稍后刷新';
/** The settlement job found the filing still at the archive side and took the mark off before this request finished. */
export const RESTORED = '撤销未完成：档案系统仍保留该归档，已恢复为已签收，请刷新后重新撤销';

/** A withdrawal as marked in step 1 of revokeSigning (the mark's time is its identity for the guards). */
export interface Withdrawal {
  signingId: string;
  invoiceId: string;
  number: string;
  archiveNo: string;
  docNo: string;
  startedAt: string;
  reason: string;
  userId: string | null;
  userName: string;
  /** Recorded by the settlement job after the withdrawal was left unfinished (撤销中断). */
  settled?: boolean;
}

/**
 * Step 3 of a revocation, in one transaction: guarded on the signing still `signed` with the same mark, so
 * the request's own step 3 and the settlement job record it once; `already` when it had been recorded (or
 * undone) before. The revocation record keeps the user who asked for it.
 */
export const finishRevoke = (db: Db, by: Finisher, w: Withdrawal): Promise<{ already: boolean }> =>
  db.transaction().execute(async (trx) => {
    const now = nowIso();
    const how = w.settled ? '（撤销中断，系统向档案系统核对后完成）' : '';
    const claimed = await trx.updateTable('income_signings').set({ state: 'revoked' }).where('id', '=', w.signingId).where('state', '=', 'signed').where('revoke_started_at', '=', w.startedAt).executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) return { already: true };
    const u = await trx
      .updateTable('income_invoices')
      .set({ sign_state: S.unsigned, archive_no: '', updated_at: now })
      .where('id', '=', w.invoiceId)
      .where('sign_state', '=', S.signed)
      .where('archive_no', '=', w.archiveNo)
      .executeTakeFirst();
    if (Number(u.numUpdatedRows) === 0) throw conflict('该发票的签收状态已变化，请刷新后重试');
    await release(w.invoiceId, { kind: 'sign', docNo: w.docNo }, trx, by.name);
    await trx.insertInto('income_sign_revokes').values({ id: newId(), signing_id: w.signingId, invoice_id: w.invoiceId, archive_no: w.archiveNo, reason: w.reason, user_id: w.userId, user_name: w.userName, created_at: now }).execute();
    await addSignEvent(trx, w.invoiceId, 'revoke', `撤销签收，档案号 ${w.archiveNo} 作废（原因：${w.reason}）${how}`, by.name);
    await by.log(trx, `撤销发票签收：发票 ${w.number}，档案号 ${w.archiveNo}，原因：${w.reason}${how}`);
    return { already: false };
  });

/**
 * The withdrawal did not happen (the archive side refused it, or still holds the filing when the settlement
 * job asks): the mark is taken off, the signing 已签收 as it was and may be revoked again. Guarded on the
 * same mark; `true` when it changed something. The job's restoration is written to the history.
 */
export async function restoreSigned(trx: Db, by: Finisher, w: Withdrawal): Promise<boolean> {
  const u = await trx
    .updateTable('income_signings')
    .set({ revoke_started_at: null, revoke_reason: '', revoke_user_id: null, revoke_user_name: '' })
    .where('id', '=', w.signingId)
    .where('state', '=', 'signed')
    .where('revoke_started_at', '=', w.startedAt)
    .executeTakeFirst();
  if (Number(u.numUpdatedRows) === 0) return false;
  if (w.settled) {
    const what = `撤销签收未完成：档案系统仍保留档案号 ${w.archiveNo} 的归档，已恢复为已签收（${w.userName}的撤销中断，系统向档案系统核对后恢复；原因：${w.reason}）`;
    await addSignEvent(trx, w.invoiceId, 'revoke', what, by.name);
    await by.log(trx, `撤销发票签收未完成，恢复已签收：发票 ${w.number}，档案号 ${w.archiveNo}`);
  }
  return true;
}
