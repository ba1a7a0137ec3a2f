/**
 * The accounting side's simulator (the default): checks the voucher (借贷平衡), posts it under our id
 * with a number per month (记-0001, 记-0002 … by the voucher's period), and answers a repeat of the same
 * id with the number it already gave. It keeps its vouchers in its own tables (0030_accountingsim), so
 * a restart keeps them. Failure is testable: a summary containing 测试失败 is refused, and `failNext(n)`
 * makes the next n pushes fail as if the system could not be reached (tests).
 *
 * Like Newgrand i8 it also closes accounting periods (月末结账): by the demo rule a month is closed once the
 * month after it has ended (on 2026-11-23 the periods 202611 and 202610 are open, 202609 and earlier
 * closed); `accountingSimControl.closePeriod / openPeriod` override the rule (tests). No voucher is made or
 * deleted in a closed period. An accountant may delete a voucher (`deleteVoucher`, the revoke page's
 * 模拟会计系统操作 in simulator mode): the id is then unknown again (voucherState answers notFound).
 *
 * 红字冲销 (issue 32 item 3, `reverseVoucher`): as 用友/金蝶's 冲销凭证, the simulator makes the red voucher
 * from the original it holds — the same subjects and 借/贷 sides with the amounts negative, the summary
 * naming the original (冲销 2026年09月 记-0003 号凭证) and `reverses` referring to it — under the reversal's own
 * id, numbered in the reversal's period. A closed original period does not matter (nothing is changed in
 * it); a closed reversal period is refused. An original is reversed once (the partial unique index on
 * `reverses`, 0047); a reversed voucher, or a reversing one, is not reversed again nor deleted.
 */
import { sql, type Kysely } from 'kysely';
import type { Db } from '../../db/index.js';
import { AccountingError, periodText, voucherProblem, type AccountingGateway, type PeriodState, type ReversalAnswer, type Voucher, type VoucherAnswer, type VoucherEntry, type VoucherLookup, type VoucherReversal } from './types.js';

export const ACCOUNTING_FAIL_TRIGGER = '测试失败';
export const ACCOUNTING_SIM_REFUSAL = '会计系统拒绝凭证：科目未启用（模拟失败）';
export const ACCOUNTING_SIM_DOWN = '无法连接会计系统，请稍后重试';

type SimTables = {
  accountingsim_vouchers: { id: string; period: string; voucher_no: string; body: string; posted_at: string; reverses: string };
  accountingsim_counters: { period: string; seq: number };
};

const pause = (ms: number) => (ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve());
export const formatVoucherNo = (seq: number) => `记-${String(seq).padStart(4, '0')}`;

/** Shared by every simulator instance of the process (tests reach it through `accountingSimControl`). */
const control = { failures: 0, periods: new Map<string, boolean>() };
export const accountingSimControl = {
  /** The next `n` pushes fail (transport failure). */
  failNext(n: number) {
    control.failures = n;
  },
  /** 结账: the period (YYYYMM) is closed whatever the demo rule says. */
  closePeriod(period: string) {
    control.periods.set(period, true);
  },
  /** 反结账: the period is open whatever the demo rule says. */
  openPeriod(period: string) {
    control.periods.set(period, false);
  },
  reset() {
    control.failures = 0;
    control.periods.clear();
  },
};

/** YYYYMM of the month `back` months before `now`'s month (Asia/Shanghai). */
function monthBefore(now: Date, back: number): string {
  const d = new Date(now.getTime() + 8 * 3_600_000);
  const m = d.getUTCFullYear() * 12 + d.getUTCMonth() - back;
  return `${Math.floor(m / 12)}${String((m % 12) + 1).padStart(2, '0')}`;
}

/** The demo rule: a period is closed once the month after it has ended (the current and the previous month are open). */
export function simPeriodClosed(period: string, now: Date = new Date()): boolean {
  const set = control.periods.get(period);
  if (set !== undefined) return set;
  return period < monthBefore(now, 1);
}
export const periodClosedMessage = (period: string, what: string) => `会计期间 ${periodText(period)} 已结账，${what}`;

/** The body the simulator keeps for a red reversing voucher: the entries' amounts are negative. */
export interface SimReversalBody extends Omit<VoucherReversal, 'reverses'> {
  reverses: { id: string; voucherNo: string; period: string };
  entries: VoucherEntry[];
}

export class AccountingSimulator implements Pick<AccountingGateway, 'pushVoucher' | 'voucherState' | 'periodState' | 'reverseVoucher'> {
  private readonly sdb: Kysely<SimTables>;

  constructor(
    db: Db,
    private readonly delayMs = 0,
  ) {
    this.sdb = db.kysely.withTables<SimTables>() as unknown as Kysely<SimTables>;
  }

  private find(id: string) {
    return this.sdb.selectFrom('accountingsim_vouchers').select(['voucher_no', 'period', 'body', 'reverses']).where('id', '=', id).executeTakeFirst();
  }

  private reversalOf(id: string) {
    return this.sdb.selectFrom('accountingsim_vouchers').select(['id', 'voucher_no', 'period']).where('reverses', '=', id).executeTakeFirst();
  }

  private transport() {
    if (control.failures > 0) {
      control.failures--;
      throw new AccountingError(ACCOUNTING_SIM_DOWN, 'TRANSPORT', undefined, 502);
    }
  }

  /** Numbers and keeps a voucher under `id` in `period`; a concurrent post of the same id gets the one kept. */
  private async post(id: string, period: string, body: string, reverses = ''): Promise<{ voucher_no: string; period: string }> {
    try {
      await this.sdb.transaction().execute(async (trx) => {
        const r = await sql<{ seq: number | string }>`
          insert into accountingsim_counters (period, seq) values (${period}, 1)
          on conflict (period) do update set seq = accountingsim_counters.seq + 1
          returning seq`.execute(trx);
        const no = formatVoucherNo(Number(r.rows[0]!.seq));
        const ins = await trx
          .insertInto('accountingsim_vouchers')
          .values({ id, period, voucher_no: no, body, posted_at: new Date().toISOString(), reverses })
          .onConflict((oc) => oc.column('id').doNothing())
          .executeTakeFirst();
        // A concurrent push of the same id won: give the number back (roll the counter back).
        if (Number(ins.numInsertedOrUpdatedRows ?? 0) === 0) throw new Error('lost');
      });
    } catch (err) {
      if (!(err instanceof Error) || err.message !== 'lost') {
        // PostgreSQL reports the race on the primary key as a unique violation instead; a second reversal
        // of the same original (another id) hits the unique index on `reverses`.
        if (!(await this.find(id))) {
          const other = reverses ? await this.reversalOf(reverses) : undefined;
          if (other) throw new AccountingError(`会计系统拒绝冲销：原凭证已被冲销（冲销凭证 ${other.voucher_no}）`, 'ALREADY_REVERSED');
          throw err;
        }
      }
    }
    return (await this.find(id))!;
  }

  async pushVoucher(v: Voucher): Promise<VoucherAnswer> {
    await pause(this.delayMs);
    this.transport();
    const had = await this.find(v.id);
    if (had) return { id: v.id, voucherNo: had.voucher_no, period: had.period };
    const problem = voucherProblem(v);
    if (problem) throw new AccountingError(`会计系统拒绝凭证：${problem}`, 'UNBALANCED');
    if (v.summary.includes(ACCOUNTING_FAIL_TRIGGER)) throw new AccountingError(ACCOUNTING_SIM_REFUSAL, 'REFUSED');
    if (simPeriodClosed(v.period)) throw new AccountingError(`会计系统拒绝凭证：${periodClosedMessage(v.period, '不能制单')}`, 'PERIOD_CLOSED');
    const row = await this.post(v.id, v.period, JSON.stringify(v));
    return { id: v.id, voucherNo: row.voucher_no, period: row.period };
  }

  /** 红字冲销: the red voucher of the original `r.reverses`, booked in `r.period`; the same `r.id` again answers the one made. */
  async reverseVoucher(r: VoucherReversal): Promise<ReversalAnswer> {
    await pause(this.delayMs);
    this.transport();
    const answer = (row: { voucher_no: string; period: string }, o: { voucher_no: string; period: string }): ReversalAnswer => ({ id: r.id, voucherNo: row.voucher_no, period: row.period, reversed: { voucherNo: o.voucher_no, period: o.period } });
    const had = await this.find(r.id);
    if (had) {
      const body = JSON.parse(had.body) as Partial<SimReversalBody>;
      return answer(had, { voucher_no: body.reverses?.voucherNo ?? '', period: body.reverses?.period ?? '' });
    }
    const o = await this.find(r.reverses);
    if (!o) throw new AccountingError('会计系统拒绝冲销：会计系统中没有原凭证（可能已被删除）', 'NOT_FOUND');
    if (o.reverses) throw new AccountingError(`会计系统拒绝冲销：凭证 ${o.voucher_no} 本身是冲销凭证`, 'REFUSED');
    const other = await this.reversalOf(r.reverses);
    // The same reversal made a moment ago by a concurrent call: answer it.
    if (other?.id === r.id) return answer(other, o);
    if (other) throw new AccountingError(`会计系统拒绝冲销：原凭证 ${o.voucher_no} 已被冲销（冲销凭证 ${other.period} ${other.voucher_no}）`, 'ALREADY_REVERSED');
    if (simPeriodClosed(r.period)) throw new AccountingError(`会计系统拒绝冲销：${periodClosedMessage(r.period, '不能制单')}`, 'PERIOD_CLOSED');
    const original = JSON.parse(o.body) as Voucher;
    const body: SimReversalBody = { ...r, reverses: { id: r.reverses, voucherNo: o.voucher_no, period: o.period }, entries: original.entries.map((e) => ({ ...e, amount: -e.amount })) };
    const row = await this.post(r.id, r.period, JSON.stringify(body), r.reverses);
    return answer(row, o);
  }

  async voucherState(id: string): Promise<VoucherLookup> {
    await pause(this.delayMs);
    const r = await this.find(id);
    if (!r) return { status: 'notFound' };
    const date = (JSON.parse(r.body) as Partial<Voucher>).date;
    return { status: 'posted', voucherNo: r.voucher_no, period: r.period, ...(date ? { date } : {}) };
  }

  async periodState(period: string): Promise<PeriodState> {
    await pause(this.delayMs);
    return { period, closed: simPeriodClosed(period) };
  }

  /** The accountant deletes the voucher (not in a closed period); the number is not given again. */
  async deleteVoucher(id: string): Promise<{ deleted: boolean; voucherNo: string; period: string }> {
    const r = await this.find(id);
    if (!r) return { deleted: false, voucherNo: '', period: '' };
    if (simPeriodClosed(r.period)) throw new AccountingError(periodClosedMessage(r.period, `不能删除凭证 ${r.voucher_no}`), 'PERIOD_CLOSED');
    const red = await this.reversalOf(id);
    if (red) throw new AccountingError(`凭证 ${r.voucher_no} 已被冲销（冲销凭证 ${red.period} ${red.voucher_no}），不能删除`, 'ALREADY_REVERSED');
    const d = await this.sdb.deleteFrom('accountingsim_vouchers').where('id', '=', id).executeTakeFirst();
    return { deleted: Number(d.numDeletedRows) > 0, voucherNo: r.voucher_no, period: r.period };
  }
}
