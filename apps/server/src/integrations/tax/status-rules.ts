/**
 * 发票状态查询 (the status re-check, issue 32 item 2): the batch rules both implementations apply before asking
 * the service — at most STATUS_BATCH_MAX invoices, numbers as for ticking (8-digit number with its 10/12-digit
 * code, or the 20-digit 数电 number), an issue date, no duplicate — and the words of the answer.
 *
 * The codes are the tax platform's as the 进项 channels relay them: 发票状态 0 正常, 1 失控, 2 作废, 3 已红冲,
 * 7 部分红冲, 8 全额红冲; 风险等级 01 正常, 02 异常凭证, 03 疑点发票 (docs/income.md "The status re-check", sources).
 */
import { TaxErrorCode, TaxGatewayError } from './errors.js';
import type { StatusItem } from './income-types.js';
import { tickKey } from './tick-rules.js';

/** At most this many invoices in one status query (ours; the service's own limit is to be confirmed). */
export const STATUS_BATCH_MAX = 100;

export const statusKey = tickKey;

export const StatusMessages = {
  notFound: '税务端无此发票信息',
} as const;

export function checkStatusItems(items: readonly StatusItem[], method: string): void {
  const invalid = (message: string) => new TaxGatewayError(TaxErrorCode.invalid, message, method);
  if (!items.length) throw invalid('请至少选择一张发票');
  if (items.length > STATUS_BATCH_MAX) throw invalid(`一次最多查询${STATUS_BATCH_MAX}张发票的状态`);
  const seen = new Set<string>();
  for (const i of items) {
    if (!/^(\d{8}|\d{20})$/.test(i.invoiceNo) || (i.invoiceNo.length === 8 && !/^\d{10}(\d{2})?$/.test(i.invoiceCode))) throw invalid(`发票号码不正确：${i.invoiceCode}${i.invoiceNo}`);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(i.issueDate)) throw invalid(`开票日期不正确：${i.issueDate}`);
    const k = statusKey(i);
    if (seen.has(k)) throw invalid(`同一批次中发票重复：${k}`);
    seen.add(k);
  }
}
