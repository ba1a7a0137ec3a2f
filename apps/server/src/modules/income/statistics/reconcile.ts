/**
 * 统计对比 (issue 32 item 1): after 申请统计, the invoices the bureau counts for the period (the gateway's
 * statistics detail, 抵扣统计明细 / 已勾选发票查询) against our tick ledger (income_invoices of the period),
 * line by line — ticked on the bureau's platform outside the product, ticked here but not counted there, a
 * different usage, a different effective tax — and 采纳税务端: the ledger takes the bureau's state of the
 * chosen lines in one guarded transaction, each written to the tick log as action 'adopt' with who and when.
 *
 * The comparison is computed when asked (the view, the adoption, 确认统计), never stored: a difference is open
 * while it exists, and adopting it (or the clerk undoing the outside tick at the bureau) closes it.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { NonDeductReason, OperationLogType, TickUsage, type StatComparison, type StatDiffLine, type StatDiffSide } from '@zhyy/shared';
import { STAT_DETAIL_PAGE_MAX, STAT_DETAIL_USAGES, type StatDetailItem, type StatScope, type TaxCallContext, type TaxGateway } from '../../../integrations/tax/index.js';
import { currentUser } from '../../../platform/context.js';
import { conflict, refuse } from '../../../platform/envelope.js';
import { newId } from '../../../platform/ids.js';
import { nowIso } from '../../../platform/time.js';
import { addEvent } from '../pool/events.js';
import type { IncomeInvoiceTable } from '../pool/tables.js';
import { numberOf, type Db } from '../deduction/batch.js';
import { COUNTED_USAGES } from '../deduction/figures.js';
import '../deduction/tables.js';

/** At most this many pages of the detail are read (500 each): 100,000 invoices a period. */
const MAX_PAGES = 200;

type Row = Pick<IncomeInvoiceTable, 'id' | 'digital_no' | 'invoice_code' | 'invoice_no' | 'kind' | 'issue_date' | 'seller_name' | 'tax' | 'vat_usage' | 'deduct_reason' | 'effective_tax' | 'tick_state' | 'tick_period'>;
const COLUMNS = ['id', 'digital_no', 'invoice_code', 'invoice_no', 'kind', 'issue_date', 'seller_name', 'tax', 'vat_usage', 'deduct_reason', 'effective_tax', 'tick_state', 'tick_period'] as const;

/** A line with what the adoption needs: the pool row as read (the guard of its update). */
export type CompareLine = StatDiffLine & { row: Row | null };
export type Compared = Omit<StatComparison, 'lines'> & { lines: CompareLine[] };

const yuan = (fen: number) => (fen / 100).toFixed(2);

/** Every page of the bureau's detail of the period and scope. */
export async function bureauTicks(gw: TaxGateway, period: string, scope: StatScope, ctx: TaxCallContext): Promise<StatDetailItem[]> {
  const out: StatDetailItem[] = [];
  for (let pageNo = 1; pageNo <= MAX_PAGES; pageNo++) {
    const page = await gw.statDetails({ period, scope, pageNo, pageSize: STAT_DETAIL_PAGE_MAX }, ctx);
    out.push(...page.items);
    if (!page.items.length || out.length >= page.total) return out;
  }
  throw refuse(`税务端统计明细超过${MAX_PAGES * STAT_DETAIL_PAGE_MAX}张，无法逐张对比`);
}

const sideOfRow = (r: Row): StatDiffSide => ({ vatUsage: Number(r.vat_usage), deductReason: r.deduct_reason === null || r.deduct_reason === undefined ? null : Number(r.deduct_reason), tax: Number(r.tax), effectiveTax: Number(r.effective_tax ?? 0) });
const sideOfBureau = (b: StatDetailItem): StatDiffSide => ({ vatUsage: b.usage, deductReason: b.reason, tax: b.tax, effectiveTax: b.effectiveTax });

/** The pool rows of keys the ledger does not hold ticked in the period (the outside ticks), by key. */
async function poolByKey(db: Db, keys: string[]): Promise<Map<string, Row>> {
  const out = new Map<string, Row>();
  for (let i = 0; i < keys.length; i += 500) {
    const part = keys.slice(i, i + 500);
    // numberOf: the 数电 number, else code + number (a customs notice: its number as stored): match either way, then check.
    const tails = [...new Set(part.map((k) => k.slice(-8)))];
    const rows = await db.selectFrom('income_invoices').select([...COLUMNS]).where((eb) => eb.or([eb('digital_no', 'in', part), eb('invoice_no', 'in', tails), eb('invoice_no', 'in', part)])).execute();
    for (const r of rows as Row[]) {
      const k = numberOf(r);
      if (part.includes(k) && !out.has(k)) out.set(k, r);
    }
  }
  return out;
}

/** 统计对比 of a period and scope: each side's counted figures and the lines that differ (in key order). */
export async function compare(db: Db, gw: TaxGateway, period: string, scope: StatScope, ctx: TaxCallContext): Promise<Compared> {
  const usages = [...STAT_DETAIL_USAGES[scope]];
  const counted = COUNTED_USAGES[scope];
  const bureau = await bureauTicks(gw, period, scope, ctx);
  const oursRows = (await db.selectFrom('income_invoices').select([...COLUMNS]).where('tick_period', '=', period).where('tick_state', '=', 1).where('vat_usage', 'in', usages).execute()) as Row[];
  const ours = new Map(oursRows.map((r) => [numberOf(r), r]));
  const theirs = new Map(bureau.map((b) => [b.key, b]));
  const pool = await poolByKey(db, bureau.filter((b) => !ours.has(b.key)).map((b) => b.key));
  const lines: CompareLine[] = [];
  for (const key of [...new Set([...ours.keys(), ...theirs.keys()])].sort()) {
    const o = ours.get(key);
    const b = theirs.get(key);
    if (o && b) {
      const oSide = sideOfRow(o);
      const bSide = sideOfBureau(b);
      const kind = oSide.vatUsage !== bSide.vatUsage || oSide.deductReason !== bSide.deductReason ? 'usage' : oSide.vatUsage === 1 && oSide.effectiveTax !== bSide.effectiveTax ? 'tax' : null;
      if (kind) lines.push({ key, kind, invoiceId: o.id, invoiceKind: o.kind, issueDate: o.issue_date, sellerName: o.seller_name, ours: oSide, bureau: bSide, adoptable: true, note: '', row: o });
    } else if (o) {
      lines.push({ key, kind: 'missing', invoiceId: o.id, invoiceKind: o.kind, issueDate: o.issue_date, sellerName: o.seller_name, ours: sideOfRow(o), bureau: null, adoptable: true, note: '', row: o });
    } else if (b) {
      const r = pool.get(key) ?? null;
      const elsewhere = r && Number(r.tick_state) === 1 && r.tick_period && r.tick_period !== period ? `本系统已勾选于税款所属期${r.tick_period}，请核对` : '';
      const ticked = r && Number(r.tick_state) === 1 && r.tick_period === period ? sideOfRow(r) : null;
      const note = !r ? '票池中无此发票，请先采集或录入后再采纳' : elsewhere;
      lines.push({ key, kind: ticked ? 'usage' : 'outside', invoiceId: r?.id ?? null, invoiceKind: r?.kind ?? b.kind, issueDate: r?.issue_date ?? b.issueDate, sellerName: r?.seller_name ?? '', ours: ticked, bureau: sideOfBureau(b), adoptable: !note, note, row: r });
    }
  }
  const sum = (list: StatDiffSide[]) => {
    const c = list.filter((x) => counted.includes(x.vatUsage));
    return { count: c.length, tax: c.reduce((a, x) => a + x.tax, 0), effectiveTax: c.reduce((a, x) => a + x.effectiveTax, 0) };
  };
  return { ours: sum(oursRows.map(sideOfRow)), bureau: sum(bureau.map(sideOfBureau)), lines, open: lines.length };
}

/** The comparison as the view shows it (without the rows read). */
export const publicComparison = (c: Compared): StatComparison => ({ ...c, lines: c.lines.map(({ row: _row, ...l }) => l) });

/** The words of the bureau's state of a line, for the tick log and the history. */
function bureauWords(b: StatDiffSide | null): string {
  if (!b) return '税务端未勾选，撤销本系统勾选';
  const how = b.vatUsage === 1 ? `（有效税额${yuan(b.effectiveTax)}元）` : b.vatUsage === 4 && b.deductReason ? `（${NonDeductReason.label(b.deductReason)}）` : '';
  return `税务端已勾选为${TickUsage.label(b.vatUsage)}${how}`;
}

/**
 * 采纳税务端: the ledger takes the bureau's state of the chosen lines (all adoptable ones when `keys` is absent),
 * in one transaction: each pool invoice by a guarded update (what the comparison read, else 勾选状态已变化 and
 * nothing is adopted), its history, one tick log row (action adopt, result 成功, who and when) and one operation
 * log line. Answers how many were adopted.
 */
export async function adopt(app: FastifyInstance, req: FastifyRequest, c: Compared, period: string, scope: StatScope, keys: readonly string[] | undefined): Promise<number> {
  const db = app.db.kysely;
  const wanted = keys ? new Set(keys) : null;
  if (wanted) {
    const unknown = [...wanted].filter((k) => !c.lines.some((l) => l.key === k));
    if (unknown.length) throw refuse(`发票 ${unknown.slice(0, 3).join('、')} 不在差异清单中，请刷新后重试`);
    const blocked = c.lines.filter((l) => wanted.has(l.key) && !l.adoptable);
    if (blocked.length) throw refuse(`发票 ${blocked[0]!.key} 不能采纳：${blocked[0]!.note}`);
  }
  const chosen = c.lines.filter((l) => l.adoptable && l.row && (!wanted || wanted.has(l.key)));
  if (!chosen.length) throw refuse(c.lines.length ? '差异清单中没有可采纳的发票' : '税务端统计与本系统勾选记录一致，没有需要采纳的差异');
  const user = currentUser(req);
  const at = nowIso();
  const batchId = randomUUID();
  await db.transaction().execute(async (trx) => {
    for (const l of chosen) {
      const r = l.row!;
      const b = l.bureau;
      const set = b
        ? { vat_usage: b.vatUsage, tick_state: 1, effective_tax: b.effectiveTax, deduct_reason: b.deductReason, tick_period: period, ticked_at: at, ticked_by: user.name, updated_at: at }
        : { vat_usage: 0, tick_state: 0, effective_tax: null, deduct_reason: null, tick_period: '', ticked_at: null, ticked_by: '', updated_at: at };
      let q = trx.updateTable('income_invoices').set(set).where('id', '=', r.id).where('vat_usage', '=', Number(r.vat_usage ?? 0)).where('tick_state', '=', Number(r.tick_state ?? 0)).where('tick_period', '=', r.tick_period ?? '');
      q = r.effective_tax === null || r.effective_tax === undefined ? q.where('effective_tax', 'is', null) : q.where('effective_tax', '=', Number(r.effective_tax));
      const u = await q.executeTakeFirst();
      if (Number(u.numUpdatedRows) === 0) throw conflict(`发票 ${l.key} 的勾选状态已变化，请刷新后重试`);
      const words = bureauWords(b);
      await addEvent(trx, r.id, b ? 'tick' : 'untick', `采纳税务端统计（税款所属期 ${period}）：${words}`, user.name);
      await trx.insertInto('income_tick_logs').values({
        id: newId(), batch_id: batchId, invoice_id: r.id, invoice_number: l.key, kind: r.kind, issue_date: r.issue_date, seller_name: r.seller_name,
        action: 'adopt', vat_usage: b?.vatUsage ?? Number(r.vat_usage ?? 0), deduct_reason: b ? b.deductReason : (r.deduct_reason ?? null), tax: Number(r.tax), effective_tax: b?.effectiveTax ?? 0,
        period, result: 1, message: `采纳税务端：${words}`, user_id: user.id, user_name: user.name, created_at: at,
      }).execute();
    }
    await app.oplog.record(req, OperationLogType.edit, `${scope === 'deduction' ? '抵扣统计' : '退税统计'}采纳税务端勾选状态：税款所属期 ${period}，${chosen.length} 张，批次 ${batchId}`, trx);
  });
  return chosen.length;
}
