/**
 * The status re-check (issue 32 item 2): the bureau's status changes become ready 进项转出.
 *
 * The job (lease 'income-status-recheck', one server at a time, platform/leases.ts) asks the tax service's
 * 发票状态查询 (IncomeStatusGateway, in batches of STATUS_BATCH_MAX) about the pool's invoices issued in the last
 * RECHECK_WINDOW_DAYS days whose last check is older than RECHECK_EVERY_MS (12 hours: twice a day, the market's
 * rule), the longest unchecked first, at most RECHECK_ROUND_MAX a round. Running every ten minutes on whichever
 * server holds the lease, each invoice is asked twice a day however many servers run it. For each answer:
 * - the invoice's 发票状态 and 风险等级 are the bureau's (intake/collect.ts applyTaxState: a history event, and the
 *   cases of the flags that appear raised — raise.ts, one case per invoice and flag, `on conflict do nothing`);
 *   a blue invoice the pool itself marked 部分/全额红冲 from its linked red invoices keeps that while the bureau
 *   still answers 正常 (its records lag the red invoice);
 * - status_checked_at / status_found record the check (the pool's 最近核查 column and detail).
 * Then every open case of a status flag is given its proposal (`proposeFor`): for an invoice ticked for 抵扣
 * without a 进项转出 yet, the amount to transfer out (the effective tax; for a 部分红冲 the part of the effective
 * tax above the net tax left after its red invoices), the reason and the period (the month the change was
 * found, Asia/Shanghai), ready for 确认转出建议 (transfer.ts acceptProposal).
 */
import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { formatFen, IncomeAbnormalFlag, IncomeInvoiceState, IncomeRiskLevel, STATUS_FLAGS, TransferOutReason } from '@zhyy/shared';
import type { Db as PlatformDb } from '../../../db/index.js';
import type { Database } from '../../../db/schema.js';
import type { IncomeStatusGateway, StatusItem, StatusOutcome } from '../../../integrations/tax/income-types.js';
import { STATUS_BATCH_MAX } from '../../../integrations/tax/status-rules.js';
import { AppError, notFound, refuse } from '../../../platform/envelope.js';
import { LeasedJob, type LeaseHandle } from '../../../platform/leases.js';
import { applyTaxState } from '../intake/collect.js';
import { redSumsOf } from '../identity/reversals.js';
import type { IncomeInvoiceTable } from '../pool/tables.js';
import type { IncomeAbnormalCaseTable } from './tables.js';
import './tables.js';

type Db = Kysely<Database>;

export const RECHECK_JOB_LEASE = 'income-status-recheck';
export const RECHECK_WINDOW_DAYS = 180;
/** An invoice is asked again once its last check is this old: twice a day. */
export const RECHECK_EVERY_MS = 12 * 3600_000;
export const RECHECK_INTERVAL_MS = 10 * 60_000;
export const RECHECK_ROUND_MAX = 1000;
const DAY = 86_400_000;
const SHANGHAI_MS = 8 * 3600_000;

const shanghaiDay = (at: Date) => new Date(at.getTime() + SHANGHAI_MS).toISOString().slice(0, 10);
export const shanghaiPeriod = (at: Date) => shanghaiDay(at).slice(0, 7).replace('-', '');
const yuan = (fen: number) => formatFen(fen);

/** The status query's item of a pool invoice (null: its numbers are not the service's — tickets without one, etc.). */
export function statusItemOf(r: Pick<IncomeInvoiceTable, 'invoice_code' | 'invoice_no' | 'digital_no' | 'issue_date'>): StatusItem | null {
  if (/^\d{20}$/.test(r.digital_no)) return { invoiceCode: '', invoiceNo: r.digital_no, issueDate: r.issue_date };
  if (/^\d{8}$/.test(r.invoice_no) && /^(\d{10}|\d{12})$/.test(r.invoice_code)) return { invoiceCode: r.invoice_code, invoiceNo: r.invoice_no, issueDate: r.issue_date };
  return null;
}

/**
 * The invoices due for a check at `now`: issued in the window, blue (a red invoice is itself the reversal),
 * with the service's numbers, never checked or checked RECHECK_EVERY_MS ago; never-checked first, then the oldest check.
 */
export async function dueForRecheck(db: Db, now: Date, limit: number): Promise<IncomeInvoiceTable[]> {
  const from = shanghaiDay(new Date(now.getTime() - RECHECK_WINDOW_DAYS * DAY));
  const before = new Date(now.getTime() - RECHECK_EVERY_MS).toISOString();
  return db
    .selectFrom('income_invoices')
    .selectAll()
    .where('issue_date', '>=', from)
    .where('amount_incl', '>=', 0)
    .where((eb) => eb.or([eb('status_checked_at', 'is', null), eb('status_checked_at', '<=', before)]))
    .where((eb) => eb.or([sql<boolean>`length(${eb.ref('digital_no')}) = 20`, eb.and([sql<boolean>`length(${eb.ref('invoice_no')}) = 8`, sql<boolean>`length(${eb.ref('invoice_code')}) in (10, 12)`])]))
    .orderBy(sql`coalesce(status_checked_at, '')`)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** The state the pool takes from the bureau's answer: the bureau's, except that its 正常 does not undo the pool's own 红冲 of a blue invoice with linked red invoices. */
function nextState(inv: IncomeInvoiceTable, o: StatusOutcome, hasReds: boolean): { state: number; risk: string } {
  const poolRed = ([IncomeInvoiceState.partRed, IncomeInvoiceState.fullRed] as number[]).includes(inv.invoice_state);
  const state = o.state === 0 && poolRed && hasReds ? inv.invoice_state : o.state;
  return { state, risk: o.riskLevel };
}

export interface RecheckResult {
  checked: number;
  changed: number;
  notFound: number;
  proposed: number;
  failed: number;
  /** The first failure's message (the service's words), '' when none. */
  error: string;
}

/**
 * Asks the service about `rows` (batches of STATUS_BATCH_MAX) and applies each answer; the lease is checked
 * before each batch. A batch whose call fails is left due (the next round asks again) and counted.
 */
export async function recheckInvoices(db: Db, gateway: IncomeStatusGateway, rows: IncomeInvoiceTable[], now: Date, beforeBatch?: () => Promise<void>, userName = ''): Promise<RecheckResult> {
  const r: RecheckResult = { checked: 0, changed: 0, notFound: 0, proposed: 0, failed: 0, error: '' };
  const asked = rows.map((inv) => ({ inv, item: statusItemOf(inv) })).filter((x): x is { inv: IncomeInvoiceTable; item: StatusItem } => x.item !== null);
  for (let i = 0; i < asked.length; i += STATUS_BATCH_MAX) {
    const batch = asked.slice(i, i + STATUS_BATCH_MAX);
    await beforeBatch?.();
    let outcomes: StatusOutcome[];
    try {
      outcomes = await gateway.queryIncomeStatus(batch.map((x) => x.item), { userId: null });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      r.failed += batch.length;
      r.error ||= err.message;
      continue;
    }
    const reds = await redSumsOf(db, batch.map((x) => x.inv.id));
    const at = now.toISOString();
    for (const [k, { inv }] of batch.entries()) {
      const o = outcomes[k]!;
      await db.transaction().execute(async (trx) => {
        if (o.found && (await applyTaxState(trx, inv.id, nextState(inv, o, reds.has(inv.id)), '发票状态核查', userName))) r.changed++;
        await trx.updateTable('income_invoices').set({ status_checked_at: at, status_found: o.found ? 1 : 0 }).where('id', '=', inv.id).execute();
      });
      r.checked++;
      if (!o.found) r.notFound++;
    }
  }
  r.proposed = await proposeAll(db, now);
  return r;
}

export interface Proposal {
  amount: number | null;
  reason: number | null;
  note: string;
}

/** What a case of `flag` on `inv` (ticked for 抵扣 at its effective tax) proposes; `redTax` the sum of its red invoices' tax (≤ 0), null when none is linked. */
export function proposalOf(flag: string, inv: Pick<IncomeInvoiceTable, 'invoice_state' | 'tax' | 'effective_tax'>, redTax: number | null): Proposal {
  const eff = Number(inv.effective_tax ?? 0);
  const F = IncomeAbnormalFlag;
  if (flag === F.red) {
    if (redTax !== null) {
      const net = Math.max(0, Number(inv.tax) + redTax);
      const amount = Math.max(0, eff - net);
      return amount > 0
        ? { amount, reason: TransferOutReason.redLetter, note: `红字发票税额${yuan(-redTax)}元，已抵扣${yuan(eff)}元，红冲后税额${yuan(net)}元：转出${yuan(amount)}元` }
        : { amount: null, reason: null, note: `勾选时已按红冲后税额（${yuan(net)}元）抵扣，无需转出` };
    }
    if (inv.invoice_state === IncomeInvoiceState.partRed) return { amount: null, reason: TransferOutReason.redLetter, note: '部分红冲：红字发票尚未收到，收到后按红字发票税额计算转出税额' };
    return { amount: eff, reason: TransferOutReason.redLetter, note: `${IncomeInvoiceState.label(inv.invoice_state)}：转出已抵扣税额${yuan(eff)}元` };
  }
  if (flag === F.redPending) return { amount: null, reason: TransferOutReason.redLetter, note: '红字确认单尚未确认：确认后按确认单注明的税额转出' };
  if (flag === F.voided || flag === F.lostControl || flag === F.abnormalVoucher) return { amount: eff, reason: TransferOutReason.abnormalVoucher, note: `${IncomeAbnormalFlag.label(flag)}：转出已抵扣税额${yuan(eff)}元` };
  if (flag === F.suspicious) return { amount: null, reason: null, note: '疑点发票：请核实业务真实性；核实无误的确认无误，否则选择原因进项转出' };
  return { amount: null, reason: null, note: '' };
}

/**
 * Gives an open case of a status flag its proposal when its invoice is ticked for 抵扣 and has no 进项转出:
 * recomputed each time (a red invoice arriving later fills the amount), the period kept from the first proposal.
 * True when the stored proposal changed.
 */
export async function proposeFor(db: Db, c: IncomeAbnormalCaseTable, now: Date): Promise<boolean> {
  const inv = await db.selectFrom('income_invoices').selectAll().where('id', '=', c.invoice_id).executeTakeFirst();
  if (!inv || Number(inv.tick_state ?? 0) !== 1 || Number(inv.vat_usage ?? 0) !== 1) return false;
  if (await db.selectFrom('income_transfer_outs').select('id').where('invoice_id', '=', inv.id).executeTakeFirst()) return false;
  const red = (await redSumsOf(db, [inv.id])).get(inv.id);
  const p = proposalOf(c.flag, inv, red ? red.tax : null);
  const period = c.proposed_period || shanghaiPeriod(now);
  if (Number(c.proposed_amount ?? -1) === Number(p.amount ?? -1) && Number(c.proposed_reason ?? 0) === Number(p.reason ?? 0) && c.proposal_note === p.note && c.proposed_period === period) return false;
  const u = await db
    .updateTable('income_abnormal_cases')
    .set({ proposed_amount: p.amount, proposed_reason: p.reason, proposal_note: p.note, proposed_period: period })
    .where('id', '=', c.id)
    .where('state', '=', 'open')
    .executeTakeFirst();
  return Number(u.numUpdatedRows) > 0;
}

/** Proposals for every open case of a status flag whose invoice is ticked for 抵扣; the number changed. */
export async function proposeAll(db: Db, now: Date): Promise<number> {
  const cases = await db
    .selectFrom('income_abnormal_cases as c')
    .innerJoin('income_invoices as p', 'p.id', 'c.invoice_id')
    .selectAll('c')
    .where('c.state', '=', 'open')
    .where('c.flag', 'in', [...STATUS_FLAGS])
    .where('p.tick_state', '=', 1)
    .where('p.vat_usage', '=', 1)
    .execute();
  let n = 0;
  for (const c of cases) if (await proposeFor(db, c, now)) n++;
  return n;
}

/**
 * 立即核查 (one invoice, on demand: the pool detail's button): the same check as the job's, now. Refused for an
 * invoice without the service's numbers or a red invoice; the service's failure is the answer's refusal.
 */
export async function recheckOne(db: Db, gateway: IncomeStatusGateway, invoiceId: string, userName: string, now = new Date()): Promise<{ changed: boolean; found: boolean; message: string }> {
  const inv = await db.selectFrom('income_invoices').selectAll().where('id', '=', invoiceId).executeTakeFirst();
  if (!inv) throw notFound('发票不存在');
  if (Number(inv.amount_incl) < 0) throw refuse('红字发票无需核查状态，请核查其蓝字发票');
  if (!statusItemOf(inv)) throw refuse('该发票没有税务端可查询的发票代码和号码（或数电号码），不能核查状态');
  const r = await recheckInvoices(db, gateway, [inv], now, undefined, userName);
  if (r.failed) throw refuse(`发票状态查询失败：${r.error}`);
  const after = await db.selectFrom('income_invoices').select(['invoice_state', 'risk_level']).where('id', '=', invoiceId).executeTakeFirstOrThrow();
  const found = r.notFound === 0;
  const now2 = `发票状态「${IncomeInvoiceState.label(after.invoice_state)}」，风险等级「${IncomeRiskLevel.label(after.risk_level)}」`;
  const message = !found ? '税务端无此发票信息' : r.changed ? `状态已更新：${now2}` : `税务端状态无变化：${now2}`;
  return { changed: r.changed > 0, found, message };
}

export interface RecheckJobOptions {
  intervalMs?: number;
  holder?: string;
  /** The clock the due times are compared with (tests move it forward). */
  now?: () => Date;
}

export class RecheckJob extends LeasedJob {
  private readonly now: () => Date;
  /** What the last round did (tests read it). */
  last: RecheckResult | null = null;

  constructor(
    private readonly deps: { db: PlatformDb; log: FastifyBaseLogger; gateway: () => Promise<IncomeStatusGateway> },
    opts: RecheckJobOptions = {},
  ) {
    super({ db: deps.db, log: deps.log, name: RECHECK_JOB_LEASE, intervalMs: opts.intervalMs ?? RECHECK_INTERVAL_MS, ttlMs: 10 * 60_000, round: (lease) => this.work(lease), ...(opts.holder ? { holder: opts.holder } : {}) });
    this.now = opts.now ?? (() => new Date());
  }

  private async work(lease: LeaseHandle): Promise<void> {
    const db = this.deps.db.kysely;
    const now = this.now();
    const rows = await dueForRecheck(db, now, RECHECK_ROUND_MAX);
    const r = await recheckInvoices(db, await this.deps.gateway(), rows, now, () => lease.check());
    this.last = r;
    if (r.checked || r.proposed || r.failed) this.deps.log.info({ ...r }, 'income status re-check');
  }
}

