/**
 * Calling the tax service for a batch, and putting it back when the batch fails: calls of at most
 * TICK_CALL_SIZE invoices (one logged exchange each), and the compensating calls that undo at the service
 * what a failed batch did there (each answering '' or the words saying the service must be checked by hand).
 */
import type { NonDeductReason as Reason, TaxGateway, TickOutcome, TickUsage as Usage } from '../../../integrations/tax/index.js';
import type { IncomeInvoiceTable } from '../pool/tables.js';
import { itemOf, keyOf, rowsById, type Db } from './batch.js';

/** Invoices per call to the tax service. */
export const TICK_CALL_SIZE = 500;

type Ctx = { userId: string };

const isCustoms = (r: IncomeInvoiceTable) => r.kind === 'customs';

/**
 * Ticks documents at the service: 海关缴款书 through their own call (tickCustoms, their key the
 * 缴款书号码 as the pool shows it), the invoices and tickets through tickInvoices; the outcomes in the
 * order asked.
 */
export async function serviceTick(gw: TaxGateway, period: string, usage: Usage, reason: Reason | null | undefined, entries: Array<{ r: IncomeInvoiceTable; eff: number }>, ctx: Ctx): Promise<TickOutcome[]> {
  const why = reason ? { reason } : {};
  const customs = entries.filter((e) => isCustoms(e.r));
  const others = entries.filter((e) => !isCustoms(e.r));
  const said = new Map<string, TickOutcome>();
  if (others.length) for (const o of await gw.tickInvoices({ period, usage, ...why, items: others.map((e) => ({ ...itemOf(e.r), effectiveTax: e.eff })) }, ctx)) said.set(o.key, o);
  if (customs.length) for (const o of await gw.tickCustoms({ period, usage, ...why, items: customs.map((e) => ({ noticeNo: keyOf(e.r), fillDate: e.r.issue_date, effectiveTax: e.eff })) }, ctx)) said.set(o.key, o);
  return entries.map((e) => said.get(keyOf(e.r)) ?? { key: keyOf(e.r), accepted: false, message: '税务端未返回该发票的勾选结果' });
}

/** Undoes ticks at the service, customs notices through their own call (untickCustoms). */
export async function serviceUntick(gw: TaxGateway, period: string, usage: Usage, rows: IncomeInvoiceTable[], ctx: Ctx): Promise<TickOutcome[]> {
  const customs = rows.filter(isCustoms);
  const others = rows.filter((r) => !isCustoms(r));
  const said = new Map<string, TickOutcome>();
  if (others.length) for (const o of await gw.untickInvoices({ period, usage, items: others.map(itemOf) }, ctx)) said.set(o.key, o);
  if (customs.length) for (const o of await gw.untickCustoms({ period, usage, items: customs.map((r) => ({ noticeNo: keyOf(r), fillDate: r.issue_date })) }, ctx)) said.set(o.key, o);
  return rows.map((r) => said.get(keyOf(r)) ?? { key: keyOf(r), accepted: false, message: '税务端未返回该发票的撤销结果' });
}

export async function chunked<T>(items: T[], call: (chunk: T[]) => Promise<TickOutcome[]>): Promise<TickOutcome[]> {
  const out: TickOutcome[] = [];
  for (let i = 0; i < items.length; i += TICK_CALL_SIZE) out.push(...(await call(items.slice(i, i + TICK_CALL_SIZE))));
  return out;
}

/** Runs the compensating call; answers '' or the words saying it failed (the tax service must then be checked by hand). */
export async function compensate(call: () => Promise<TickOutcome[]>): Promise<string> {
  try {
    const out = await call();
    const left = out.filter((o) => !o.accepted);
    return left.length ? `（税务端撤回失败 ${left.map((o) => `${o.key}：${o.message}`).join('；')}，请在税务端核对）` : '';
  } catch (e) {
    return `（税务端撤回失败：${e instanceof Error ? e.message : String(e)}，请在税务端核对）`;
  }
}

/**
 * Puts the service back as our records say, for the invoices of a failed tick batch it accepted: an
 * invoice that was not ticked is unticked there; one already ticked for this usage (a change of its
 * effective tax or reason) is ticked again as it was; one that a concurrent batch has meanwhile recorded
 * as ticked for this usage and period is left alone. Answers '' or the words saying the service could
 * not be put back.
 */
export async function takeBackTicks(db: Db, gw: TaxGateway, period: string, usage: Usage, rows: IncomeInvoiceTable[], acceptedKeys: Set<string>, ctx: Ctx): Promise<string> {
  const mine = rows.filter((r) => acceptedKeys.has(keyOf(r)));
  if (!mine.length) return '';
  const now = await rowsById(db, mine.map((r) => r.id));
  const untick: IncomeInvoiceTable[] = [];
  const restore = new Map<string, IncomeInvoiceTable[]>();
  for (const r of mine) {
    const cur = now.get(r.id) ?? r;
    const tickedHere = Number(cur.tick_state ?? 0) === 1 && Number(cur.vat_usage ?? 0) === usage && cur.tick_period === period;
    if (!tickedHere) untick.push(r);
    else if (Number(r.tick_state ?? 0) === 1) {
      const k = String(cur.deduct_reason ?? '');
      restore.set(k, [...(restore.get(k) ?? []), cur]);
    }
    // else: recorded meanwhile by a concurrent batch; the service's tick is right.
  }
  let words = '';
  if (untick.length) words += await compensate(() => chunked(untick, (c) => serviceUntick(gw, period, usage, c, ctx)));
  for (const [reason, list] of restore) {
    words += await compensate(() => chunked(list, (c) => serviceTick(gw, period, usage, reason ? (Number(reason) as Reason) : null, c.map((r) => ({ r, eff: Number(r.effective_tax ?? r.tax) })), ctx)));
  }
  return words;
}

/**
 * Puts the service back for a failed undo batch: ticks again, as they were, the invoices the service
 * already undid, only those our records still hold as ticked (a concurrent undo may have recorded some
 * meanwhile); one call per usage and 不抵扣 reason.
 */
export async function takeBackUnticks(db: Db, gw: TaxGateway, period: string, accepted: IncomeInvoiceTable[], ctx: Ctx): Promise<string> {
  const usageOf = (r: IncomeInvoiceTable | undefined) => Number(r?.vat_usage ?? 0) as Usage;
  let takeBack = '';
  const again = new Map<string, IncomeInvoiceTable[]>();
  const still = await rowsById(db, accepted.map((r) => r.id));
  for (const r of accepted.filter((a) => Number(still.get(a.id)?.tick_state ?? 0) === 1)) {
    const k = `${usageOf(r)}|${r.deduct_reason ?? ''}`;
    again.set(k, [...(again.get(k) ?? []), r]);
  }
  for (const list of again.values()) {
    const usage = usageOf(list[0]);
    const reason = list[0]!.deduct_reason ? (Number(list[0]!.deduct_reason) as Reason) : undefined;
    takeBack += await compensate(() => chunked(list, (c) => serviceTick(gw, period, usage, reason, c.map((r) => ({ r, eff: Number(r.effective_tax ?? r.tax) })), ctx)));
  }
  return takeBack;
}
