/**
 * The checks the tax service applies to an invoice request before accepting it (DOMAIN.md
 * "Outgoing invoices"), with the service's kind of Chinese refusal. The simulator applies them; the
 * invoice module runs its own checks earlier, so these are the last line, as at the real service.
 */
import { Decimal } from 'decimal.js';
import { TaxErrorCode, TaxGatewayError } from './errors.js';
import { isDecimalString, lineAmount } from './money.js';
import type { TaxInvoiceRequest } from './types.js';

const KINDS = new Set([1, 2, 9, 10]);
const RATES = new Set(['0.13', '0.09', '0.06', '0.05', '0.03', '0.015', '0.01', '0']);
/** 6 分: |amount × rate − tax| may not exceed 0.06 元. */
const TAX_TOLERANCE = 6;
/** 1 分: quantity × unit price may differ from the amount by rounding only. */
const PRICE_TOLERANCE = 1;

const refuse = (message: string) => new TaxGatewayError(TaxErrorCode.invalid, message, 'nuonuo.OpeMplatform.requestBillingNew');

const normRate = (rate: string) => (isDecimalString(rate, 4) ? new Decimal(rate).toFixed() : rate);

export function checkInvoiceRequest(req: TaxInvoiceRequest): void {
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(req.orderNo)) throw refuse('订单号须为1至40位字母、数字、下划线或短横线');
  if (!KINDS.has(req.kind)) throw refuse('发票种类无效');
  if (req.colour !== 1 && req.colour !== 2) throw refuse('发票颜色无效');
  if (!req.buyer.name.trim()) throw refuse('购买方名称不能为空');
  if ((req.kind === 2 || req.kind === 9) && !req.buyer.taxNumber) throw refuse('专用发票必须填写购买方纳税人识别号');
  if (!req.seller.taxNumber) throw refuse('销售方纳税人识别号不能为空');
  if (`${req.buyer.address ?? ''}${req.buyer.phone ?? ''}`.length > 100) throw refuse('购买方地址和电话合计不能超过100个字符');
  if (!req.clerk.trim()) throw refuse('开票人不能为空');
  if (req.specialFactor === 31 && (!req.projectName || !req.projectSite)) throw refuse('建筑服务发票必须填写建筑项目名称和建筑服务发生地');
  if (req.colour === 2) {
    if (!req.redReason) throw refuse('红字发票必须填写冲红原因');
    if (!req.blueInvoiceNo) throw refuse('红字发票必须填写对应蓝字发票号码');
  }
  if (req.lines.length === 0) throw refuse('发票明细不能为空');
  if (req.lines.length > 2000) throw refuse('发票明细不能超过2000行');
  req.lines.forEach((line, i) => checkLine(req, line, i + 1));
}

function checkLine(req: TaxInvoiceRequest, line: TaxInvoiceRequest['lines'][number], no: number): void {
  const at = `第${no}行明细`;
  if (!line.goodsName.trim()) throw refuse(`${at}商品名称不能为空`);
  if (!/^\d{19}$/.test(line.taxCode)) throw refuse(`${at}税收分类编码须为19位数字`);
  if (!isDecimalString(line.taxRate, 4) || !RATES.has(normRate(line.taxRate))) throw refuse(`${at}税率无效`);
  for (const [name, value] of [['数量', line.quantity], ['单价', line.unitPrice]] as const) {
    if (value !== undefined && !isDecimalString(value)) throw refuse(`${at}${name}须为最多8位小数的数字`);
  }
  if (line.amountExcludingTax + line.tax !== line.amountIncludingTax) throw refuse(`${at}不含税金额与税额之和不等于含税金额`);
  const expectedTax = new Decimal(line.amountExcludingTax).mul(line.taxRate);
  if (expectedTax.minus(line.tax).abs().gt(TAX_TOLERANCE)) throw refuse(`${at}税额与金额×税率相差超过0.06元`);
  if (line.quantity !== undefined && line.unitPrice !== undefined) {
    const basis = line.priceIncludesTax ? line.amountIncludingTax : line.amountExcludingTax;
    if (Math.abs(lineAmount(line.quantity, line.unitPrice) - basis) > PRICE_TOLERANCE) throw refuse(`${at}数量×单价与金额不符`);
  }
  if (req.colour === 2) {
    if (line.lineProperty !== 0) throw refuse(`${at}红字发票只能包含正常行`);
    if (line.quantity !== undefined && !line.quantity.startsWith('-')) throw refuse(`${at}红字发票数量须为负数`);
    if (line.amountIncludingTax >= 0) throw refuse(`${at}红字发票金额须为负数`);
  } else if (line.lineProperty !== 1 && line.amountIncludingTax <= 0) {
    throw refuse(`${at}蓝字发票金额须大于0`);
  }
}
