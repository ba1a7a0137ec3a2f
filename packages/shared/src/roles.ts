/** SPEC section 6: the role catalogue. Role codes are numeric strings; `admin` sees everything. */

export const ROLE_CODES = [
  '1', '2', '3', '4', '5', '6', '7', '8', '9', '11', '12', '13', '14', '15', '16', '17', '18', '19', '20', '21', '22', '23',
] as const;

export type RoleCode = (typeof ROLE_CODES)[number];

/** The super role: role `admin` sees all routes, role `1` appears everywhere and acts as administrator. */
export const ADMIN_ROLE = 'admin';
export const ADMINISTRATOR: RoleCode = '1';
/**
 * Role 2, 普通员工: the role of staff whose jobs need no module of their own (field staff). It opens only
 * what is open to everyone (工作台, 发起申请, 我的待办, 流程管理, 个人设置, 我的报销); an account with no role at
 * all is still refused at sign-in (SPEC section 5: 权限不足).
 */
export const STAFF_ROLE: RoleCode = '2';
/** Role 3 manages users; it may not hand out or touch the roles that manage users. */
export const USER_ADMINISTRATOR: RoleCode = '3';
/** Roles only an administrator (role `admin` or `1`) grants or takes away, on accounts only an administrator manages. */
export const PRIVILEGED_ROLES: readonly RoleCode[] = [ADMINISTRATOR, USER_ADMINISTRATOR];
/** 发票签收 (/invoice-entry/*): the roles that change signing data (sign, revoke, allocate); role 16 reads only. */
export const INCOME_ENTRY_WRITE_ROLES: readonly string[] = ['1', '13', '14'];
/** Whether these roles may change signing data (the server's assertWriter; `admin` may). */
export const canWriteIncomeEntry = (roles: readonly string[]) => roles.some((r) => r === ADMIN_ROLE || INCOME_ENTRY_WRITE_ROLES.includes(r));
/** 成本单台账 (issue 16): the roles that enter, import, copy, re-price and sync cost orders; 18 and 19 read only. */
export const COST_ENTRY_ROLES: readonly string[] = ['1', '16', '17'];
export const canEnterCostOrders = (roles: readonly string[]) => roles.some((r) => r === ADMIN_ROLE || COST_ENTRY_ROLES.includes(r));
/** Roles that see every department's orders in the audit queue (an auditor sees the departments assigned in 成本设置). */
export const seesAllCostDepts = (roles: readonly string[]) => roles.some((r) => r === ADMIN_ROLE || r === ADMINISTRATOR);

export interface RoleInfo {
  code: RoleCode;
  name: string;
  meaning: string;
}

export const ROLES: readonly RoleInfo[] = [
  { code: '1', name: '系统管理员', meaning: '管理员，所有功能；可从侧边栏打开在线用户报表' },
  { code: '2', name: '普通员工', meaning: '工作台、发起申请、我的待办与我的报销（所有人可用的页面）' },
  { code: '3', name: '系统用户管理', meaning: '系统用户、部门、报表' },
  { code: '4', name: '项目合同管理', meaning: '项目与合同' },
  { code: '5', name: '销项发票', meaning: '销项发票开具与台账' },
  { code: '11', name: '销项台账只读', meaning: '销项发票，只读台账' },
  { code: '6', name: '投标与证书', meaning: '投标与人员证书' },
  { code: '7', name: '合同编辑', meaning: '合同编辑' },
  { code: '8', name: '合同编辑（二）', meaning: '合同编辑' },
  { code: '9', name: '投标文件导出', meaning: '投标文件导出' },
  { code: '12', name: '报销入账', meaning: '报销入账与报销设置' },
  { code: '13', name: '进项票池与抵扣', meaning: '进项票池与抵扣勾选；接收异常发票提醒' },
  { code: '14', name: '发票签收', meaning: '进项发票签收' },
  { code: '15', name: '人员证书', meaning: '人员证书' },
  { code: '16', name: '报销进项成本', meaning: '报销、进项与成本' },
  { code: '17', name: '成本设置与审核', meaning: '成本设置与审核' },
  { code: '18', name: '成本台账', meaning: '成本台账' },
  { code: '19', name: '成本台账（二）', meaning: '成本台账' },
  { code: '20', name: '成本审核', meaning: '成本审核' },
  { code: '21', name: '成本审核（二）', meaning: '成本审核' },
  { code: '22', name: '成本审核（三）', meaning: '成本审核' },
  { code: '23', name: '证书导出', meaning: '证书文件导出' },
];

const ROLE_BY_CODE = new Map(ROLES.map((r) => [r.code, r]));

export function roleName(code: string): string {
  if (code === ADMIN_ROLE) return '超级管理员';
  return ROLE_BY_CODE.get(code as RoleCode)?.name ?? code;
}

export function isRoleCode(code: string): code is RoleCode {
  return ROLE_BY_CODE.has(code as RoleCode);
}

/** True when the user passes every role check (role `admin` or role `1`). */
export function isSuperUser(roles: readonly string[]): boolean {
  return roles.includes(ADMIN_ROLE) || roles.includes(ADMINISTRATOR);
}

/** True for the accounts only an administrator manages: those holding `admin`, role 1 or role 3. */
export function holdsPrivilegedRole(roles: readonly string[]): boolean {
  return roles.includes(ADMIN_ROLE) || roles.some((r) => (PRIVILEGED_ROLES as readonly string[]).includes(r));
}
