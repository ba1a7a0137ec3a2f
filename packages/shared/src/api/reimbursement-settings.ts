/**
 * 费用报销: the calls of settings/ (报销设置, /reimbursement/cost-setting, roles 1 and 12): expense
 * categories, department cost centres, travel standards (grade × city tier), city tiers, people's
 * grades, the invoice age limit and the accounting system's interface. Money in 分.
 */
import { z } from '../zod-locale.js';
import { PageQuery, text, Uuid } from './common.js';
import { ReimbCityTier, ReimbGrade, ReimbTravelKind } from './reimbursement.js';
import { TAX_RATE_VALUES } from '../invoice.js';
import { TRAVEL_CLASSES } from '../travel-classes.js';

/** The VAT rates a category may default to (as stored: '0.09'): the shared list (invoice.ts). */
export const REIMB_TAX_RATES = TAX_RATE_VALUES;
/** The seat classes the travel standards name (comma-separated in storage): the one order (travel-classes.ts). */
export const REIMB_SEAT_CLASSES = TRAVEL_CLASSES;

const reqText = (label: string, max: number) => text({ error: `请填写${label}` }).trim().min(1, `请填写${label}`).max(max, `${label}不能超过${max}个字符`);
const oneOf = <V extends number | string>(values: readonly V[], message: string) =>
  z.union([z.number(), z.string()], { message }).refine((v): v is V => values.includes(v as V), message);
const fen = (label: string) => z.number({ error: `${label}须为数字` }).int(`${label}须精确到分`).min(0, `${label}不能为负数`).max(100_000_000, `${label}超出范围`);

export const ReimbCategoryCode = text({ error: '请填写类别编码' }).trim().regex(/^[0-9A-Za-z_-]{1,20}$/, '类别编码为1至20位字母、数字、下划线或短横线');
export const ReimbCategoryBody = z.object({
  code: ReimbCategoryCode,
  name: reqText('类别名称', 30),
  travelKind: oneOf(ReimbTravelKind.values, '差旅标准类型不正确'),
  subjectCode: text({ error: '请填写科目编码' }).trim().regex(/^\d{4}(\.\d{2,4})*$/, '科目编码格式应为 6602 或 6602.01'),
  subjectName: reqText('科目名称', 50),
  defaultTaxRate: oneOf(REIMB_TAX_RATES, '默认税率不正确'),
  sort: z.number({ error: '排序须为数字' }).int('排序须为整数').min(0, '排序不能为负数').max(9999, '排序不能超过9999').default(0),
});
export type ReimbCategoryBody = z.infer<typeof ReimbCategoryBody>;
export const ReimbCategoryCodeBody = z.object({ code: ReimbCategoryCode });
export const ReimbCategoryEnableBody = z.object({ code: ReimbCategoryCode, enabled: z.boolean({ error: '请选择是否启用' }) });

export const ReimbCostCentreBody = z.object({
  deptId: Uuid,
  centreCode: text({ error: '请填写成本中心编码' }).trim().regex(/^[0-9A-Za-z._-]{1,30}$/, '成本中心编码为1至30位字母、数字、点、下划线或短横线'),
  centreName: reqText('成本中心名称', 50),
});
export const ReimbDeptBody = z.object({ deptId: Uuid });

const seatClasses = z
  .array(oneOf(REIMB_SEAT_CLASSES, '席别不正确'), { error: '请选择可乘坐的席别' })
  .min(1, '请至少选择一种席别')
  .max(REIMB_SEAT_CLASSES.length, '席别过多');
export const ReimbStandardItem = z.object({
  grade: oneOf(ReimbGrade.values, '职级不正确'),
  cityTier: oneOf(ReimbCityTier.values, '城市分类不正确'),
  hotelPerNight: fen('住宿标准'),
  seatClasses,
  allowancePerDay: fen('补助标准'),
});
export const ReimbStandardsBody = z.object({ items: z.array(ReimbStandardItem).min(1, '请填写差旅标准').max(9, '差旅标准最多9项') });
export type ReimbStandardsBody = z.infer<typeof ReimbStandardsBody>;

export const ReimbCityName = text({ error: '请填写城市' }).trim().min(1, '请填写城市').max(20, '城市不能超过20个字符').regex(/^[\u4e00-\u9fa5A-Za-z·]+$/, '城市名称只能包含汉字或字母');
export const ReimbCityBody = z.object({ city: ReimbCityName, tier: oneOf([ReimbCityTier.first, ReimbCityTier.second] as const, '城市分类只能是一类或二类（未列出的城市为其他城市）') });
export const ReimbCityDeleteBody = z.object({ city: ReimbCityName });

export const ReimbGradeListQuery = PageQuery.extend({
  keyword: text().trim().max(50, '关键字不能超过50个字符').optional(),
  deptId: Uuid.optional(),
});
export type ReimbGradeListQuery = z.infer<typeof ReimbGradeListQuery>;
/** grade '' returns the person to the default rule (部门负责人 for a department's manager, else 员工). */
export const ReimbGradeBody = z.object({ userId: Uuid, grade: oneOf(['', ...ReimbGrade.values] as const, '职级不正确') });

export const ReimbInvoiceAgeBody = z.object({
  invoiceAgeDays: z.number({ error: '发票期限须为数字' }).int('发票期限须为整数天').min(1, '发票期限至少1天').max(3650, '发票期限不能超过3650天'),
});

export const ReimbAccountingMode = ['simulator', 'http'] as const;
export const ReimbAccountingBody = z.object({
  mode: oneOf(ReimbAccountingMode, '接口模式不正确'),
  /** The i8 endpoint (http mode). */
  url: text().trim().max(300, '接口地址不能超过300个字符').default(''),
  /** Left empty: the stored credential stays. */
  token: text().max(500, '接口密钥不能超过500个字符').default(''),
  timeoutMs: z.number({ error: '超时须为数字' }).int('超时须为整数毫秒').min(1000, '超时至少1000毫秒').max(120_000, '超时不能超过120000毫秒').default(15_000),
});
export type ReimbAccountingBody = z.infer<typeof ReimbAccountingBody>;

export interface ReimbCategoryView {
  code: string;
  name: string;
  travelKind: string;
  subjectCode: string;
  subjectName: string;
  defaultTaxRate: string;
  sort: number;
  enabled: boolean;
  /** Lines of bills using it (such a category can only be disabled). */
  usedCount: number;
}
export interface ReimbCostCentreView {
  deptId: string;
  deptName: string;
  /** 财务部 / 工程管理部 / 工程一部: the department's path. */
  deptPath: string;
  parentId: string | null;
  centreCode: string;
  centreName: string;
}
export interface ReimbStandardView {
  grade: string;
  cityTier: number;
  hotelPerNight: number;
  seatClasses: string[];
  allowancePerDay: number;
}
export interface ReimbCityView {
  city: string;
  tier: number;
}
export interface ReimbGradeRow {
  userId: string;
  name: string;
  loginName: string;
  deptName: string;
  position: string;
  /** As set in 报销设置 ('' when the default rule applies). */
  grade: string;
  /** The grade in effect. */
  effectiveGrade: string;
  isManager: boolean;
}
export interface ReimbAccountingView {
  mode: 'simulator' | 'http';
  url: string;
  timeoutMs: number;
  /** Whether a credential is stored (it is never sent back). */
  tokenSet: boolean;
  /** Whether 报销设置 holds the configuration ('env': the server's ACCOUNTING_* environment applies). */
  source: 'setting' | 'env';
}
export interface ReimbSettingView {
  categories: ReimbCategoryView[];
  costCentres: ReimbCostCentreView[];
  standards: ReimbStandardView[];
  cities: ReimbCityView[];
  invoiceAgeDays: number;
  accounting: ReimbAccountingView;
}
