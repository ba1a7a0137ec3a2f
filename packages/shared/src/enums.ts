/** SPEC section 3: enumerations, attachment types, operation-log types, sync-log codes. */
import { defineEnum } from './enum.js';

export const InvoiceColour = defineEnum({
  blue: [1, '蓝字'],
  red: [2, '红字'],
});

export const InvoiceStatus = defineEnum({
  none: [0, '待开票'],
  created: [2, '开票成功'],
  creating: [20, '开票中'],
  signing: [21, '签章中'],
  creationFailed: [22, '开票失败'],
  signFailed: [24, '签章失败'],
  cancelled: [3, '已作废'],
  canceling: [31, '作废中'],
});

/** The spec's "party type": Nuonuo's invoiceLine (DOMAIN.md). */
export const InvoiceKind = defineEnum({
  c: [1, '增值税普通发票（纸质）'],
  s: [2, '增值税专用发票（纸质）'],
  bs: [9, '数电专票'],
  pc: [10, '数电普票'],
});

export const ContractType = defineEnum({
  frame: [1, '框架合同'],
  single: [2, '单项合同'],
  order: [3, '订单合同'],
});

export const SourceKind = defineEnum({
  temp: [0, '临时'],
  history: [1, '历史'],
  i8: [2, 'i8'],
  mis: [3, 'MIS'],
});

export const RedConfirmAction = defineEnum({
  apply: [1, '申请'],
  cancel: [2, '撤销'],
  confirm: [3, '确认'],
});

export const ReimbursementState = defineEnum({
  applying: [-1, '入账中'],
  unReimburse: [0, '未入账'],
  reimbursedSuccess: [1, '入账成功'],
  reimbursedFailed: [2, '入账失败'],
});

export const EntrySignState = defineEnum({
  applying: [-1, '签收中'],
  unSign: [0, '未签收'],
  signSuccess: [1, '签收成功'],
  signFailed: [2, '签收失败'],
});

export const AttachmentType = defineEnum({
  invoicePaperPdf: [1000, '发票PDF'],
  invoiceScanning: [1010, '发票扫描页'],
  invoiceScreenshot: [1011, '发票查询截图'],
  frameCover: [2111, '框架合同封面'],
  frameConstructionPeriod: [2112, '框架合同工期页'],
  frameAmount: [2113, '框架合同金额页'],
  frameSignature: [2114, '框架合同签章页'],
  frameCostComposition: [2115, '框架合同费用组成表'],
  singleCover: [2211, '单项合同封面'],
  singleConstructionPeriod: [2212, '单项合同工期页'],
  singleAmount: [2213, '单项合同金额页'],
  singleSignature: [2214, '单项合同签章页'],
  singleCostComposition: [2215, '单项合同费用组成表'],
  orderPage: [2310, '订单页'],
  approvalBill: [2900, '审定单'],
  acceptanceCertificate: [2901, '验收证书'],
});

/** The empty id is the all-zero UUID (SPEC section 3). */
export const EMPTY_ID = '00000000-0000-0000-0000-000000000000';

export const OperationLogType = defineEnum({
  login: [1, '登录'],
  logout: [2, '退出'],
  view: [30, '查看'],
  add: [40, '新增'],
  edit: [50, '修改'],
  delete: [60, '删除'],
  import: [70, '导入'],
  upload: [73, '上传'],
  download: [74, '下载'],
  print: [75, '打印'],
  export: [80, '导出'],
  fail: [90, '失败'],
});

/**
 * The operation types a client may report itself (/syslog/add-operation-log): what the reader did
 * in the browser, which the server cannot see. Every other type (登录, 新增, 删除, 失败…) is written by
 * the server where the change happens, so a client cannot forge it.
 */
export const CLIENT_REPORTABLE_OPERATION_TYPES: readonly number[] = [OperationLogType.view, OperationLogType.download, OperationLogType.print, OperationLogType.export];

/**
 * Integrated sync log: status 1 means failure (SPEC section 3). A row is written as pending before
 * the outside call and completed after it; one still pending after a crash has an unknown result.
 */
export const SyncLogStatus = defineEnum({
  success: [0, '成功'],
  failure: [1, '失败'],
  pending: [2, '进行中'],
});

/** Outside systems of the integrated sync log; the spec fixes code 3 for the client-reported one. */
export const SyncSystem = defineEnum({
  tax: [1, '税务端（诺税通）'],
  accounting: [2, '财务系统（i8）'],
  platform: [3, '综合运营支撑平台'],
  oa: [4, 'OA系统'],
  pms: [5, '项目管理系统'],
});

/**
 * The outside system a client may report an exchange of (/syslog/add-integrated-synclog): only the
 * platform itself (code 3, as the spec's call fixes it); exchanges with the tax service, accounting or
 * the sister systems are logged by the server that makes them.
 */
export const CLIENT_REPORTABLE_SYNC_SYSTEMS: readonly number[] = [SyncSystem.platform];
