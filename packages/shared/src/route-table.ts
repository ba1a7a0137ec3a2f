/**
 * SPEC section 2: the route table, once. The web client builds its router, top menu, sidebar and
 * breadcrumbs from it; the server derives each API route's permission from the page it serves.
 *
 * A child path that starts with '/' is absolute (as the spec writes it); any other is relative to its parent.
 * `roles` are any-of; a route is reachable only when every ancestor's roles are satisfied as well.
 */
import type { RoleCode } from './roles.js';

/** The business area a route belongs to (one folder per area on both sides). */
export type Area = 'workflow' | 'invoice' | 'income' | 'reimbursement' | 'cost' | 'tender' | 'system';

export const AREA_TITLES: Record<Area, string> = {
  workflow: '工作流',
  invoice: '销项发票',
  income: '进项管理',
  reimbursement: '费用报销',
  cost: '成本管理',
  tender: '投标管理',
  system: '系统管理',
};

/** Counts that feed sidebar badges (SPEC section 3). */
export type BadgeKey =
  | 'Todolist_EmpWorks'
  | 'Todolist_Runing'
  | 'Todolist_Draft'
  | 'Todolist_MyFlow'
  | 'Todolist_MyStartFlow'
  | 'toAudit'
  | 'requestBillingCount'
  | 'cancellationCount'
  | 'requestDigitalElectricInvoiceCount'
  | 'redConfirmApplyCount'
  | 'redConfirmToConfirmCount'
  | 'invoiceRetryCreationCount'
  | 'reimbursementApplyCount'
  | 'invoiceEntrySignCount'
  | 'abnormalInvoicePoolCount';

export interface RouteBadge {
  /** Counts summed into one badge. */
  keys: BadgeKey[];
  /** Text before the number, e.g. 在途. */
  prefix?: string;
}

export interface RouteDef {
  path: string;
  title?: string;
  roles?: RoleCode[];
  hidden?: boolean;
  /**
   * A hidden page's menu item, which the sidebar highlights while it is shown (its list page): a path relative to
   * the parent like `path`, or absolute.
   */
  menu?: string;
  /** The title when the page's id is the empty id (the page creates instead of edits: 新增用户 for 编辑用户). */
  newTitle?: string;
  redirect?: string;
  icon?: string;
  noCache?: boolean;
  affix?: boolean;
  tagName?: string;
  /** Parameters that accept digits only. */
  digitParams?: string[];
  badge?: RouteBadge;
  children?: RouteDef[];
}

const R = {
  admin: ['1'],
  sys: ['1', '3'],
  invoice: ['1', '5', '11'],
  invoiceWrite: ['1', '5'],
  tender: ['1', '4', '5', '6', '7', '8', '9', '15', '23'],
  contractAdd: ['1', '4', '6'],
  contractEdit: ['1', '4', '6', '7', '8'],
  project: ['1', '4'],
  certificate: ['1', '6', '15'],
  tenderFile: ['1', '6', '9', '23'],
  tenderAdmin: ['1', '6'],
  reimburse: ['1', '12', '16'],
  reimburseAdmin: ['1', '12'],
  income: ['1', '13', '14', '16'],
  incomePool: ['1', '13'],
  cost: ['1', '16', '17', '18', '19', '20', '21', '22'],
  costLedger: ['1', '16', '17', '18', '19'],
  costAudit: ['1', '17', '20', '21', '22'],
  costSetting: ['1', '17'],
} satisfies Record<string, RoleCode[]>;

/** Root and workflow. */
const rootGroup: RouteDef = {
  path: '/',
  title: '工作台',
  redirect: '/dashboard',
  icon: 'home',
  children: [
    { path: 'dashboard', title: '工作台', icon: 'dashboard', affix: true },
    { path: 'flow/start', title: '发起申请', icon: 'form' },
    { path: 'flow/todolist', title: '我的待办', icon: 'todo', badge: { keys: ['Todolist_EmpWorks'] } },
    { path: 'flow/zonghesearch', title: '流程管理', icon: 'search', badge: { keys: ['Todolist_Runing'], prefix: '在途' } },
    { path: 'assistant/personalsetting', title: '个人设置', icon: 'user' },
  ],
};

const invoiceGroup: RouteDef = {
  path: '/invoice',
  title: '销项发票',
  roles: R.invoice,
  redirect: '/invoice/invoiceaccount/invoice-list',
  icon: 'invoice',
  children: [
    {
      path: 'nuonuo',
      title: '同步税务端',
      roles: R.invoiceWrite,
      icon: 'sync',
      children: [
        { path: 'invoice-request-billing', title: '一键开票', badge: { keys: ['requestBillingCount', 'requestDigitalElectricInvoiceCount'] } },
        { path: 'invoice-retry-creation', title: '开票重试', badge: { keys: ['invoiceRetryCreationCount'] } },
        { path: 'red-confirm-apply', title: '数电红字', badge: { keys: ['redConfirmApplyCount', 'redConfirmToConfirmCount'] } },
        { path: 'invoice-cancellation', title: '税控作废', badge: { keys: ['cancellationCount'] } },
        { path: 'red-confirm-apply/edit/:id', title: '红字确认单', hidden: true, menu: 'red-confirm-apply', digitParams: ['id'], tagName: 'red-confirm-edit' },
        { path: 'invoice-synclog-details', title: '同步日志' },
      ],
    },
    {
      path: 'invoiceaccount',
      title: '销项发票台账',
      roles: R.invoice,
      icon: 'table',
      children: [
        { path: 'invoice-list', title: '发票台账' },
        { path: 'invoice-detail/:id', title: '发票详情', hidden: true, menu: 'invoice-list', tagName: 'invoice-detail' },
        { path: 'invoice-upload/:id', title: '发票上传', hidden: true, menu: 'invoice-list', roles: R.invoiceWrite, noCache: true },
        { path: 'digital-electric-red-ledger', title: '数电红字台账' },
        { path: 'digital-electric-red-ledger-detail/:id', title: '红字确认单详情', hidden: true, menu: 'digital-electric-red-ledger', tagName: 'red-ledger-detail' },
        { path: 'invoice-item-apportionment', title: '项目分摊台账' },
        { path: 'contract-apportionment', title: '订单分摊台账' },
        { path: 'project-change', title: '项目变更' },
        { path: 'contract-change', title: '订单变更' },
      ],
    },
    {
      path: 'invoicestatistics',
      title: '统计报表',
      roles: R.invoiceWrite,
      icon: 'chart',
      children: [
        { path: 'apportionment-statistics', title: '分摊统计' },
        { path: 'temp-project-invoice', title: '临时项目开票' },
        { path: 'contract-statistics', title: '合同开票统计' },
        { path: 'temp-contract-invoice', title: '临时合同开票' },
      ],
    },
    {
      path: 'invoicesetting',
      title: '销项设置',
      roles: R.invoiceWrite,
      icon: 'setting',
      children: [
        { path: 'setting', title: '开票设置' },
        { path: 'buyerlist', title: '购方管理' },
        { path: 'buyerdetail/:id', title: '购方详情', hidden: true, menu: 'buyerlist', tagName: 'buyer-detail' },
        { path: 'buyeradd', title: '新增购方', hidden: true, menu: 'buyerlist', noCache: true },
        { path: 'buyeredit/:id', title: '编辑购方', hidden: true, menu: 'buyerlist', noCache: true, tagName: 'buyer-edit' },
      ],
    },
  ],
};

const tenderGroup: RouteDef = {
  path: '/tender',
  title: '投标管理',
  roles: R.tender,
  icon: 'tender',
  children: [
    { path: 'contract/list', title: '合同管理', icon: 'contract' },
    { path: 'contract/addcf/:contractType/:id', title: '框架合同录入', hidden: true, menu: 'contract/list', roles: R.contractAdd, noCache: true },
    { path: 'contract/addc/:contractType/:id', title: '合同录入', hidden: true, menu: 'contract/list', roles: R.contractAdd, noCache: true },
    { path: 'contract/edit/:contractType/:id', title: '合同编辑', hidden: true, menu: 'contract/list', roles: R.contractEdit, noCache: true, tagName: 'contract-edit' },
    { path: 'contract/detail/:contractType/:id', title: '合同详情', hidden: true, menu: 'contract/list', tagName: 'contract-detail' },
    { path: 'framecontract-invoice-statistic', title: '框架合同开票统计', icon: 'chart' },
    { path: 'project', title: '项目管理', roles: R.project, icon: 'project' },
    { path: 'project/detail/:id', title: '项目详情', hidden: true, menu: 'project', roles: R.project, tagName: 'project-detail' },
    { path: 'project/add', title: '新增项目', hidden: true, menu: 'project', roles: R.project, noCache: true },
    { path: 'project/modify/:id', title: '修改项目', hidden: true, menu: 'project', roles: R.project, noCache: true, tagName: 'project-modify' },
    {
      path: 'personnel-certificate',
      title: '人员证书',
      roles: R.certificate,
      icon: 'certificate',
      children: [
        { path: 'collect', title: '证书汇总' },
        { path: 'personnel-info', title: '人员信息' },
        { path: 'personnel-edit/:id', title: '人员编辑', hidden: true, menu: 'personnel-info', noCache: true, tagName: 'personnel-edit' },
        { path: 'personnel-detail/:id', title: '人员详情', hidden: true, menu: 'personnel-info', tagName: 'personnel-detail' },
        { path: 'professional-title', title: '职称证书' },
        { path: 'title-certificate-add', title: '新增职称证书', hidden: true, menu: 'professional-title', noCache: true },
        { path: 'title-certificate-modify/:id', title: '修改职称证书', hidden: true, menu: 'professional-title', noCache: true, tagName: 'title-certificate-modify' },
        { path: 'qualification-certificate', title: '资格证书' },
        { path: 'qualification-certificate-add', title: '新增资格证书', hidden: true, menu: 'qualification-certificate', noCache: true },
        { path: 'qualification-certificate-modify/:id', title: '修改资格证书', hidden: true, menu: 'qualification-certificate', noCache: true, tagName: 'qualification-certificate-modify' },
      ],
    },
    {
      path: 'file',
      title: '投标文件导出',
      roles: R.tenderFile,
      icon: 'export',
      children: [
        { path: 'performance-check', title: '业绩核查' },
        { path: 'performance-file-export', title: '业绩文件导出' },
        { path: 'certificate-file-export2', title: '证书文件导出' },
        { path: 'certificate-file-export', title: '人员证书导出' },
        { path: 'file-export-statistic', title: '导出统计', roles: R.tenderAdmin },
        { path: 'file-export-log', title: '导出日志', roles: R.tenderAdmin },
      ],
    },
    { path: 'setting/edit', title: '投标设置', roles: R.tenderAdmin, icon: 'setting' },
  ],
};

const systemGroup: RouteDef = {
  path: '/system',
  title: '系统管理',
  roles: R.sys,
  icon: 'system',
  children: [
    { path: 'userlist', title: '用户管理', icon: 'user' },
    { path: 'edituser/:id', title: '编辑用户', newTitle: '新增用户', hidden: true, menu: 'userlist', noCache: true, tagName: 'edit-user' },
    { path: 'userdetail/:id', title: '用户详情', hidden: true, menu: 'userlist', tagName: 'user-detail' },
    { path: 'dept-list', title: '部门管理', icon: 'tree' },
    { path: 'dept-edit/:id', title: '编辑部门', newTitle: '新增部门', hidden: true, menu: 'dept-list', noCache: true, tagName: 'dept-edit' },
    { path: '/system/geolocation', title: '登录地分布', roles: R.admin, icon: 'location' },
    { path: 'userrolelist', title: '角色管理', roles: R.admin, icon: 'peoples' },
    {
      path: 'report',
      title: '统计报表',
      icon: 'chart',
      children: [
        { path: 'todo-time-consuming', title: '待办耗时统计', roles: R.sys },
        { path: 'ai-interface-statistic', title: 'AI接口统计', roles: R.admin },
      ],
    },
    { path: 'useronline/list', title: '在线用户', roles: R.admin, icon: 'online' },
    { path: 'log/list', title: '操作日志', roles: R.admin, icon: 'log' },
    { path: 'integratedsyncLogdetails', title: '集成同步日志', roles: R.admin, icon: 'sync' },
    { path: 'filing-calendar', title: '申报日历', roles: R.admin, icon: 'calendar' },
  ],
};

const reimbursementGroup: RouteDef = {
  path: '/reimbursement',
  title: '费用报销',
  icon: 'money',
  children: [
    { path: 'my-reimbursement-list', title: '我的报销', icon: 'list' },
    { path: '/my/reimbursement/detail/:id', title: '我的报销详情', hidden: true, menu: 'my-reimbursement-list', tagName: 'my-reimbursement-detail' },
    {
      path: 'nuonuo',
      title: '报销入账',
      roles: R.reimburse,
      icon: 'sync',
      children: [
        { path: 'reimbursement/apply/list', title: '一键报销', badge: { keys: ['reimbursementApplyCount'] } },
        { path: '/reimbursement/revoke/list', title: '报销撤销' },
        { path: '/reimbursement/revoke/add', title: '新增撤销', hidden: true, menu: '/reimbursement/revoke/list', noCache: true },
        { path: 'synclog-details', title: '同步日志', roles: R.reimburseAdmin },
        { path: '/reimbursement/edit/:id', title: '报销编辑', hidden: true, menu: 'reimbursement/apply/list', noCache: true, tagName: 'reimbursement-edit' },
      ],
    },
    {
      path: 'account',
      title: '报销台账报表',
      roles: R.reimburse,
      icon: 'table',
      children: [
        { path: 'reimbursement-list', title: '报销台账' },
        { path: '/reimbursement/detail/:id', title: '报销详情', hidden: true, menu: 'reimbursement-list', tagName: 'reimbursement-detail' },
        { path: 'summary', title: '部门月度报销汇总' },
        { path: 'laundry', title: '部门月度报销流水' },
      ],
    },
    { path: 'cost-setting', title: '报销设置', roles: R.reimburseAdmin, icon: 'setting' },
  ],
};

const incomeGroup: RouteDef = {
  path: '/income',
  title: '进项管理',
  roles: R.income,
  icon: 'income',
  children: [
    {
      path: '/invoice-entry',
      title: '发票签收',
      icon: 'sign',
      children: [
        { path: 'list', title: '进项发票登记' },
        { path: 'detail/:id', title: '进项发票详情', hidden: true, menu: 'list', tagName: 'entry-detail' },
        { path: 'sign/list', title: '签收归档', badge: { keys: ['invoiceEntrySignCount'] } },
        { path: 'edit/:id', title: '进项发票编辑', hidden: true, menu: 'list', noCache: true, tagName: 'entry-edit' },
        { path: 'revoke/list', title: '签收撤销' },
        { path: 'revoke/add', title: '新增签收撤销', hidden: true, menu: 'revoke/list', noCache: true },
        { path: 'dept/sign', title: '部门签收' },
        { path: 'project/apportionment', title: '项目分摊' },
        { path: 'project/change', title: '项目变更' },
      ],
    },
    {
      path: '/invoice/deduction',
      title: '发票抵扣',
      roles: R.incomePool,
      icon: 'deduction',
      children: [
        { path: 'deduction/list', title: '抵扣勾选' },
        { path: '/invoice/tax-rebate/list', title: '退税勾选' },
        { path: 'deduction/statistic', title: '抵扣统计' },
        { path: 'tax-rebate/statistic', title: '退税统计' },
        { path: '/invoice/calc-deduction/statistic', title: '抵扣测算' },
        { path: '/income/invoice/log', title: '勾选日志' },
      ],
    },
    {
      path: 'invoicePool',
      title: '发票池',
      roles: R.incomePool,
      icon: 'pool',
      children: [
        { path: 'list', title: '进项票池' },
        { path: 'detail/:id', title: '票池发票详情', hidden: true, menu: 'list', tagName: 'pool-detail' },
        { path: 'other', title: '其他票池' },
        { path: 'abnormal', title: '异常票池', badge: { keys: ['abnormalInvoicePoolCount'] } },
      ],
    },
  ],
};

/**
 * The spec names the group /cost, its ledger /cost-management/account and its landing rule
 * /cost-management/examine, so the group's pages live under /cost-management (docs/routes.md).
 */
const costGroup: RouteDef = {
  path: '/cost',
  title: '成本管理',
  roles: R.cost,
  icon: 'cost',
  children: [
    { path: '/cost-management/account', title: '成本单台账', roles: R.costLedger, icon: 'table' },
    { path: '/cost-management/examine', title: '待审核成本单', roles: R.costAudit, icon: 'audit', badge: { keys: ['toAudit'] } },
    { path: '/cost-management/summary', title: '月度成本汇总', roles: R.costLedger, icon: 'chart' },
    { path: '/costmanagement/setting', title: '成本设置', roles: R.costSetting, icon: 'setting' },
  ],
};

/** The top-level modules in menu order. */
export const ROUTE_TABLE: readonly RouteDef[] = [
  rootGroup,
  invoiceGroup,
  incomeGroup,
  reimbursementGroup,
  costGroup,
  tenderGroup,
  systemGroup,
];

/** The area of each top-level module. */
export const GROUP_AREAS: Record<string, Area> = {
  '/': 'workflow',
  '/invoice': 'invoice',
  '/income': 'income',
  '/reimbursement': 'reimbursement',
  '/cost': 'cost',
  '/tender': 'tender',
  '/system': 'system',
};

/** Routes reachable without a token. */
export const PUBLIC_PATHS = ['/login', '/auth-redirect', '/404'] as const;
export const PUBLIC_PATH_PREFIXES = ['/file/view/'] as const;
