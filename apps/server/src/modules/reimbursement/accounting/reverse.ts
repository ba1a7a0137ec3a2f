/**
 * 红字冲销 (issue 32 item 3): revoking a pushed bill by a red reversing voucher instead of asking the
 * accountant to delete the original. Accountants keep documents and correct a posted voucher by a red one
 * (会计基础工作规范 on correcting vouchers; 用友/金蝶 冲销凭证 — docs/reimbursement.md "Revoking by a reversing
 * voucher"): the accounting side books, in the current open period, a voucher with the original's subjects
 * and negative amounts that refers to the original, which stays. So it works when the original's period is
 * closed.
 *
 * The exchange is leased like a push: the bill stays 1 已报销 and is claimed by one conditional UPDATE of
 * `reverse_claimed_until`, with a revocation record in state 0 冲销中 (reason, who) in the same transaction;
 * a second request while the claim holds is refused (报销单正在红字冲销中). The reversing voucher's id is the
 * original's id + `-R` (an original is reversed once), so a retried or taken-over reversal answers the same
 * voucher: never two. The answer is recorded in one transaction guarded by the bill still being 1: the bill
 * back to 0 未报销 (voucher fields cleared), its invoices' usage locks released to locked for the bill and
 * booking 06 queued (then sent), the record 1 已撤销 with the reversing voucher, a history row (action
 * 'reverse') beside the push's — both vouchers in the bill's accounting history. A refusal clears the claim
 * and records state 2. An exchange that failed in transport is followed by asking the side by the reversal's
 * id; when that fails too, the claim is left to run out and the settling job (settle.ts) asks again.
 */
import { ReimbRevocationState, ReimbState, type ReimbRevokeAnswer } from '@zhyy/shared';
import { AccountingError, periodText, type ReversalAnswer, type VoucherReversal } from '../../../integrations/accounting/index.js';
import { notFound, refuse } from '../../../platform/envelope.js';
import { newId } from '../../../platform/ids.js';
import { shanghaiDay } from '../../../platform/listing.js';
import { isoAfter, nowIso } from '../../../platform/time.js';
import { notifyUser } from '../../messages/service.js';
import type { ReimbBillTable } from '../tables.js';
import { billLink, invoiceIdsOf, pushRow, ReimbRefusals, releaseInvoices, sendUnbooking, stateLabel, type AccountingDeps, type Actor } from './service.js';

/** How long a reversal holds its claim (as a push's: far above one accounting call's timeout). */
export const REVERSE_LEASE_MS = 120_000;
export const REVERSE_INTERRUPTED = '冲销中断：会计系统未收到冲销凭证，可重新冲销';

export const ReversalRefusals = {
  inProgress: (no: string) => `报销单 ${no} 正在红字冲销中，请稍后刷新查看结果`,
  unknown: (message: string) => `会计系统暂未确认冲销结果（${message}），系统将自动核对，请稍后刷新查看`,
} as const;

type Bill = ReimbBillTable;
type Pending = { id: string; reason: string };

/** Our id of the original voucher and of its reversing voucher. */
export const originalIdOf = (b: Pick<Bill, 'voucher_id' | 'bill_no'>) => b.voucher_id || b.bill_no;
export const reversalIdOf = (b: Pick<Bill, 'voucher_id' | 'bill_no'>) => `${originalIdOf(b)}-R`;

/** The reversal request: dated today in the current period, the summary naming the voucher it cancels (注销 … 号凭证). */
export function reversalRequest(b: Bill, maker: string, reason: string, at: Date = new Date()): VoucherReversal {
  const date = shanghaiDay(at);
  return {
    id: reversalIdOf(b), reverses: originalIdOf(b), date, period: date.slice(0, 7).replace('-', ''),
    summary: `注销 ${b.voucher_date || periodText(b.voucher_period)} ${b.voucher_no} 号凭证（红字冲销报销单 ${b.bill_no}）：${reason}`.slice(0, 240),
    maker, sourceType: 'reimbursement', sourceNo: b.bill_no,
  };
}

/** Revokes a pushed bill by a red reversing voucher; refusals are recorded (state 2) and thrown. */
export async function reverseBill(deps: AccountingDeps, billId: string, reason: string, by: Actor): Promise<ReimbRevokeAnswer> {
  const { db } = deps;
  const b = await db.selectFrom('reimb_bills').selectAll().where('id', '=', billId).executeTakeFirst();
  if (!b) throw notFound(ReimbRefusals.notFound);
  if (b.reimb_state !== ReimbState.success) throw refuse(ReimbRefusals.notRevocable(stateLabel(b.reimb_state)), 409);
  const now = nowIso();
  const pending = await db.transaction().execute(async (trx): Promise<Pending | null> => {
    const u = await trx
      .updateTable('reimb_bills')
      .set({ reverse_claimed_until: isoAfter(REVERSE_LEASE_MS), updated_at: now })
      .where('id', '=', b.id)
      .where('reimb_state', '=', ReimbState.success)
      .where((eb) => eb.or([eb('reverse_claimed_until', 'is', null), eb('reverse_claimed_until', '<', now)]))
      .executeTakeFirst();
    if (Number(u.numUpdatedRows) === 0) return null;
    // A reversal cut short and taken over keeps its record (reason, who asked).
    const had = await trx.selectFrom('reimb_revocations').select(['id', 'reason']).where('bill_id', '=', b.id).where('state', '=', ReimbRevocationState.pending).executeTakeFirst();
    if (had) return had;
    const id = newId();
    await trx
      .insertInto('reimb_revocations')
      .values({ id, bill_id: b.id, bill_no: b.bill_no, voucher_no: b.voucher_no, voucher_period: b.voucher_period, reason, state: ReimbRevocationState.pending, message: '红字冲销中：等待会计系统应答', requested_by: by.id, requested_by_name: by.name, created_at: now, method: 'reverse', reversal_voucher_no: '', reversal_period: '' })
      .execute();
    return { id, reason };
  });
  if (!pending) {
    const cur = await db.selectFrom('reimb_bills').select(['reimb_state']).where('id', '=', b.id).executeTakeFirstOrThrow();
    if (cur.reimb_state !== ReimbState.success) throw refuse(ReimbRefusals.notRevocable(stateLabel(cur.reimb_state)), 409);
    throw refuse(ReversalRefusals.inProgress(b.bill_no), 409);
  }
  return exchange(deps, b, pending, by, 'send');
}

/**
 * One exchange for a claimed reversal: `send` books it (idempotent by the reversal's id), `ask` only asks
 * whether it arrived (the settling job). Answers the revocation, or throws the recorded refusal.
 */
export async function exchange(deps: AccountingDeps, b: Bill, pending: Pending, by: Actor, mode: 'send' | 'ask'): Promise<ReimbRevokeAnswer> {
  const req = reversalRequest(b, by.name, pending.reason);
  const ctx = { userId: by.id, refs: [b.bill_no] };
  const gateway = await deps.accounting();
  const asked = async (): Promise<ReversalAnswer | null> => {
    const v = await gateway.voucherState(req.id, ctx);
    return v.status === 'posted' ? { id: req.id, voucherNo: v.voucherNo, period: v.period, reversed: { voucherNo: b.voucher_no, period: b.voucher_period } } : null;
  };
  let answer: ReversalAnswer | null;
  if (mode === 'ask') {
    answer = await asked();
    if (!answer) throw await refused(deps, b, pending, REVERSE_INTERRUPTED, by);
  } else {
    try {
      answer = await gateway.reverseVoucher(req, ctx);
    } catch (err) {
      if (!(err instanceof AccountingError)) throw err;
      // A refusal (4xx): recorded. A failed exchange: did it arrive? Unknown → the claim runs out, the job asks.
      if (err.status < 500) throw await refused(deps, b, pending, err.message, by);
      try {
        answer = await asked();
      } catch (again) {
        if (!(again instanceof AccountingError)) throw again;
        throw refuse(ReversalRefusals.unknown(err.message), 409);
      }
      if (!answer) throw await refused(deps, b, pending, err.message, by);
    }
  }
  return complete(deps, b, pending, answer, by);
}

async function refused(deps: AccountingDeps, b: Bill, pending: Pending, message: string, by: Actor) {
  const text = `红字冲销被拒绝：${message}`;
  await deps.db.transaction().execute(async (trx) => {
    await trx.updateTable('reimb_bills').set({ reverse_claimed_until: null, updated_at: nowIso() }).where('id', '=', b.id).where('reimb_state', '=', ReimbState.success).execute();
    const u = await trx.updateTable('reimb_revocations').set({ state: ReimbRevocationState.refused, message: message.slice(0, 1000) }).where('id', '=', pending.id).where('state', '=', ReimbRevocationState.pending).executeTakeFirst();
    if (Number(u.numUpdatedRows) > 0) await pushRow(trx, b.id, 'reverse', false, b.voucher_no, text, by.name);
  });
  return refuse(message, 409);
}

async function complete(deps: AccountingDeps, b: Bill, pending: Pending, a: ReversalAnswer, by: Actor): Promise<ReimbRevokeAnswer> {
  const { db } = deps;
  const original = `${periodText(b.voucher_period)} ${b.voucher_no}`;
  const red = `${periodText(a.period)} ${a.voucherNo}`;
  const answer: ReimbRevokeAnswer = { billNo: b.bill_no, voucherNo: b.voucher_no, method: 'reverse', reversalVoucherNo: a.voucherNo, reversalPeriod: a.period, message: `已红字冲销报销单 ${b.bill_no}：冲销凭证 ${red} 冲销原凭证 ${original}，报销单恢复为未报销` };
  const invoiceIds = await invoiceIdsOf(db, b.id);
  const queued = await db.transaction().execute(async (trx) => {
    const u = await trx
      .updateTable('reimb_bills')
      .set({ reimb_state: ReimbState.unReimburse, voucher_id: '', voucher_no: '', voucher_period: '', voucher_date: '', pushed_at: null, pushed_by: '', push_message: '', push_claimed_until: null, reverse_claimed_until: null, updated_at: nowIso() })
      .where('id', '=', b.id)
      .where('reimb_state', '=', ReimbState.success)
      .executeTakeFirst();
    // Recorded already (the settling job and a retry by hand answered at once): the same voucher, nothing twice.
    if (Number(u.numUpdatedRows) === 0) return false;
    await trx
      .updateTable('reimb_revocations')
      .set({ state: ReimbRevocationState.done, message: `红字冲销凭证 ${red} 冲销原凭证 ${original}，报销单恢复为未报销`, reversal_voucher_no: a.voucherNo, reversal_period: a.period })
      .where('id', '=', pending.id)
      .execute();
    await pushRow(trx, b.id, 'reverse', true, a.voucherNo, `红字冲销凭证 ${red}，冲销原凭证 ${original}：${pending.reason}`, by.name);
    return releaseInvoices(deps, trx, b, invoiceIds, by);
  });
  if (queued === false) return answer;
  await sendUnbooking(deps, b, queued, by);
  await notifyUser(db, b.applicant_id, { title: `报销单 ${b.bill_no} 已红字冲销`, content: `您的报销单 ${b.bill_no}（凭证号 ${original}）已由红字冲销凭证 ${red} 冲销，恢复为未报销，原因：${pending.reason}。`, link: billLink(b.id) }).catch(() => undefined);
  return answer;
}
