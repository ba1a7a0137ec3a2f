/**
 * The simulator's customs notices (海关进口增值税专用缴款书, issue 29): the notices it holds for a company (the 缴款单位)
 * in taxsim_customs_notices (migration 0044), entered by `enterCustomsNotices` (the demo, tests: the customs data the
 * bureau receives from the customs), and its customs collection call — the notices of the company whose 填发日期 is
 * in the window, in order of day and number, paged like the invoices' collection (cursor = the offset). An entered
 * notice is also made known to the ticking (taxsim_income_known, kind customs, its number the key), so that
 * tickCustoms accepts it and the statistics count it.
 */
import type { SyncLogService } from '../../../platform/synclog.js';
import { TaxErrorCode, TaxGatewayError } from '../errors.js';
import { exchange, IncomeMethods as M } from '../exchange.js';
import { checkCollectQuery, IncomeMessages } from '../income-rules.js';
import type { CustomsCollectPage, CustomsNotice, IncomeCollectQuery, IncomeInvoiceState } from '../income-types.js';
import type { TaxCallContext } from '../types.js';
import { registerKnownIncoming } from './income-ticks.js';
import type { SimContext } from './progress.js';

/** A notice as entered: the payer is the company unless named. */
export type CustomsNoticeSeed = Omit<CustomsNotice, 'payer' | 'state' | 'customsCode'> & { payer?: CustomsNotice['payer']; state?: IncomeInvoiceState; customsCode?: string };

/** 缴款书号码: letters, digits and '-' (e.g. 220120251000012345-L01), at most 40. */
export const CUSTOMS_NOTICE_NO = /^[0-9A-Za-z-]{1,40}$/;

export async function enterCustomsNotices(ctx: SimContext, seeds: readonly CustomsNoticeSeed[]): Promise<void> {
  const company = ctx.company;
  const at = ctx.now().toISOString();
  for (const n of seeds) {
    const payer = n.payer ?? company;
    if (!payer) throw new Error('enterCustomsNotices: no payer and no simulator company');
    if (!CUSTOMS_NOTICE_NO.test(n.noticeNo)) throw new Error(`enterCustomsNotices: bad notice number ${n.noticeNo}`);
    const row = {
      notice_no: n.noticeNo, fill_date: n.fillDate, customs_name: n.customsName, customs_code: n.customsCode ?? '', payer_name: payer.name, payer_tax_no: payer.taxNumber,
      dutiable_price: n.dutiablePrice, tax: n.tax, notice_state: n.state ?? 0, entered_at: at,
    };
    await ctx.sdb
      .insertInto('taxsim_customs_notices')
      .values(row)
      .onConflict((oc) => oc.column('notice_no').doUpdateSet({ fill_date: row.fill_date, customs_name: row.customs_name, customs_code: row.customs_code, payer_name: row.payer_name, payer_tax_no: row.payer_tax_no, dutiable_price: row.dutiable_price, tax: row.tax, notice_state: row.notice_state }))
      .execute();
  }
  await registerKnownIncoming(ctx, seeds.map((n) => ({ key: n.noticeNo, kind: 'customs', issueDate: n.fillDate, tax: n.tax, amountExcludingTax: n.dutiablePrice, state: n.state ?? 0 })));
}

const CURSOR = /^\d{1,6}$/;

export class SimulatorCustoms {
  constructor(
    private readonly ctx: SimContext,
    private readonly synclog: SyncLogService,
  ) {}

  collectCustoms(q: IncomeCollectQuery, ctx?: TaxCallContext): Promise<CustomsCollectPage> {
    const request = { tfrqq: q.from, tfrqz: q.to, cursor: q.cursor ?? '', pageSize: q.pageSize ?? null };
    return exchange(this.synclog, M.customsCollect, request, ctx, async () => {
      const size = checkCollectQuery(q, M.customsCollect);
      const company = this.ctx.company;
      if (!company?.name || !company.taxNumber) throw new TaxGatewayError(TaxErrorCode.invalid, '模拟器未设置本公司名称和税号（开票设置中的销方信息），无法提供海关缴款书', M.customsCollect);
      if (q.cursor !== undefined && !CURSOR.test(q.cursor)) throw new TaxGatewayError(TaxErrorCode.invalid, IncomeMessages.badCursor, M.customsCollect);
      const offset = Number(q.cursor ?? '0');
      const base = this.ctx.sdb.selectFrom('taxsim_customs_notices').where('payer_tax_no', '=', company.taxNumber).where('fill_date', '>=', q.from).where('fill_date', '<=', q.to);
      const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const total = Number(n);
      const rows = await base.selectAll().orderBy('fill_date').orderBy('notice_no').limit(size).offset(offset).execute();
      const notices: CustomsNotice[] = rows.map((r) => ({
        noticeNo: r.notice_no, fillDate: r.fill_date, customsName: r.customs_name, customsCode: r.customs_code, payer: { name: r.payer_name, taxNumber: r.payer_tax_no },
        dutiablePrice: Number(r.dutiable_price), tax: Number(r.tax), state: Number(r.notice_state) as IncomeInvoiceState,
      }));
      const next = offset + notices.length;
      const value: CustomsCollectPage = { notices, total, ...(next < total && notices.length > 0 ? { nextCursor: String(next) } : {}) };
      return {
        value,
        log: { total, count: notices.length, nextCursor: value.nextCursor ?? null, keys: notices.map((x) => x.noticeNo) },
        memo: `采集 ${q.from} 至 ${q.to} 的海关缴款书：本页 ${notices.length} 份，共 ${total} 份${value.nextCursor ? '，未完待续' : ''}`,
      };
    });
  }
}
