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
  if (untick.length) words += await compensate(() => chunked(untick, (c) => gw.untickInvoices({ period, usage, items: c.map(itemOf) }, ctx)));
  for (const [reason, list] of restore) {
    words += await compensate(() =>
      chunked(list, (c) => gw.tickInvoices({ period, usage, ...(reason ? { reason: Number(reason) as Reason } : {}), items: c.map((r) => ({ ...itemOf(r), effectiveTax: Number(r.effective_tax ?? r.tax) })) }, ctx)),
    );
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
    takeBack += await compensate(() => chunked(list, (c) => gw.tickInvoices({ period, usage, ...(reason ? { reason } : {}), items: c.map((r) => ({ ...itemOf(r), effectiveTax: Number(r.effective_tax ?? r.tax) })) }, ctx)));
  }
  return takeBack;
}
