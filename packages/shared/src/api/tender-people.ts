/**
 * 投标管理 — people and certificates (issue 17): /api/tender/personnel/*, /api/tender/title/*,
 * /api/tender/certificate/*, /api/tender/cert-kind/*. Days 'YYYY-MM-DD'; the rules are in
 * ../tender-people.ts and ../tender-rules.ts (certState).
 */
import { z } from '../zod-locale.js';
import { Education, Gender, idCardProblem, TitleLevel } from '../tender-people.js';
import type { CertState } from '../tender-rules.js';
import { isoDay, PageQuery, text, Uuid } from './common.js';

const oneOf = <V extends number | string>(values: readonly V[], message: string) =>
  z.union([z.number(), z.string()], { message }).transform((v) => (typeof values[0] === 'number' ? Number(v) : v) as V).refine((v) => values.includes(v), message);
const reqText = (label: string, max: number) => text({ error: `请填写${label}` }).trim().min(1, `请填写${label}`).max(max, `${label}不能超过${max}个字符`);
const optText = (label: string, max: number) => text().trim().max(max, `${label}不能超过${max}个字符`).default('');
const filterText = (label: string, max: number) => text().trim().max(max, `${label}不能超过${max}个字符`).optional();
/** An optional day: '' and null mean none. */
const optDay = () => z.union([isoDay(), z.literal(''), z.null()]).optional().transform((v) => v || null);
/** Scan file ids (the attachment area's), at most 20. */
const FileIds = z.array(text().min(1).max(64), { error: '扫描件格式不正确' }).max(20, '扫描件最多20个').default([]);

// ---- 人员信息 ----

export const PersonnelQuery = PageQuery.extend({
  keyword: filterText('姓名', 50),
  deptId: Uuid.optional(),
  education: oneOf(Education.values, '学历不正确').optional(),
  /** Holds a certificate of this kind. */
  kindId: Uuid.optional(),
  /** Includes disabled users. */
  includeDisabled: z.boolean().optional(),
});
export type PersonnelQuery = z.infer<typeof PersonnelQuery>;
export const PersonnelExportQuery = PersonnelQuery.omit({ pageIndex: true, pageSize: true });

export const PersonnelUserBody = z.object({ userId: Uuid });
export type PersonnelUserBody = z.infer<typeof PersonnelUserBody>;

export const PersonnelBody = z
  .object({
    userId: Uuid,
    idCard: z.union([z.literal(''), text().trim().toUpperCase().superRefine((v, ctx) => {
      const problem = idCardProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })]).default(''),
    gender: oneOf(Gender.values, '性别不正确').default(0),
    birthDate: optDay(),
    education: oneOf(Education.values, '学历不正确').default(0),
    school: optText('毕业院校', 50),
    major: optText('专业', 50),
    graduationDate: optDay(),
    hireDate: optDay(),
    remark: optText('备注', 500),
  })
  .refine((b) => !b.birthDate || !b.graduationDate || b.graduationDate > b.birthDate, { message: '毕业日期须晚于出生日期', path: ['graduationDate'] });
export type PersonnelBody = z.input<typeof PersonnelBody>;

export const PersonnelOptionsQuery = z.object({ keyword: filterText('关键字', 50) });

export interface PersonnelRow {
  userId: string;
  name: string;
  loginName: string;
  deptId: string | null;
  deptName: string;
  position: string;
  active: boolean;
  /** Masked in lists. */
  idCard: string;
  gender: number;
  birthDate: string | null;
  education: number;
  school: string;
  major: string;
  /** Highest title level held (0: none). */
  titleLevel: number;
  titleCount: number;
  certCount: number;
  expiredCount: number;
  expiringCount: number;
}

export interface PersonnelFacts {
  userId: string;
  name: string;
  loginName: string;
  deptName: string;
  position: string;
  phone: string;
  active: boolean;
  /** Full number (the edit and detail pages). */
  idCard: string;
  gender: number;
  birthDate: string | null;
  education: number;
  school: string;
  major: string;
  graduationDate: string | null;
  hireDate: string | null;
  remark: string;
  updatedBy: string;
  updatedAt: string | null;
}

export interface PersonnelDetail {
  facts: PersonnelFacts;
  titles: TitleRow[];
  certificates: CertificateRow[];
}

export interface PersonnelOption {
  userId: string;
  name: string;
  loginName: string;
  deptName: string;
}

// ---- 职称 ----

export const TitleQuery = PageQuery.extend({
  keyword: filterText('姓名或证书编号', 50),
  level: oneOf(TitleLevel.values, '职称级别不正确').optional(),
  speciality: filterText('专业', 50),
  userId: Uuid.optional(),
  deptId: Uuid.optional(),
});
export type TitleQuery = z.infer<typeof TitleQuery>;
export const TitleExportQuery = TitleQuery.omit({ pageIndex: true, pageSize: true });

export const TitleBody = z.object({
  id: Uuid.optional(),
  userId: Uuid,
  level: oneOf(TitleLevel.values, '请选择职称级别'),
  titleName: reqText('职称名称', 50),
  speciality: optText('专业', 50),
  certNo: reqText('证书编号', 50),
  issuer: optText('发证机关', 100),
  issueDate: isoDay(),
  remark: optText('备注', 500),
});
export type TitleBody = z.input<typeof TitleBody>;

export interface TitleRow {
  id: string;
  userId: string;
  holderName: string;
  deptName: string;
  level: number;
  titleName: string;
  speciality: string;
  certNo: string;
  issuer: string;
  issueDate: string;
  remark: string;
  updatedBy: string;
  updatedAt: string;
}

// ---- 资格证书 ----

export const CERT_STATES = ['permanent', 'valid', 'expiring', 'expired'] as const satisfies readonly CertState[];
/** The list's 状态 filter: a state, or 可办理延期 (today in the renewal window of its kind, not expired). */
export const CERT_STATE_FILTERS = [...CERT_STATES, 'renewable'] as const;
export type CertStateFilter = (typeof CERT_STATE_FILTERS)[number];

export const CertificateQuery = PageQuery.extend({
  keyword: filterText('姓名或证书编号', 50),
  kindId: Uuid.optional(),
  level: filterText('级别', 20),
  state: z.enum(CERT_STATE_FILTERS, { error: '证书状态不正确' }).optional(),
  userId: Uuid.optional(),
  deptId: Uuid.optional(),
  /** Expiring within N days from today (expired ones excluded). */
  expiringWithin: z.coerce.number({ error: '天数须为数字' }).int('天数须为整数').min(0, '天数不能为负数').max(3650, '天数不能超过3650').optional(),
  /** Certificates of disabled users too (by default only active holders', as 证书汇总 counts them; one person's or chosen ids always whole). */
  includeDisabled: z.boolean({ error: '参数不正确' }).optional(),
});
export type CertificateQuery = z.infer<typeof CertificateQuery>;
export const CertificateExportQuery = CertificateQuery.omit({ pageIndex: true, pageSize: true });

export const CertificateBody = z
  .object({
    id: Uuid.optional(),
    userId: Uuid,
    kindId: Uuid,
    level: optText('级别', 20),
    speciality: optText('专业', 50),
    certNo: reqText('证书编号', 50),
    issuer: optText('发证机关', 100),
    validFrom: isoDay(),
    /** Empty: derived from the kind's default years (open-ended when the kind has none). */
    validTo: optDay(),
    /** True: no end day even when the kind has default years. */
    permanent: z.boolean().default(false),
    company: optText('注册单位', 100),
    remark: optText('备注', 500),
  })
  .refine((b) => !b.validTo || b.validTo >= b.validFrom, { message: '有效期至不能早于有效期起', path: ['validTo'] });
export type CertificateBody = z.input<typeof CertificateBody>;

export interface CertificateRow {
  id: string;
  userId: string;
  holderName: string;
  deptName: string;
  kindId: string;
  kindName: string;
  level: string;
  speciality: string;
  certNo: string;
  issuer: string;
  validFrom: string;
  validTo: string | null;
  company: string;
  remark: string;
  /** Today's state (certState). */
  state: CertState;
  /** Days from today to validTo (negative once expired); null when open-ended. */
  daysLeft: number | null;
  /** The first day of its renewal (延期) window (renewalStart), null when open-ended or the kind has none. */
  renewFrom: string | null;
  /** Today lies in that window (可办理延期): not expired, and at most the kind's 延期办理期 before the end. */
  renewable: boolean;
  updatedBy: string;
  updatedAt: string;
}

/** 证书汇总 */
export interface CertKindSummary {
  kindId: string;
  kindName: string;
  total: number;
  valid: number;
  expiring: number;
  expired: number;
  byLevel: Array<{ level: string; total: number; valid: number; expiring: number; expired: number }>;
}
export interface CertificateSummary {
  today: string;
  warnDays: number;
  total: number;
  valid: number;
  expiring: number;
  expired: number;
  /** 可办理延期: today in the renewal window (the list's state 'renewable', of active users). */
  renewable: number;
  kinds: CertKindSummary[];
  titles: Array<{ level: number; total: number }>;
}
export const CertificateAlertQuery = PageQuery.extend({ kindId: Uuid.optional() });

export interface CertificateCard {
  expired: number;
  expiring: number;
  warnDays: number;
}

// ---- 证书种类 (投标设置) ----

export const CertKindBody = z
  .object({
  id: Uuid.optional(),
  name: reqText('证书种类名称', 30),
  /** Its levels, in order (一级, 二级; A, B, C). */
  levels: z.array(text().trim().min(1, '级别不能为空').max(20, '级别不能超过20个字符'), { error: '级别格式不正确' }).max(20, '级别最多20个').default([]),
  hasSpeciality: z.boolean().default(false),
  /** Default validity in years (empty: open-ended). */
  validYears: z.union([z.number().int('有效年限须为整数').min(1, '有效年限至少1年').max(50, '有效年限不能超过50年'), z.null()]).optional().transform((v) => v ?? null),
  /** 延期办理期: the renewal window, in months before the end day (empty: none). */
  renewMonths: z
    .number({ error: '延期办理期须为数字' })
    .int('延期办理期须为整数')
    .min(1, '延期办理期至少1个月')
    .max(24, '延期办理期不能超过24个月')
    .nullable()
    .optional()
    .transform((v) => v ?? null),
  sort: z.number().int().min(0).max(9999).default(0),
})
  .refine((b) => !b.renewMonths || !b.validYears || b.renewMonths <= b.validYears * 12, { message: '延期办理期不能超过默认有效年限', path: ['renewMonths'] });
export type CertKindBody = z.input<typeof CertKindBody>;

export interface CertKind {
  id: string;
  name: string;
  levels: string[];
  hasSpeciality: boolean;
  validYears: number | null;
  /** 延期办理期 in months, null: no renewal window. */
  renewMonths: number | null;
  sort: number;
  certCount: number;
}

export const PeopleIdBody = z.object({ id: Uuid });
