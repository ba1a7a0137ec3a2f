/**
 * Outgoing invoices, part 1 (issue 6): request bodies (zod, Chinese messages) and answers of the
 * calls under /api/invoice and /api/invoiceredconfirm. Answers are in ../invoice-types.ts.
 */
import { z } from '../zod-locale.js';
import { InvoiceKind, SourceKind } from '../enums.js';
import { LineProperty, RedReason, SpecialFactor, TaxPolicy, VatUsage, normaliseRate } from '../invoice.js';
import { isDecimalText, MAX_LINES, SPEC_MAX, taxNumberProblem, UNIT_MAX } from '../invoice-rules.js';
import { INT_MAX, PageQuery, Uuid, text } from './common.js';
import { bankAccountField, emailField, mobileField, phoneField } from '../contact-rules.js';
import { IsoTime, optText } from './system.js';

const limited = (max: number, label: string) => text().trim().max(max, `${label}不能超过${max}个字符`);
const required = (max: number, label: string) => limited(max, label).min(1, `请填写${label}`);
const kind = z.union(InvoiceKind.values.map((v) => z.literal(v)) as [z.ZodLiteral<1>, z.ZodLiteral<2>, z.ZodLiteral<9>, z.ZodLiteral<10>], { message: '发票种类不正确' });
const enumOf = <V extends number>(values: readonly V[], message: string) =>
  z.number({ message }).int(message).refine((v): v is V => values.includes(v as V), message);

/** Money in 分 (integer; negative allowed on red invoices). */
export const Fen = z.number({ message: '金额须为数字' }).int('金额须精确到分').min(-1e13, '金额超出范围').max(1e13, '金额超出范围');
export const DecimalText = text().trim().refine(isDecimalText, '须为数字，最多8位小数');
export const TaxNo = text()
  .trim()
  .transform((v) => v.toUpperCase())
  .superRefine((v, ctx) => {
    const p = taxNumberProblem(v);
    if (p) ctx.addIssue({ code: 'custom', message: p });
  });
const OptionalTaxNo = z.union([z.literal(''), TaxNo]);
export const IdList = z.array(Uuid).min(1, '请至少选择一条记录').max(200, '一次最多处理200条');

// ---------------------------------------------------------------- buyers

export const BuyerSaveBody = z.object({
  id: Uuid,
  name: required(100, '购方名称'),
  taxNo: OptionalTaxNo,
  address: limited(100, '地址').default(''),
  phone: phoneField('电话', 30).default(''),
  bank: limited(100, '开户行').default(''),
  account: bankAccountField('账号', 50).default(''),
  email: emailField('交付邮箱', 100).default(''),
  mobile: mobileField('交付手机', 20).default(''),
  defaultKind: kind,
  remark: limited(200, '备注').default(''),
});
export type BuyerSaveBody = z.infer<typeof BuyerSaveBody>;

export const BuyerListQuery = PageQuery.extend({ keyword: optText(100), kind: kind.optional() });
export type BuyerListQuery = z.infer<typeof BuyerListQuery>;

// ---------------------------------------------------------------- settings

export const TaxCodeItem = z.object({
  code: text().trim().regex(/^\d{19}$/, '税收分类编码须为19位数字'),
  name: required(100, '商品和服务名称'),
  shortName: required(40, '简称'),
  taxRate: text().refine((v) => normaliseRate(v) !== null, '税率不在税率表中'),
  policy: enumOf(TaxPolicy.values, '优惠政策不正确').default(0),
});
export type TaxCodeItem = z.infer<typeof TaxCodeItem>;

export const SettingSaveBody = z.object({
  sellerName: required(100, '销方名称'),
  sellerTaxNo: TaxNo,
  sellerAddress: limited(100, '销方地址').default(''),
  sellerPhone: phoneField('销方电话', 30).default(''),
  sellerBank: limited(100, '销方开户行').default(''),
  sellerAccount: bankAccountField('销方账号', 50).default(''),
  clerk: required(20, '开票人'),
  payee: limited(20, '收款人').default(''),
  checker: limited(20, '复核人').default(''),
  defaultKind: kind,
  gatewayMode: z.enum(['simulator', 'nuonuo'], { message: '接口模式不正确' }),
  appKey: limited(100, 'appKey').default(''),
  /** Blank keeps the stored secret (it is never sent back to the browser). */
  appSecret: limited(200, 'appSecret').default(''),
  gatewayTaxNo: OptionalTaxNo.default(''),
  nuonuoUrl: z.union([z.literal(''), text().trim().max(200, '地址过长').url('接口地址格式不正确')]).default(''),
  simulatorDelayMs: z.number({ message: '模拟延迟须为数字' }).int('模拟延迟须为整数').min(0, '模拟延迟不能为负数').max(600_000, '模拟延迟最多600000毫秒'),
  simulatorFailureRate: z.number({ message: '失败率须为数字' }).min(0, '失败率须在0到1之间').max(1, '失败率须在0到1之间'),
  taxCodes: z.array(TaxCodeItem).max(500, '税收分类编码最多500条'),
});
export type SettingSaveBody = z.infer<typeof SettingSaveBody>;

// ---------------------------------------------------------------- invoices

export const InvoiceLineBody = z.object({
  goodsName: required(100, '货物或应税劳务名称'),
  taxCode: text().trim().regex(/^\d{19}$/, '税收分类编码须为19位数字'),
  spec: limited(SPEC_MAX, '规格型号').default(''),
  unit: limited(UNIT_MAX, '单位').default(''),
  quantity: z.union([z.literal(''), DecimalText]).default(''),
  unitPrice: z.union([z.literal(''), DecimalText]).default(''),
  priceIncludesTax: z.boolean().default(true),
  taxRate: text().refine((v) => normaliseRate(v) !== null, '税率不在税率表中'),
  policy: enumOf(TaxPolicy.values, '优惠政策不正确').default(0),
  lineProperty: enumOf(LineProperty.values, '发票行性质不正确').default(0),
  amountExcl: Fen,
  tax: Fen,
  amountIncl: Fen,
});
export type InvoiceLineBody = z.infer<typeof InvoiceLineBody>;

/** The entry form of role 5 (and the correction of a failed request): id is the empty id for a new one. */
export const InvoiceSaveBody = z.object({
  id: Uuid,
  kind,
  buyerId: Uuid.nullable().default(null),
  buyerName: required(100, '购买方名称'),
  buyerTaxNo: OptionalTaxNo.default(''),
  buyerAddress: limited(100, '购买方地址').default(''),
  buyerPhone: phoneField('购买方电话', 30).default(''),
  buyerBank: limited(100, '购买方开户行').default(''),
  buyerAccount: bankAccountField('购买方账号', 50).default(''),
  buyerEmail: emailField('交付邮箱', 100).default(''),
  buyerMobile: mobileField('交付手机', 20).default(''),
  projectId: Uuid.nullable().default(null),
  contractId: Uuid.nullable().default(null),
  specialFactor: enumOf(SpecialFactor.values, '特定业务不正确').default(0),
  constructionSite: limited(100, '建筑服务发生地').default(''),
  constructionProject: limited(100, '建筑项目名称').default(''),
  remark: limited(200, '备注').default(''),
  clerk: limited(20, '开票人').default(''),
  payee: limited(20, '收款人').default(''),
  checker: limited(20, '复核人').default(''),
  lines: z.array(InvoiceLineBody).min(1, '请至少填写一行开票明细').max(MAX_LINES, `开票明细不能超过${MAX_LINES}行`),
});
export type InvoiceSaveBody = z.infer<typeof InvoiceSaveBody>;

export const INVOICE_SORT_FIELDS = ['createdAt', 'updatedAt', 'issuedAt', 'amountIncl', 'buyerName', 'orderNo'] as const;

/** The filters the issuing, retry and cancellation lists share. */
export const InvoiceListQuery = PageQuery.extend({
  keyword: optText(100),
  buyerName: optText(100),
  orderNo: optText(40),
  invoiceNo: optText(40),
  kind: kind.optional(),
  status: z.number().int().min(-INT_MAX).max(INT_MAX).optional(),
  source: enumOf(SourceKind.values, '来源不正确').optional(),
  projectId: Uuid.optional(),
  contractId: Uuid.optional(),
  from: IsoTime.optional(),
  to: IsoTime.optional(),
});
export type InvoiceListQuery = z.infer<typeof InvoiceListQuery>;

export const InvoiceIdBody = z.object({ id: Uuid });
export const IssueBody = z.object({ ids: IdList });
export const RefreshBody = z.object({ ids: z.array(Uuid).max(200, '一次最多处理200条').default([]) });
export const InvalidBody = z.object({ id: Uuid, reason: required(200, '原因') });
/** 22: corrected data under a new order number; 24: the same serial again (no body needed). */
export const RetryBody = z.object({ id: Uuid, correction: InvoiceSaveBody.optional() });
export const CancelBody = z.object({ ids: IdList, reason: required(200, '作废原因') });

export const InvoiceSyncLogQuery = PageQuery.extend({
  invoiceId: Uuid.optional(),
  orderNo: optText(40),
  method: optText(100),
  status: z.union([z.literal(0), z.literal(1)], { message: '状态不正确' }).optional(),
  from: IsoTime.optional(),
  to: IsoTime.optional(),
});
export type InvoiceSyncLogQuery = z.infer<typeof InvoiceSyncLogQuery>;

export const FileTicketBody = z.object({ fileId: Uuid });

export const ReferenceQuery = z.object({ keyword: optText(100), customer: optText(100) });

// ---------------------------------------------------------------- red-letter confirmations

export const RedConfirmId = z.number({ message: '确认单编号不正确' }).int('确认单编号不正确').positive('确认单编号不正确').max(INT_MAX, '确认单编号不正确');
export const RedConfirmIdBody = z.object({ id: RedConfirmId });
export const RedConfirmListQuery = PageQuery.extend({
  state: optText(4),
  /** mine: applications we made; theirs: buyers' applications to us. */
  direction: z.enum(['seller', 'buyer']).optional(),
  keyword: optText(100),
  from: IsoTime.optional(),
  to: IsoTime.optional(),
});
export type RedConfirmListQuery = z.infer<typeof RedConfirmListQuery>;

export const RedConfirmCreateBody = z.object({ blueInvoiceId: Uuid });
export const RedConfirmSaveBody = z.object({
  id: RedConfirmId,
  redReason: enumOf(RedReason.values, '请选择红冲原因'),
  vatUsage: enumOf(VatUsage.values, '请选择增值税用途'),
  /** The blue invoice's line numbers to reverse, with the quantity or amount share; empty = the whole invoice. */
  lines: z
    .array(z.object({ lineNo: z.number().int().min(1, '行号不正确'), amountIncl: Fen.max(-1, '红冲金额须为负数') }))
    .max(MAX_LINES, `明细不能超过${MAX_LINES}行`)
    .default([]),
});
export type RedConfirmSaveBody = z.infer<typeof RedConfirmSaveBody>;
export const RedConfirmRefuseBody = z.object({ id: RedConfirmId, reason: required(200, '拒绝原因') });

export const BlueCandidateQuery = PageQuery.extend({ keyword: optText(100) });

