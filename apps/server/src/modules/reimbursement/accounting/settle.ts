/**
 * Settling pushes cut short (推送中断): a process that dies between claiming a bill (0 / 2 → -1 报销中, with
 * a lease in push_claimed_until) and recording the answer leaves the bill 报销中 for ever — out of 一键报销's
 * list and badge (0 and 2 only), 保存并推送 disabled. Every minute the server holding the
 * 'reimbursement-push' lease (platform/leases.ts) takes the bills 报销中 whose push lease has run out
 * (PUSH_LEASE_MS, far above one accounting call's timeout, so a push still waiting for its answer is left
 * alone), oldest first, renews the bill's own lease by the same guarded UPDATE a repeated push uses (so a
 * push by hand and this job never settle one bill twice), and asks the accounting side by the voucher id —
 * the bill number, the push's idempotency key (AccountingGateway.voucherState, one sync log row):
 *
 * - posted → recorded as a success (service.ts `succeed`: voucher number, period and date the side holds,
 *   invoices closed and booked 02, the applicant told), by 系统;
 * - not found → 2 报销失败 with 推送中断：会计系统未收到凭证，请重新推送 (`fail`): the bill is back in 一键报销
 *   and may be pushed again — the same bill number, so still one voucher;
 * - the exchange failed → left 报销中 for the next round (once the renewed lease has run out).
 *
 * The same round settles 红字冲销 cut short (issue 32 item 3, reverse.ts): bills still 1 已报销 whose
 * reversal lease (reverse_claimed_until) has run out, with their record in 0 冲销中. The job renews the lease
 * by the same guarded UPDATE a reversal by hand uses and asks the side by the reversal's id: posted →
 * recorded as done (bill 0, invoices released, 06) by 系统; not found → the record 2 被拒绝 with
 * 冲销中断：会计系统未收到冲销凭证，可重新冲销, the bill stays 已报销; the exchange failed → the next round.
 */
import { OperationLogType, ReimbRevocationState, ReimbState, SYSTEM_ACTOR_NAME } from '@zhyy/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/index.js';
import { LeasedJob } from '../../../platform/leases.js';
import { SYSTEM_OPERATOR, type OperationLogService } from '../../../platform/oplog.js';
import { shanghaiDay } from '../../../platform/listing.js';
import { isoAfter } from '../../../platform/time.js';
import { fail, PUSH_LEASE_MS, succeed, type AccountingDeps, type Actor } from './service.js';
import { exchange as reversalExchange, REVERSE_LEASE_MS } from './reverse.js';
import { planVoucher, voucherIdOf } from './voucher.js';

export const PUSH_SETTLE_LEASE = 'reimbursement-push';
export const PUSH_SETTLE_TTL_MS = 120_000;
export const PUSH_SETTLE_INTERVAL_MS = 60_000;
/** Bills settled per round at most (the rest the next round). */
export const PUSH_SETTLE_BATCH = 100;
export const PUSH_INTERRUPTED = '推送中断：会计系统未收到凭证，请重新推送';

export interface PushSettleOptions {
  intervalMs?: number;
  /** The clock the leases are compared with (tests move it forward). */
  now?: () => Date;
  holder?: string;
}

export interface PushSettleSummary {
  pushed: number;
  failed: number;
  /** Left for the next round: the accounting side could not be asked. */
  unknown: number;
}

const SYSTEM: Actor = { id: null, name: SYSTEM_ACTOR_NAME };

export class PushSettleJob extends LeasedJob {
  private readonly now: () => Date;

  constructor(
    private readonly deps: { db: Db; log: FastifyBaseLogger; oplog: OperationLogService; accounting: () => AccountingDeps },
    opts: PushSettleOptions = {},
  ) {
    super({
      db: deps.db, log: deps.log, name: PUSH_SETTLE_LEASE, intervalMs: opts.intervalMs ?? PUSH_SETTLE_INTERVAL_MS, ttlMs: PUSH_SETTLE_TTL_MS,
      round: async (lease) => {
        await this.settleDue(() => lease.check());
        await this.settleReversals(() => lease.check());
      },
      ...(opts.holder ? { holder: opts.holder } : {}),
    });
    this.now = opts.now ?? (() => new Date());
  }

  /** One pass over the bills 报销中 past their push lease; `stillOurs` (the lease check) before each question. */
  async settleDue(stillOurs: () => Promise<void> = async () => undefined): Promise<PushSettleSummary> {
    const db = this.deps.db.kysely;
    const at = this.now();
    const now = at.toISOString();
    const due = await db
      .selectFrom('reimb_bills')
      .select(['id', 'bill_no'])
      .where('reimb_state', '=', ReimbState.applying)
      .where((eb) => eb.or([eb('push_claimed_until', 'is', null), eb('push_claimed_until', '<', now)]))
      .orderBy('push_claimed_until')
      .orderBy('id')
      .limit(PUSH_SETTLE_BATCH)
      .execute();
    const sum: PushSettleSummary = { pushed: 0, failed: 0, unknown: 0 };
    if (!due.length) return sum;
    const deps = this.deps.accounting();
    for (const d of due) {
      await stillOurs();
      // Take the bill's own lease as a repeated push would: a push by hand now finds it 报销中 and waits.
      const took = await db
        .updateTable('reimb_bills')
        .set({ push_claimed_until: isoAfter(PUSH_LEASE_MS, at), updated_at: now })
        .where('id', '=', d.id)
        .where('reimb_state', '=', ReimbState.applying)
        .where((eb) => eb.or([eb('push_claimed_until', 'is', null), eb('push_claimed_until', '<', now)]))
        .executeTakeFirst();
      if (Number(took.numUpdatedRows) === 0) continue;
      const b = await db.selectFrom('reimb_bills').selectAll().where('id', '=', d.id).executeTakeFirstOrThrow();
      try {
        const gateway = await deps.accounting();
        const voucherId = await voucherIdOf(db, b);
        const v = await gateway.voucherState(voucherId, { userId: null, refs: [b.bill_no] });
        if (v.status === 'posted') {
          const date = v.date || (await planVoucher(db, b, SYSTEM.name)).voucher?.date || shanghaiDay(now);
          const r = await succeed(deps, b, { id: voucherId, voucherNo: v.voucherNo, period: v.period }, date, SYSTEM);
          await this.deps.oplog.write({ type: OperationLogType.edit, description: `报销入账中断已处理：报销单 ${b.bill_no} 的凭证 ${v.voucherNo} 已在会计系统，记为已报销`, actor: SYSTEM_OPERATOR });
          this.deps.log.info({ billNo: b.bill_no, voucherNo: v.voucherNo, ok: r.ok }, 'interrupted reimbursement push settled: posted');
          sum.pushed++;
        } else {
          await fail(deps, b, PUSH_INTERRUPTED, SYSTEM);
          await this.deps.oplog.write({ type: OperationLogType.edit, description: `报销入账中断已处理：会计系统未收到报销单 ${b.bill_no} 的凭证，记为报销失败，可重新推送`, actor: SYSTEM_OPERATOR });
          this.deps.log.info({ billNo: b.bill_no }, 'interrupted reimbursement push settled: not received');
          sum.failed++;
        }
      } catch (err) {
        this.deps.log.warn({ err, billNo: b.bill_no }, 'could not ask the accounting side about an interrupted push; the next round asks again');
        sum.unknown++;
      }
    }
    return sum;
  }

  /** One pass over the 红字冲销 past their lease (bills 1 已报销 with reverse_claimed_until run out). */
  async settleReversals(stillOurs: () => Promise<void> = async () => undefined): Promise<ReversalSettleSummary> {
    const db = this.deps.db.kysely;
    const at = this.now();
    const now = at.toISOString();
    const due = await db
      .selectFrom('reimb_bills')
      .select(['id'])
      .where('reimb_state', '=', ReimbState.success)
      .where('reverse_claimed_until', 'is not', null)
      .where('reverse_claimed_until', '<', now)
      .orderBy('reverse_claimed_until')
      .orderBy('id')
      .limit(PUSH_SETTLE_BATCH)
      .execute();
    const sum: ReversalSettleSummary = { reversed: 0, interrupted: 0, unknown: 0 };
    if (!due.length) return sum;
    const deps = this.deps.accounting();
    for (const d of due) {
      await stillOurs();
      const took = await db
        .updateTable('reimb_bills')
        .set({ reverse_claimed_until: isoAfter(REVERSE_LEASE_MS, at), updated_at: now })
        .where('id', '=', d.id)
        .where('reimb_state', '=', ReimbState.success)
        .where('reverse_claimed_until', '<', now)
        .executeTakeFirst();
      if (Number(took.numUpdatedRows) === 0) continue;
      const b = await db.selectFrom('reimb_bills').selectAll().where('id', '=', d.id).executeTakeFirstOrThrow();
      const pending = await db.selectFrom('reimb_revocations').select(['id', 'reason']).where('bill_id', '=', b.id).where('state', '=', ReimbRevocationState.pending).executeTakeFirst();
      if (!pending) {
        await db.updateTable('reimb_bills').set({ reverse_claimed_until: null }).where('id', '=', b.id).execute();
        continue;
      }
      try {
        const a = await reversalExchange(deps, b, pending, SYSTEM, 'ask');
        await this.deps.oplog.write({ type: OperationLogType.edit, description: `红字冲销中断已处理：报销单 ${b.bill_no} 的冲销凭证 ${a.reversalVoucherNo} 已在会计系统，记为已撤销`, actor: SYSTEM_OPERATOR });
        sum.reversed++;
      } catch (err) {
        const stays = await db.selectFrom('reimb_revocations').select('state').where('id', '=', pending.id).executeTakeFirstOrThrow();
        if (stays.state === ReimbRevocationState.refused) {
          await this.deps.oplog.write({ type: OperationLogType.edit, description: `红字冲销中断已处理：会计系统未收到报销单 ${b.bill_no} 的冲销凭证，报销单仍为已报销，可重新冲销`, actor: SYSTEM_OPERATOR });
          sum.interrupted++;
        } else {
          this.deps.log.warn({ err, billNo: b.bill_no }, 'could not ask the accounting side about an interrupted reversal; the next round asks again');
          sum.unknown++;
        }
      }
    }
    return sum;
  }
}

export interface ReversalSettleSummary {
  reversed: number;
  /** The side never got it: recorded 被拒绝 (冲销中断), the bill still 已报销. */
  interrupted: number;
  unknown: number;
}
