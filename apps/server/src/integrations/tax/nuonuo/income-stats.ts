/**
 * The Nuonuo client's period statistics (抵扣统计 / 退税统计). Method names and fields are NOT CONFIRMED
 * (exchange.ts IncomeMethods.stat*; docs/tax-gateway.md): 申请/撤销统计 { skssq, tjlx 1 抵扣 / 2 退税,
 * tjbz 1 申请 / 0 撤销 }, 确认/撤销确认 { qrssq, tjlx, qrbz 1 确认 / 0 撤销 }, 统计结果查询 { skssq, tjlx }
 * answering { tjzt 0 / 1 / 2, gxjzrq, list: [{ fplx, fs, je, se, yxse }] }. The bureau's refusal codes
 * 08 / 09 / 10 become our messages word for word; other refusals keep the service's describe.
 * After an action the figures are asked again (one more logged call).
 */
import { TaxErrorCode, TaxGatewayError } from '../errors.js';
import { IncomeMethods as M, type TaxMethod } from '../exchange.js';
import type { IncomeStatGateway, NonDeductReason, PeriodStatState, StatDetailItem, StatDetailPage, StatDetailQuery, StatFigures, StatKindRow, StatRequest, TickUsage } from '../income-types.js';
import { yuanToFen } from '../money.js';
import { checkStatRequest, detailPaging, STAT_DETAIL_USAGES, StatCodes, StatMessages } from '../stat-rules.js';
import { defaultDeadline } from '../tick-rules.js';
import type { TaxCallContext } from '../types.js';
import type { NuonuoTransport } from './transport.js';

type Obj = Record<string, unknown>;
const str = (v: unknown) => (v === undefined || v === null ? '' : String(v));
const SHANGHAI_MS = 8 * 3600_000;
const BUREAU: Record<string, string> = { [StatCodes.duplicateConfirm]: StatMessages.duplicateConfirm, [StatCodes.sameMonth]: StatMessages.sameMonth, [StatCodes.noRevoke]: StatMessages.noRevoke };
const tjlx = (r: StatRequest) => (r.scope === 'deduction' ? '1' : '2');

/** Nuonuo's 统计结果 -> ours (money in 元 strings -> 分; totals summed from the rows so that they add up). */
export function fromStatResult(r: StatRequest, o: Obj): StatFigures {
  const rows: StatKindRow[] = (Array.isArray(o.list) ? (o.list as Obj[]) : []).map((x) => ({
    kind: str(x.fplx),
    count: Number(x.fs ?? 0),
    amountExcludingTax: yuanToFen(str(x.je) || '0'),
    tax: yuanToFen(str(x.se) || '0'),
    effectiveTax: yuanToFen(str(x.yxse) || str(x.se) || '0'),
  }));
  const totals = rows.reduce((a, x) => ({ count: a.count + x.count, amountExcludingTax: a.amountExcludingTax + x.amountExcludingTax, tax: a.tax + x.tax, effectiveTax: a.effectiveTax + x.effectiveTax }), { count: 0, amountExcludingTax: 0, tax: 0, effectiveTax: 0 });
  const end = str(o.gxjzrq);
  const deadline = /^\d{4}-\d{2}-\d{2}/.test(end) ? new Date(Date.parse(`${end.slice(0, 10)}T${end.length >= 19 ? end.slice(11, 19) : '23:59:59'}.000Z`) - SHANGHAI_MS).toISOString() : defaultDeadline(r.period);
  const st = Number(o.tjzt ?? 0);
  return { period: r.period, scope: r.scope, state: (st === 1 || st === 2 ? st : 0) as PeriodStatState, deadline, rows, totals };
}

/**
 * One invoice of Nuonuo's statistics detail -> ours: { fplx, fpdm, fphm, qdfphm, kprq, se, yxse, gxyt (勾选用途 1 抵扣,
 * 2 出口退税, 3 代办退税, 4 不抵扣), bdkyy, gxsj } (元 -> 分; a 数电 invoice or a customs notice is keyed by its number).
 * Null when the line names no invoice or a usage outside the scope (the caller says so).
 */
export function fromStatDetail(r: StatRequest, o: Obj): StatDetailItem | null {
  const digital = str(o.qdfphm);
  const code = str(o.fpdm);
  const no = str(o.fphm);
  const key = digital || `${code}${no}`;
  const usage = Number(o.gxyt ?? (r.scope === 'deduction' ? 1 : 2));
  if (!key || !STAT_DETAIL_USAGES[r.scope].includes(usage)) return null;
  const tax = yuanToFen(str(o.se) || '0');
  const reason = Number(o.bdkyy ?? 0);
  const at = str(o.gxsj);
  return {
    key, kind: str(o.fplx), invoiceCode: digital ? '' : code, invoiceNo: digital || no, issueDate: str(o.kprq).slice(0, 10),
    usage: usage as TickUsage, reason: usage === 4 && reason >= 1 && reason <= 5 ? (reason as NonDeductReason) : null,
    tax, effectiveTax: usage === 1 ? yuanToFen(str(o.yxse) || str(o.se) || '0') : tax,
    tickedAt: /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(at) ? new Date(Date.parse(`${at.replace(' ', 'T')}.000Z`) - SHANGHAI_MS).toISOString() : '',
  };
}

export class NuonuoStats implements IncomeStatGateway {
  constructor(private readonly t: NuonuoTransport) {}

  async statFigures(r: StatRequest, ctx?: TaxCallContext): Promise<StatFigures> {
    checkStatRequest(r, M.statFigures);
    const answer = await this.t.call(M.statFigures, { skssq: r.period, tjlx: tjlx(r) }, ctx);
    return fromStatResult(r, (answer.result ?? {}) as Obj);
  }

  /** 抵扣统计明细: one page; a line the client cannot read is refused as a whole (never silently dropped). */
  async statDetails(r: StatDetailQuery, ctx?: TaxCallContext): Promise<StatDetailPage> {
    checkStatRequest(r, M.statDetails);
    const { pageNo, pageSize } = detailPaging(r, M.statDetails);
    const answer = await this.t.call(M.statDetails, { skssq: r.period, tjlx: tjlx(r), pageNo, pageSize }, ctx);
    const o = (answer.result ?? {}) as Obj;
    const lines = Array.isArray(o.list) ? (o.list as Obj[]) : [];
    const items = lines.map((x) => fromStatDetail(r, x));
    if (items.some((x) => x === null)) throw new TaxGatewayError(TaxErrorCode.invalid, '税务端统计明细含有无法识别的发票或勾选用途', M.statDetails);
    return { items: items as StatDetailItem[], total: Number(o.total ?? lines.length), pageNo, pageSize };
  }

  private async act(method: TaxMethod, body: Obj, r: StatRequest, ctx?: TaxCallContext): Promise<StatFigures> {
    checkStatRequest(r, method);
    const answer = await this.t.call(method, body, ctx, Object.keys(BUREAU));
    const known = BUREAU[answer.code];
    if (known) throw new TaxGatewayError(answer.code, known, method);
    return this.statFigures(r, ctx);
  }

  applyStat(r: StatRequest, ctx?: TaxCallContext): Promise<StatFigures> {
    return this.act(M.statApply, { skssq: r.period, tjlx: tjlx(r), tjbz: '1' }, r, ctx);
  }

  revokeStatApply(r: StatRequest, ctx?: TaxCallContext): Promise<StatFigures> {
    return this.act(M.statApply, { skssq: r.period, tjlx: tjlx(r), tjbz: '0' }, r, ctx);
  }

  confirmStat(r: StatRequest, ctx?: TaxCallContext): Promise<StatFigures> {
    return this.act(M.statConfirm, { qrssq: r.period, tjlx: tjlx(r), qrbz: '1' }, r, ctx);
  }

  revokeStatConfirm(r: StatRequest, ctx?: TaxCallContext): Promise<StatFigures> {
    return this.act(M.statConfirm, { qrssq: r.period, tjlx: tjlx(r), qrbz: '0' }, r, ctx);
  }
}
