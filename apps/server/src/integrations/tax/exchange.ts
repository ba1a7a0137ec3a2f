/**
 * One exchange with the tax service = one integrated sync log row (system tax), written through
 * app.synclog.track: the method as type, the request and a loggable answer as bodies, a Chinese memo.
 * File contents never go into the log (only their names and sizes), nor do secrets or tokens.
 */
import { SyncSystem } from '@zhyy/shared';
import type { SyncLogService } from '../../platform/synclog.js';
import type { TaxCallContext, TaxInvoiceFile } from './types.js';

/**
 * Nuonuo's method names of the incoming-invoice (进项) calls, used by both the client and the
 * simulator's sync log rows. NOT CONFIRMED: no public document or SDK reachable while this was built
 * names the 诺诺 进项 collection and 查验 methods; these follow the naming of the outgoing methods and
 * must be checked (and corrected here, in this one place) in the first joint test with Nuonuo. The
 * 查验 request fields (invoiceCode, invoiceNo, invoiceDate, optionField) follow a public
 * integration of 诺诺发票查验 (npm n8n-nodes-ylhc-nuonuo).
 */
export const IncomeMethods = {
  collect: 'nuonuo.OpeMplatform.queryIncomeInvoice',
  verify: 'nuonuo.OpeMplatform.invoiceInspection',
  /**
   * Ticking (勾选), NOT CONFIRMED either: Nuonuo's public documents reachable while this was built do not
   * name its 进项勾选 methods. Named plainly after the outgoing ones; the request fields follow the tax
   * platform's own names that the published 进项勾选 interfaces of other channels relay (skssq 税款所属期,
   * gxlx 勾选类型 1 抵扣 2 退税 3 代办退税 4 不抵扣 6 撤销抵扣 7 撤销不抵扣 13 撤销退税, bdkyy 不抵扣原因,
   * fpdm / fphm / qdfphm / kprq / yxse). Correct here after the first joint test.
   */
  period: 'nuonuo.OpeMplatform.queryCurrentTaxPeriod',
  tick: 'nuonuo.OpeMplatform.invoiceCheck',
  untick: 'nuonuo.OpeMplatform.invoiceCheckCancel',
  /**
   * 海关缴款书勾选 and its undo, NOT CONFIRMED either: the tax platform ticks 海关进口增值税专用缴款书 through a
   * call of its own (the notice's number jkshm, 填发日期 tfrq, 有效税额 yxse), as the 进项 channels that
   * publish theirs do. Named after the invoices' calls; correct here after the first joint test.
   */
  customsTick: 'nuonuo.OpeMplatform.customsPaymentCheck',
  /**
   * 海关缴款书采集, NOT CONFIRMED either: no public Nuonuo document names it. The bureau's 进项 interfaces list the
   * customs notices' collection apart from the invoices' (one published channel's list: 实时海关缴款书查询
   * `…taxdigital.customs.query`, 海关缴款书采集查询 `…taxdigital.customs.gather`, with tfrqq / tfrqz 填发日期起止 and
   * hgjkshm 海关缴款书号码; another's: 单张海关缴款书采集). Named after the invoices' collection; the fields follow those
   * names (docs/tax-gateway.md "Customs notices: collection"). Correct here after the first joint test.
   */
  customsCollect: 'nuonuo.OpeMplatform.queryCustomsPayment',
  customsUntick: 'nuonuo.OpeMplatform.customsPaymentCheckCancel',
  /**
   * Period statistics (统计), NOT CONFIRMED: named after the calls other 进项 channels publish (申请/撤销统计
   * with a flag, 统计结果查询, 申请/撤销确认 with qrbz 1 / 0 and qrssq); see docs/tax-gateway.md.
   */
  statFigures: 'nuonuo.OpeMplatform.queryStatisticsResult',
  statApply: 'nuonuo.OpeMplatform.applyStatistics',
  statConfirm: 'nuonuo.OpeMplatform.confirmStatistics',
  /**
   * 抵扣统计明细 / 已勾选发票查询 (issue 32 item 1), NOT CONFIRMED either: named after the statistics calls; the
   * fields follow the vendors' published detail calls (skssq, tjlx, pageNo / pageSize; list[{ fplx, fpdm, fphm,
   * qdfphm, kprq, se, yxse, gxyt, bdkyy, gxsj }], total). See docs/tax-gateway.md "The bureau's counted invoices".
   */
  statDetails: 'nuonuo.OpeMplatform.queryStatisticsInvoices',
  /**
   * 入账标识 (booking flag), NOT CONFIRMED either: no reachable public Nuonuo document names it. Named after the
   * 发票入账提交 of another channel's published 进项 interface (`…taxdigital.entry.operate`); the request fields
   * follow the tax platform's names (fpdm / fphm / qdfphm / kprq, rzzt 入账状态 01/02/03/06, rzrq 入账日期).
   * Correct here after the first joint test.
   */
  booking: 'nuonuo.OpeMplatform.invoiceEntryOperate',
  /**
   * 发票状态查询 (the status re-check, issue 32), NOT CONFIRMED either: no reachable public Nuonuo document names
   * it. Named after the 发票状态查询 of another channel's published 进项 interface (`…taxdigital.query.invoicequery`:
   * fpdm / fphm / qdfphm with the issue dates); the answer's fields follow the tax platform's names (fpzt 发票状态
   * 0/1/2/3/7/8, fxdj 风险等级 01/02/03, ztbgsj 状态变更时间). Correct here after the first joint test.
   */
  status: 'nuonuo.OpeMplatform.queryInvoiceStatus',
} as const;

/** Method names (Nuonuo's) and their Chinese names for the sync log screen. */
export const TaxMethods = {
  accessToken: '获取访问令牌',
  'nuonuo.OpeMplatform.requestBillingNew': '请求开票',
  'nuonuo.OpeMplatform.queryInvoiceResult': '查询开票结果',
  'nuonuo.OpeMplatform.reInvoice': '重新开票',
  'nuonuo.electronInvoice.invoiceCancellation': '发票作废',
  'nuonuo.OpeMplatform.saveInvoiceRedConfirm': '红字确认单申请',
  'nuonuo.OpeMplatform.queryInvoiceRedConfirm': '红字确认单查询',
  'nuonuo.OpeMplatform.refreshInvoiceRedConfirm': '红字确认单下载',
  'nuonuo.OpeMplatform.confirm': '红字确认单确认',
  'nuonuo.OpeMplatform.confirmInfoCancel': '红字确认单撤销',
  'nuonuo.OpeMplatform.deliveryInvoice': '发票交付',
  [IncomeMethods.collect]: '进项发票采集',
  [IncomeMethods.verify]: '发票查验',
  [IncomeMethods.period]: '当前税款所属期',
  [IncomeMethods.tick]: '发票勾选',
  [IncomeMethods.untick]: '撤销勾选',
  [IncomeMethods.customsTick]: '海关缴款书勾选',
  [IncomeMethods.customsCollect]: '海关缴款书采集',
  [IncomeMethods.customsUntick]: '撤销海关缴款书勾选',
  [IncomeMethods.statFigures]: '统计结果查询',
  [IncomeMethods.statApply]: '申请/撤销统计',
  [IncomeMethods.statConfirm]: '确认/撤销确认统计',
  [IncomeMethods.statDetails]: '统计发票明细查询',
  [IncomeMethods.booking]: '入账标识',
  [IncomeMethods.status]: '发票状态查询',
} as const;
export type TaxMethod = keyof typeof TaxMethods;

/** The Chinese name of a sync log type written by the gateway (the type itself when unknown). */
export const taxMethodLabel = (type: string): string => (TaxMethods as Record<string, string>)[type] ?? type;

/** Files as the log shows them. */
export const fileSummary = (files: TaxInvoiceFile[]) => files.map((f) => ({ type: f.type, fileName: f.fileName, bytes: f.content.length }));

const REF_KEYS = new Set(['orderNo', 'serialNo', 'serialNos', 'orderNos', 'billNo', 'billId', 'billIds', 'invoiceNo', 'invoiceNum', 'redOrderNo', 'blueInvoiceNo', 'invoiceKey']);

/** The business keys named anywhere in a request (order and serial numbers, bill ids…), for the sync log's refs. */
export function refsOf(request: unknown, out: string[] = [], depth = 0): string[] {
  if (depth > 4 || request === null || typeof request !== 'object') return out;
  for (const [k, v] of Object.entries(request as Record<string, unknown>)) {
    if (REF_KEYS.has(k) && typeof v === 'string') {
      if (v) out.push(v);
    } else if (REF_KEYS.has(k) && Array.isArray(v)) {
      for (const x of v) if (typeof x === 'string' && x) out.push(x);
    } else if (typeof v === 'object') {
      refsOf(v, out, depth + 1);
    }
  }
  return out;
}

/**
 * Runs `call` as one logged exchange. `call` returns the full value and what the log keeps of it
 * (`log`), so heavy or secret parts stay out of the row.
 */
export async function exchange<T>(
  synclog: SyncLogService,
  method: TaxMethod,
  request: unknown,
  ctx: TaxCallContext | undefined,
  call: () => Promise<{ value: T; log: unknown; memo: string }>,
  /** The business keys of the row; by default those named in the request. */
  refs: readonly string[] = refsOf(request),
): Promise<T> {
  let value: T | undefined;
  let memo = '成功';
  await synclog.track({ system: SyncSystem.tax, type: method, request, userId: ctx?.userId ?? null, refs }, async () => {
    const out = await call();
    value = out.value;
    memo = out.memo;
    return out.log;
  }, () => memo);
  return value as T;
}
