/**
 * The simulator's incoming-invoice side: collection from the company's tax digital account (the
 * invoices its simulated suppliers issued, income-invoices.ts) and 查验 with the service's rules
 * (day after issue, 5 years, 5 a day per invoice, counted in taxsim_income_checks).
 * Every call is one sync log row, like the outgoing methods.
 */
import type { SyncLogService } from '../../../platform/synclog.js';
import { TaxErrorCode, TaxGatewayError } from '../errors.js';
import { exchange, IncomeMethods as M } from '../exchange.js';
import {
  checkCollectQuery,
  checkVerifyQuery,
  dayNumber,
  dayOf,
  INCOME_STATE_LABELS,
  IncomeMessages,
  ORDINARY_KINDS,
  queryKey,
  RISK_LEVEL_LABELS,
  SPECIAL_KINDS,
  VERIFY_DAILY_LIMIT,
  VERIFY_FIELD_LABELS,
} from '../income-rules.js';
import type { IncomeCollectPage, IncomeCollectQuery, IncomeTaxGateway, IncomeVerifyField, IncomeVerifyQuery, IncomeVerifyResult, IncomingInvoice } from '../income-types.js';
import type { TaxCallContext } from '../types.js';
import { asSeenAt, dayCount, dayInvoices, locate, type Company } from './income-invoices.js';
import { shanghaiDate } from './numbers.js';
import type { SimContext } from './progress.js';
import { statusOverrides } from './status-store.js';

const CURSOR = /^(\d{4}-\d{2}-\d{2})#(\d{1,5})$/;
const invalid = (message: string, method: string) => new TaxGatewayError(TaxErrorCode.invalid, message, method);

export class SimulatorIncome implements Pick<IncomeTaxGateway, 'collectIncoming' | 'verifyIncoming'> {
  constructor(
    private readonly ctx: SimContext,
    private readonly synclog: SyncLogService,
  ) {}

  private company(method: string): Company {
    const c = this.ctx.company;
    if (!c?.name || !c.taxNumber) throw invalid('模拟器未设置本公司名称和税号（开票设置中的销方信息），无法提供进项发票', method);
    return c;
  }

  /** The day's invoices already issued at `nowMs`. */
  private visible(company: Company, day: string, nowMs: number) {
    return dayInvoices(company, day).filter((d) => d.issuedMs <= nowMs);
  }

  collectIncoming(q: IncomeCollectQuery, ctx?: TaxCallContext): Promise<IncomeCollectPage> {
    const request = { startDate: q.from, endDate: q.to, cursor: q.cursor ?? '', pageSize: q.pageSize ?? null };
    return exchange(this.synclog, M.collect, request, ctx, async () => {
      const size = checkCollectQuery(q, M.collect);
      const company = this.company(M.collect);
      const now = this.ctx.now();
      const nowMs = now.getTime();
      const last = Math.min(dayNumber(q.to), dayNumber(shanghaiDate(now)));
      const first = dayNumber(q.from);
      let day = first;
      let index = 0;
      if (q.cursor) {
        const m = CURSOR.exec(q.cursor);
        if (!m || dayNumber(m[1]!) < first || dayNumber(m[1]!) > Math.max(last, first)) throw invalid(IncomeMessages.badCursor, M.collect);
        day = dayNumber(m[1]!);
        index = Number(m[2]);
      }
      // Whole days count without drawing them (the day's count comes first from its own seed); today is drawn.
      const today = dayNumber(shanghaiDate(now));
      let total = 0;
      for (let d = first; d <= last; d++) total += d < today ? dayCount(company, dayOf(d)) : this.visible(company, dayOf(d), nowMs).length;
      const invoices: IncomingInvoice[] = [];
      while (day <= last && invoices.length < size) {
        const list = this.visible(company, dayOf(day), nowMs);
        const taken = list.slice(index, index + (size - invoices.length));
        invoices.push(...taken.map((d) => asSeenAt(d, nowMs)));
        index += taken.length;
        if (index >= list.length) {
          day += 1;
          index = 0;
        }
      }
      // The bureau's status changes made by the simulator control (income-status.ts) show in the collection too.
      const over = await statusOverrides(this.ctx, invoices.map((i) => i.key));
      for (const i of invoices) {
        const o = over.get(i.key);
        if (o) Object.assign(i, { state: o.state, riskLevel: o.risk, changedAt: o.changedAt });
      }
      const value: IncomeCollectPage = { invoices, total, ...(day <= last ? { nextCursor: `${dayOf(day)}#${index}` } : {}) };
      const log = { total, count: invoices.length, nextCursor: value.nextCursor ?? null, keys: invoices.map((i) => i.key) };
      return { value, log, memo: `采集 ${q.from} 至 ${q.to} 的进项发票：本页 ${invoices.length} 张，共 ${total} 张${value.nextCursor ? '，未完待续' : ''}` };
    });
  }

  /** Counts one 查验 of the invoice today; the 6th of a day is refused. Answers today's count. */
  private async countCheck(key: string, today: string): Promise<number> {
    const sdb = this.ctx.sdb;
    const at = this.ctx.now().toISOString();
    await sdb.insertInto('taxsim_income_checks').values({ invoice_key: key, check_day: today, count: 0, updated_at: at }).onConflict((oc) => oc.columns(['invoice_key', 'check_day']).doNothing()).execute();
    const row = await sdb
      .updateTable('taxsim_income_checks')
      .set((eb) => ({ count: eb('count', '+', 1), updated_at: at }))
      .where('invoice_key', '=', key)
      .where('check_day', '=', today)
      .where('count', '<', VERIFY_DAILY_LIMIT)
      .returning('count')
      .executeTakeFirst();
    if (!row) throw new TaxGatewayError(TaxErrorCode.verifyLimit, IncomeMessages.verifyLimit, M.verify);
    return Number(row.count);
  }

  verifyIncoming(q: IncomeVerifyQuery, ctx?: TaxCallContext): Promise<IncomeVerifyResult> {
    const key = /^(\d{8}|\d{20})$/.test(q.invoiceNo ?? '') ? queryKey(q) : '';
    return exchange<IncomeVerifyResult>(this.synclog, M.verify, { invoiceKey: key, ...q }, ctx, async () => {
      const now = this.ctx.now();
      const today = shanghaiDate(now);
      const form = checkVerifyQuery(q, today, M.verify);
      const company = this.company(M.verify);
      let found = this.find(company, q, now.getTime());
      const o = found ? (await statusOverrides(this.ctx, [found.key])).get(found.key) : undefined;
      if (found && o) found = { ...found, state: o.state, riskLevel: o.risk, changedAt: o.changedAt };
      if (found && form === 'coded') {
        if (found.kind === '99') throw invalid('公路、水路等客票不支持查验', M.verify);
        if (SPECIAL_KINDS.has(found.kind) && q.amountExcludingTax === undefined) throw invalid('增值税专用发票请按不含税金额查验', M.verify);
        if (ORDINARY_KINDS.has(found.kind) && q.checkCodeLast6 === undefined) throw invalid('普通发票请按校验码后6位查验', M.verify);
      }
      const checksToday = await this.countCheck(key, today);
      if (!found) {
        return { value: { outcome: 'notFound', message: IncomeMessages.notFound, checksToday }, log: { result: '009', message: IncomeMessages.notFound, checksToday }, memo: `发票 ${key}：${IncomeMessages.notFound}（今日第${checksToday}次查验）` };
      }
      const fields: IncomeVerifyField[] = [];
      if (found.issueDate !== q.issueDate) fields.push('issueDate');
      if (form === 'digital') {
        if (found.total !== q.total) fields.push('total');
      } else if (SPECIAL_KINDS.has(found.kind)) {
        if (found.amountExcludingTax !== q.amountExcludingTax) fields.push('amountExcludingTax');
      } else if (found.checkCode.slice(-6) !== q.checkCodeLast6) {
        fields.push('checkCodeLast6');
      }
      if (fields.length) {
        const message = IncomeMessages.mismatch(fields.map((f) => VERIFY_FIELD_LABELS[f]));
        return { value: { outcome: 'mismatch', message, fields, checksToday }, log: { result: '006', message, fields, checksToday }, memo: `发票 ${key}：${message}（今日第${checksToday}次查验）` };
      }
      const value: IncomeVerifyResult = { outcome: 'match', invoice: found, message: IncomeMessages.matched, checksToday };
      const words = `${INCOME_STATE_LABELS[found.state]}，${RISK_LEVEL_LABELS[found.riskLevel]}`;
      return { value, log: { result: '001', message: IncomeMessages.matched, state: found.state, riskLevel: found.riskLevel, checksToday }, memo: `发票 ${key}：查验一致（${words}，今日第${checksToday}次查验）` };
    });
  }

  /** The invoice the query's number points to, as seen now (null: 查无此票). */
  private find(company: Company, q: IncomeVerifyQuery, nowMs: number): IncomingInvoice | null {
    const at = locate(q);
    if (!at) return null;
    const drawn = dayInvoices(company, at.day)[at.index];
    if (!drawn || drawn.issuedMs > nowMs) return null;
    const same = q.invoiceNo.length === 20 ? drawn.face.allElectronicNo === q.invoiceNo : drawn.face.invoiceCode === q.invoiceCode && drawn.face.invoiceNo === q.invoiceNo;
    return same ? asSeenAt(drawn, nowMs) : null;
  }
}
