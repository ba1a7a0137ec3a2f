/**
 * 导入勾选: the Excel sheet read (sheet.ts), each row's invoice found in the pool (20 digits by 数电号码,
 * else 发票代码 + 发票号码; a 海关缴款书 by its 缴款书号码 among the pool's customs notices), every row checked (a wrong row refuses the whole file; a typed 有效税额 by the
 * rule of a tick: positive, at most the invoice's tax, to the 分), then ticked as one batch (tick.ts) with
 * each row's outcome.
 */
import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { effectiveTaxProblem, TICK_MAX_INVOICES, TickUsage, type TickImportAnswer, type TickImportBody, type TickImportRow } from '@zhyy/shared';
import type { NonDeductReason as Reason, TickUsage as Usage } from '../../../integrations/tax/index.js';
import { refuse } from '../../../platform/envelope.js';
import type { TickDeps } from './batch.js';
import { openPeriod } from './period.js';
import { SCOPE_PAGE, SCOPE_USAGES, type TickScope } from './rules.js';
import { readTickSheet } from './sheet.js';
import { tickItems } from './tick.js';

export async function importTicks(deps: TickDeps, req: FastifyRequest, scope: TickScope, b: TickImportBody): Promise<TickImportAnswer> {
  const usage = Number(b.vatUsage) as Usage;
  if (!SCOPE_USAGES[scope].includes(usage)) throw refuse(`${SCOPE_PAGE[scope]}不能勾选为${TickUsage.label(usage)}`);
  // The period first: closed (past the deadline, the statistics applied or confirmed), no file is read.
  const gw = await deps.gateway();
  const p = await openPeriod(req, gw, scope);
  const parsed = await readTickSheet(Buffer.from(b.file, 'base64'));
  // Find each row's invoice: 20 digits by 数电号码, else 发票代码 + 发票号码.
  const digital = parsed.filter((x) => !x.message && !x.customs && x.number.length === 20).map((x) => x.number);
  const coded = parsed.filter((x) => !x.message && !x.customs && x.number.length !== 20);
  const notices = parsed.filter((x) => !x.message && x.customs).map((x) => x.number);
  const found = new Map<string, { id: string; tax: number }>();
  for (let i = 0; i < digital.length; i += 500) {
    for (const r of await deps.db.selectFrom('income_invoices').select(['id', 'digital_no', 'tax']).where('digital_no', 'in', digital.slice(i, i + 500)).execute()) found.set(r.digital_no, { id: r.id, tax: Number(r.tax) });
  }
  for (let i = 0; i < coded.length; i += 500) {
    const nos = coded.slice(i, i + 500).map((x) => x.invoiceNo);
    for (const r of await deps.db.selectFrom('income_invoices').select(['id', 'invoice_code', 'invoice_no', 'tax']).where('invoice_no', 'in', nos).where('digital_no', '=', '').execute()) found.set(`${r.invoice_code}${r.invoice_no}`, { id: r.id, tax: Number(r.tax) });
  }
  // A customs notice's number is its 缴款书号码: the pool keeps it as the number (collected), or as code + number.
  const byNotice = new Map<string, { id: string; tax: number }>();
  for (let i = 0; i < notices.length; i += 500) {
    const slice = notices.slice(i, i + 500);
    const rows = await deps.db
      .selectFrom('income_invoices')
      .select(['id', 'invoice_code', 'invoice_no', 'tax'])
      .where('kind', '=', 'customs')
      .where((eb) => eb.or([eb('invoice_no', 'in', slice), eb(sql<string>`invoice_code || invoice_no`, 'in', slice)]))
      .execute();
    for (const r of rows) for (const k of [r.invoice_no, `${r.invoice_code}${r.invoice_no}`]) if (slice.includes(k)) byNotice.set(k, { id: r.id, tax: Number(r.tax) });
  }
  const seen = new Set<string>();
  const rows: TickImportRow[] = parsed.map((x) => {
    const hit = x.message ? null : ((x.customs ? byNotice.get(x.number) : found.get(x.number)) ?? null);
    const id = hit?.id ?? null;
    let message = x.message;
    if (!message && !id) message = x.customs ? '票池中没有该海关缴款书' : '票池中没有该发票';
    if (!message && seen.has(id!)) message = '与前面的行重复';
    if (!message && usage !== 1 && x.effectiveTax !== null) message = '只有抵扣勾选可以填写有效税额';
    // The rule of a typed effective tax, as on the page and in a tick: positive, at most the tax, to the 分.
    if (!message && usage === 1) message = effectiveTaxProblem(x.effectiveTax ?? hit!.tax, hit!.tax);
    if (id) seen.add(id);
    return { row: x.row, invoiceNumber: x.number, invoiceId: id, effectiveTax: x.effectiveTax, ok: !message, message };
  });
  if (!rows.length) throw refuse('文件中没有发票行（第一行为表头：发票代码、发票号码或数电号码、缴款书号码、有效税额）');
  if (rows.length > TICK_MAX_INVOICES) throw refuse(`一次最多导入${TICK_MAX_INVOICES}张发票`);
  if (rows.some((r) => !r.ok)) {
    return { done: false, needConfirm: false, batchId: '', count: 0, refused: rows.filter((r) => !r.ok).length, outcomes: [], rows: rows.map((r) => (r.ok ? { ...r, ok: false, message: '其他行有误，本次未勾选' } : r)) };
  }
  const answer = await tickItems(deps, req, scope, gw, p, usage, b.deductReason === undefined ? null : (Number(b.deductReason) as Reason), rows.map((r) => ({ id: r.invoiceId!, effectiveTax: r.effectiveTax ?? undefined })), b.confirmed);
  const byId = new Map(answer.outcomes.map((o) => [o.invoiceId, o]));
  return { ...answer, rows: rows.map((r) => { const o = byId.get(r.invoiceId!); return o ? { ...r, ok: o.ok, message: o.message } : { ...r, ok: answer.done, message: answer.done ? '勾选成功' : answer.needConfirm ? '待确认' : '本次未勾选' }; }) };
}
