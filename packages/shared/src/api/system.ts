/**
 * System administration (issue 4): users, departments, roles, online users and sign-in locations.
 * The log and report calls live in system-logs.ts.
 */
import { z } from '../zod-locale.js';
import { ROLE_CODES } from '../roles.js';
import { EMPTY_ID } from '../enums.js';
import { PageQuery, Uuid, isCalendarDay, text } from './common.js';
import { emailField, phoneField } from '../contact-rules.js';
import { filingCalendarFault, type FilingDeadlineSource } from '../filing-calendar.js';

/** An optional text filter: blank means no filter. */
export const optText = (max = 64) =>
  text()
    .trim()
    .max(max, `不能超过${max}个字符`)
    .optional()
    .transform((v) => (v ? v : undefined));

/** A point in time sent by the client (ISO-8601 starting with a day that exists), normalised to UTC ISO text. */
export const IsoTime = text()
  .max(40, '时间格式不正确')
  .refine((v) => isCalendarDay(v.slice(0, 10)) && !Number.isNaN(Date.parse(v)), '时间格式不正确')
  .transform((v) => new Date(v).toISOString());

/** A time range filter: from (inclusive) and to (exclusive). */
export const TimeRange = z.object({ from: IsoTime.optional(), to: IsoTime.optional() });

/** The id of a record, or the empty id for a new one. */
export const IdOrEmpty = Uuid;
export const isNew = (id: string) => id === EMPTY_ID;

export const RoleCodeSchema = z.enum(ROLE_CODES, { message: '角色不在角色目录中' });

export const UserStatus = { active: 1, disabled: 0 } as const;
export const USER_STATUS_LABELS: Record<number, string> = { 1: '启用', 0: '停用' };

// ---------------------------------------------------------------- users

export const USER_SORT_FIELDS = ['loginName', 'name', 'deptName', 'createdAt', 'lastLoginAt', 'status'] as const;

export const UserListQuery = PageQuery.extend({
  name: optText(),
  loginName: optText(),
  /** A department: its whole subtree is included. */
  deptId: Uuid.optional(),
  role: RoleCodeSchema.optional(),
  status: z.union([z.literal(0), z.literal(1)], { message: '状态不正确' }).optional(),
});
export type UserListQuery = z.infer<typeof UserListQuery>;

export interface UserRow {
  id: string;
  loginName: string;
  name: string;
  deptId: string | null;
  deptName: string;
  position: string;
  phone: string;
  email: string;
  roles: string[];
  status: number;
  passwordIsInitial: boolean;
  lastLoginAt: string | null;
  createdAt: string;
}

export const LOGIN_NAME_PATTERN = /^[A-Za-z0-9._]+$/;

export const UserSaveBody = z.object({
  id: IdOrEmpty,
  loginName: text({ error: '请输入登录名' })
    .trim()
    .min(1, '请输入登录名')
    .min(2, '登录名至少2个字符')
    .max(32, '登录名不能超过32个字符')
    .regex(LOGIN_NAME_PATTERN, '登录名只能包含字母、数字、点（.）和下划线（_）'),
  name: text({ error: '请输入姓名' }).trim().min(1, '请输入姓名').max(32, '姓名不能超过32个字符'),
  deptId: Uuid,
  position: text().trim().max(32, '职务不能超过32个字符').default(''),
  phone: phoneField('电话', 20).default(''),
  email: emailField('邮箱', 64).default(''),
  roles: z.array(RoleCodeSchema).max(ROLE_CODES.length, '角色过多').default([]),
  status: z.union([z.literal(0), z.literal(1)], { message: '状态不正确' }).default(1),
});
export type UserSaveBody = z.infer<typeof UserSaveBody>;
export type UserSaveInput = z.input<typeof UserSaveBody>;

export interface UserSaveResult {
  id: string;
  /** Only when a user was created: shown once to the administrator, never stored in clear. */
  initialPassword?: string;
}

export interface ResetPasswordResult {
  initialPassword: string;
  /** Sessions revoked by the reset. */
  revokedSessions: number;
}

export const UserStatusBody = z.object({ id: Uuid, status: z.union([z.literal(0), z.literal(1)], { message: '状态不正确' }) });
export const UserIdBody = z.object({ id: Uuid });

export interface SignInRecord {
  id: string;
  ip: string;
  location: string;
  browser: string;
  signedInAt: string;
  lastSeenAt: string;
  endedAt: string | null;
  endReason: string | null;
}

export interface OperationRecord {
  id: string;
  type: number;
  description: string;
  ip: string;
  createdAt: string;
}

export interface UserDetail extends UserRow {
  isAdmin: boolean;
  deptPath: string;
  updatedAt: string;
  recentSignIns: SignInRecord[];
  recentOperations: OperationRecord[];
}

export const ChooseListQuery = z.object({
  keyword: optText(),
  deptId: Uuid.optional(),
  limit: z.coerce.number().int().min(1).max(200, '最多200条').default(50),
});

export interface UserChoice {
  id: string;
  loginName: string;
  name: string;
  deptName: string;
  position: string;
}

// ---------------------------------------------------------------- departments

export interface DeptNode {
  id: string;
  parentId: string | null;
  name: string;
  sort: number;
  managerId: string | null;
  managerName: string;
  /** Users directly in the department. */
  memberCount: number;
  /** Users in the department and all departments below it. */
  totalCount: number;
  children: DeptNode[];
}

/** A node of the department tree with its users as leaves (pickers). */
export interface OrgTreeNode {
  key: string;
  title: string;
  kind: 'dept' | 'user';
  /** For users: login name, position. */
  loginName?: string;
  position?: string;
  children?: OrgTreeNode[];
}

export const DeptSaveBody = z.object({
  id: IdOrEmpty,
  name: text().trim().min(1, '请输入部门名称').max(40, '部门名称不能超过40个字符'),
  parentId: Uuid.nullable().default(null),
  managerId: Uuid.nullable().default(null),
  sort: z.coerce.number().int().min(0, '排序不能小于0').max(9999, '排序不能大于9999').default(0),
});
export type DeptSaveBody = z.infer<typeof DeptSaveBody>;
export type DeptSaveInput = z.input<typeof DeptSaveBody>;

export interface DeptDetail {
  id: string;
  parentId: string | null;
  parentName: string;
  name: string;
  sort: number;
  managerId: string | null;
  managerName: string;
  memberCount: number;
  childCount: number;
  path: string;
}

export const DeptIdBody = z.object({ id: Uuid });

// ---------------------------------------------------------------- roles

export interface RolePage {
  path: string;
  title: string;
  group: string;
}

export interface RoleSummary {
  code: string;
  name: string;
  meaning: string;
  memberCount: number;
  pages: RolePage[];
}

export const RoleBody = z.object({ role: RoleCodeSchema });
export const RoleMembersBody = z.object({
  role: RoleCodeSchema,
  userIds: z.array(Uuid).min(1, '请选择用户').max(200, '一次最多添加200人'),
});
export const RoleMemberBody = z.object({ role: RoleCodeSchema, userId: Uuid });

export interface RoleMember {
  id: string;
  loginName: string;
  name: string;
  deptName: string;
  position: string;
  status: number;
}

// ---------------------------------------------------------------- online users

export const OnlineListQuery = PageQuery.extend({ keyword: optText() });

export interface OnlineSession {
  sessionId: string;
  userId: string;
  loginName: string;
  name: string;
  deptName: string;
  ip: string;
  location: string;
  browser: string;
  os: string;
  signedInAt: string;
  lastSeenAt: string;
  /** The caller's own session (cannot be forced out from here). */
  isSelf: boolean;
}

export const ForceLogoutBody = z.object({ sessionId: Uuid });

// ---------------------------------------------------------------- sign-in locations

export const GeoListQuery = PageQuery.extend(TimeRange.shape).extend({
  user: optText(),
  province: optText(),
  newCityOnly: z.boolean().default(false),
});
export type GeoListQuery = z.infer<typeof GeoListQuery>;

export interface SignInLocationRow {
  id: string;
  userId: string;
  loginName: string;
  name: string;
  deptName: string;
  ip: string;
  country: string;
  province: string;
  city: string;
  isp: string;
  /** 内网 for private and loopback addresses. */
  location: string;
  signedInAt: string;
  /** The first sign-in of this user from this city (the very first sign-in of a user does not count). */
  newCity: boolean;
}

export const GeoStatQuery = TimeRange.extend({ level: z.enum(['province', 'city'], { message: '统计维度不正确' }).default('province') });

export interface GeoStatRow {
  region: string;
  signIns: number;
  users: number;
  newCity: number;
}

// ---------------------------------------------------------------- filing calendar (申报日历, issue 29 item 9)

/** A year's twelve deadlines as an administrator enters them (January … December, 'YYYY-MM-DD'). */
export const FilingCalendarSaveBody = z
  .object({
    year: z.number().int('年度须为整数').min(2000, '年度不能早于2000年').max(2100, '年度不能晚于2100年'),
    deadlines: z.array(text().max(10, '申报期限格式不正确')).max(12, '须填写1月至12月共12个申报期限'),
  })
  .superRefine((v, ctx) => {
    const fault = filingCalendarFault(v.year, v.deadlines);
    if (fault) ctx.addIssue({ code: 'custom', message: fault, path: ['deadlines'] });
  });
export type FilingCalendarSaveBody = z.infer<typeof FilingCalendarSaveBody>;

/** An entered year taken back (the year is computed again). */
export const FilingCalendarDeleteBody = z.object({ year: z.number().int('年度须为整数').min(2000, '年度不能早于2000年').max(2100, '年度不能晚于2100年') });
export type FilingCalendarDeleteBody = z.infer<typeof FilingCalendarDeleteBody>;

export interface FilingCalendarYearView {
  year: number;
  /** Which calendar the deadlines come from: published > entered > computed. */
  source: FilingDeadlineSource;
  sourceLabel: string;
  basis: string;
  url?: string;
  days: string[];
  /** The days an administrator entered for the year (also when a published notice wins over them). */
  enteredDays: string[] | null;
  updatedBy: string;
  updatedAt: string | null;
  /** False for a published year: its notice's dates cannot be replaced. */
  editable: boolean;
}

export interface FilingCalendarView {
  years: FilingCalendarYearView[];
}
