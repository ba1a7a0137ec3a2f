/**
 * The company's flow templates: 请假申请, 用印申请, 合同审批, 开票申请, 费用报销审批, 通用审批.
 * Node chains use the demo company's departments and managers (company.ts).
 */
import { TAX_RATE_PERCENTS, type FieldDef, type FlowDefinition, type NodeDef } from '@zhyy/shared';
import type { DemoUser } from './company.js';

export interface TemplateSeed {
  flowNo: string;
  name: string;
  category: string;
  description: string;
  recordType: string | null;
  definition: FlowDefinition;
}

/** 请假天数 is derived from 请假时间 by the shared work calendar (migration 0015 updates stored templates). */
export const LEAVE_DAYS_HELP = '按请假时间内的工作日自动计算（周末不计，法定节假日未计入）；首尾两天可各少算半天';
const wan = (n: number) => n * 10000 * 100; // n 万元 in 分
const attachments = (label: string, required = false): FieldDef => ({ key: 'files', label, type: 'attachments', required, span: 2 });
const start = (to: string): NodeDef => ({ id: 'start', name: '填写申请', type: 'start', next: [{ to }] });
const end: NodeDef = { id: 'end', name: '结束', type: 'end', next: [] };

/**
 * The general manager: the first person of the company level (company.ts makes them its manager).
 * Without such people (a production start holds only `admin`), the administrator takes the node.
 */
function generalManager(users: readonly DemoUser[]): string {
  return users.find((u) => u.dept === 'company' && u.loginName !== 'admin')?.loginName ?? 'admin';
}
const managerOf = (users: readonly DemoUser[], dept: string) => users.find((u) => u.dept === dept && u.loginName !== 'admin')?.loginName ?? 'admin';

export function templateSeeds(users: readonly DemoUser[]): TemplateSeed[] {
  const gm = generalManager(users);
  const hr = managerOf(users, 'hr');
  const adminDept = managerOf(users, 'admin');
  const finance = managerOf(users, 'finance');
  const gmOffice = managerOf(users, 'gm');
  return [
    {
      flowNo: 'QJ01',
      name: '请假申请',
      category: '行政办公',
      description: '员工请假：部门负责人审批，超过3天由上级领导审批，人力资源部备案。',
      recordType: null,
      definition: {
        form: [
          { key: 'leaveType', label: '请假类型', type: 'select', required: true, options: ['年假', '事假', '病假', '婚假', '产假', '陪产假', '丧假', '调休'] },
          { key: 'days', label: '请假天数', type: 'number', required: true, min: 0.5, max: 180, workdaysOf: 'period', halfDays: true, help: LEAVE_DAYS_HELP },
          { key: 'period', label: '请假时间', type: 'dateRange', required: true, span: 2 },
          { key: 'reason', label: '请假事由', type: 'textarea', required: true, maxLength: 500, span: 2 },
          { key: 'handover', label: '工作交接人', type: 'user' },
          attachments('证明材料（病假请附病历）'),
        ],
        nodes: [
          start('mgr'),
          { id: 'mgr', name: '部门负责人审批', type: 'approval', handler: { kind: 'deptManager' }, next: [{ to: 'leader', when: { field: 'days', op: 'gt', value: 3 }, label: '超过3天' }, { to: 'hr' }] },
          { id: 'leader', name: '分管领导审批', type: 'approval', handler: { kind: 'parentManager' }, next: [{ to: 'hr' }] },
          { id: 'hr', name: '人力资源部备案', type: 'cc', handler: { kind: 'users', loginNames: [hr] }, next: [{ to: 'end' }] },
          end,
        ],
      },
    },
    {
      flowNo: 'YY01',
      name: '用印申请',
      category: '行政办公',
      description: '加盖公章、合同专用章、财务专用章或法人章；法人章须总经理审批。',
      recordType: null,
      definition: {
        form: [
          { key: 'sealType', label: '印章类型', type: 'select', required: true, options: ['公章', '合同专用章', '财务专用章', '法人章'] },
          { key: 'copies', label: '用印份数', type: 'number', required: true, min: 1, max: 500 },
          { key: 'document', label: '文件名称', type: 'text', required: true, maxLength: 100, span: 2 },
          { key: 'receiver', label: '文件接收单位', type: 'text', maxLength: 100 },
          { key: 'useDate', label: '用印日期', type: 'date', required: true },
          { key: 'purpose', label: '用印事由', type: 'textarea', required: true, maxLength: 500, span: 2 },
          attachments('用印文件', true),
        ],
        nodes: [
          start('mgr'),
          { id: 'mgr', name: '部门负责人审批', type: 'approval', handler: { kind: 'deptManager' }, next: [{ to: 'gm', when: { field: 'sealType', op: 'eq', value: '法人章' }, label: '法人章' }, { to: 'keeper' }] },
          { id: 'gm', name: '总经理审批', type: 'approval', handler: { kind: 'users', loginNames: [gm] }, next: [{ to: 'keeper' }] },
          { id: 'keeper', name: '印章管理员用印', type: 'approval', handler: { kind: 'users', loginNames: [adminDept] }, next: [{ to: 'end' }] },
          end,
        ],
      },
    },
    {
      flowNo: 'HT01',
      name: '合同审批',
      category: '合同业务',
      description: '合同签订前审批：合同专员审核、市场与成本会签、财务审核，50万元以上由总经理审批。',
      recordType: null,
      definition: {
        form: [
          { key: 'contractName', label: '合同名称', type: 'text', required: true, maxLength: 100, span: 2 },
          { key: 'contractNo', label: '合同编号', type: 'text', maxLength: 50 },
          { key: 'contractType', label: '合同类型', type: 'select', required: true, options: ['框架合同', '单项合同', '订单合同'] },
          { key: 'partyB', label: '对方单位', type: 'text', required: true, maxLength: 100, span: 2 },
          { key: 'project', label: '所属项目', type: 'text', maxLength: 100 },
          { key: 'amount', label: '合同金额', type: 'money', required: true, min: 1 },
          { key: 'period', label: '合同期限', type: 'dateRange', required: true, span: 2 },
          { key: 'summary', label: '主要条款', type: 'textarea', required: true, maxLength: 2000, span: 2 },
          attachments('合同文本', true),
        ],
        nodes: [
          start('mgr'),
          { id: 'mgr', name: '部门负责人审批', type: 'approval', handler: { kind: 'deptManager' }, next: [{ to: 'clerk' }] },
          { id: 'clerk', name: '合同专员审核', type: 'approval', handler: { kind: 'role', roles: ['4'] }, mode: 'any', next: [{ to: 'sign' }] },
          { id: 'sign', name: '市场与成本会签', type: 'approval', handler: { kind: 'users', loginNames: [managerOf(users, 'market'), managerOf(users, 'cost')] }, mode: 'countersign', next: [{ to: 'finance' }] },
          { id: 'finance', name: '财务审核', type: 'approval', handler: { kind: 'users', loginNames: [finance] }, next: [{ to: 'gm', when: { field: 'amount', op: 'gt', value: wan(50) }, label: '50万元以上' }, { to: 'archive' }] },
          { id: 'gm', name: '总经理审批', type: 'approval', handler: { kind: 'users', loginNames: [gm] }, next: [{ to: 'archive' }] },
          { id: 'archive', name: '总经理办公室归档', type: 'cc', handler: { kind: 'users', loginNames: [gmOffice] }, next: [{ to: 'end' }] },
          end,
        ],
      },
    },
    {
      flowNo: 'KP01',
      name: '开票申请',
      category: '财务报销',
      description: '向购买方开具销项发票：审批通过后转销项开票（一键开票）。',
      recordType: 'invoice-request',
      definition: {
        form: [
          { key: 'buyer', label: '购买方名称', type: 'text', required: true, maxLength: 100, span: 2 },
          { key: 'buyerTaxNo', label: '购买方税号', type: 'text', required: true, maxLength: 20 },
          { key: 'invoiceKind', label: '发票种类', type: 'select', required: true, options: ['数电专票', '数电普票', '增值税专用发票（纸质）', '增值税普通发票（纸质）'] },
          { key: 'basis', label: '开票依据', type: 'select', required: true, options: ['项目', '合同'] },
          { key: 'reference', label: '项目或合同', type: 'text', required: true, maxLength: 100 },
          {
            key: 'lines',
            label: '开票明细',
            type: 'table',
            required: true,
            span: 2,
            sumColumn: 'amount',
            sumInto: 'amount',
            columns: [
              { key: 'goods', label: '货物或应税劳务名称', type: 'text', required: true, maxLength: 100 },
              { key: 'spec', label: '规格型号', type: 'text', maxLength: 40 },
              { key: 'unit', label: '单位', type: 'text', maxLength: 10 },
              { key: 'quantity', label: '数量', type: 'number', required: true, min: 0.00000001 },
              { key: 'taxRate', label: '税率', type: 'select', required: true, options: [...TAX_RATE_PERCENTS] },
              { key: 'amount', label: '含税金额', type: 'money', required: true, min: 1 },
            ],
          },
          { key: 'amount', label: '开票总金额', type: 'money', required: true, min: 1, help: '等于开票明细的含税金额合计' },
          { key: 'remark', label: '发票备注', type: 'textarea', maxLength: 200, span: 2 },
        ],
        nodes: [
          start('mgr'),
          { id: 'mgr', name: '部门负责人审批', type: 'approval', handler: { kind: 'deptManager' }, next: [{ to: 'accountant' }] },
          { id: 'accountant', name: '销项会计审核', type: 'approval', handler: { kind: 'role', roles: ['5'] }, mode: 'any', next: [{ to: 'cfo', when: { field: 'amount', op: 'gt', value: wan(100) }, label: '100万元以上' }, { to: 'end' }] },
          { id: 'cfo', name: '财务负责人审批', type: 'approval', handler: { kind: 'users', loginNames: [finance] }, next: [{ to: 'end' }] },
          end,
        ],
      },
    },
    {
      flowNo: 'FY01',
      name: '费用报销审批',
      category: '财务报销',
      description: '费用报销：部门负责人、费用会计审核，5000元以上由分管领导审批，财务负责人复核。',
      recordType: 'reimbursement',
      definition: {
        form: [
          { key: 'reason', label: '报销事由', type: 'textarea', required: true, maxLength: 500, span: 2 },
          { key: 'period', label: '费用期间', type: 'dateRange', required: true },
          { key: 'project', label: '所属项目', type: 'text', maxLength: 100 },
          { key: 'payee', label: '收款人', type: 'text', required: true, maxLength: 50 },
          { key: 'bankAccount', label: '收款账号', type: 'text', required: true, maxLength: 30 },
          {
            key: 'lines',
            label: '费用明细',
            type: 'table',
            required: true,
            span: 2,
            sumColumn: 'amount',
            sumInto: 'amount',
            columns: [
              // The categories come from 报销设置 (reimb_categories): the bill's lines name them.
              { key: 'category', label: '费用类别', type: 'text', required: true, maxLength: 50 },
              { key: 'date', label: '发生日期', type: 'date', required: true },
              { key: 'description', label: '说明', type: 'text', maxLength: 100 },
              { key: 'amount', label: '金额', type: 'money', required: true, min: 1 },
            ],
          },
          { key: 'amount', label: '报销总金额', type: 'money', required: true, min: 1 },
          attachments('发票及单据'),
        ],
        nodes: [
          start('mgr'),
          { id: 'mgr', name: '部门负责人审批', type: 'approval', handler: { kind: 'deptManager' }, next: [{ to: 'accountant' }] },
          { id: 'accountant', name: '费用会计审核', type: 'approval', handler: { kind: 'role', roles: ['12'] }, mode: 'any', next: [{ to: 'leader', when: { field: 'amount', op: 'gt', value: 5000 * 100 }, label: '5000元以上' }, { to: 'cfo' }] },
          { id: 'leader', name: '分管领导审批', type: 'approval', handler: { kind: 'parentManager' }, next: [{ to: 'cfo' }] },
          { id: 'cfo', name: '财务负责人复核', type: 'approval', handler: { kind: 'role', roles: ['16'] }, mode: 'any', next: [{ to: 'end' }] },
          end,
        ],
      },
    },
    {
      flowNo: 'TY01',
      name: '通用审批',
      category: '通用',
      description: '其他事项：由发起人选择审批人（可多人会签），部门负责人知悉。',
      recordType: null,
      definition: {
        form: [
          { key: 'subject', label: '事项', type: 'text', required: true, maxLength: 100, span: 2 },
          { key: 'content', label: '事项说明', type: 'textarea', required: true, maxLength: 2000, span: 2 },
          { key: 'amount', label: '涉及金额', type: 'money' },
          { key: 'dept', label: '相关部门', type: 'dept' },
          attachments('附件'),
        ],
        nodes: [
          start('approve'),
          { id: 'approve', name: '审批人审批', type: 'approval', handler: { kind: 'chosen' }, mode: 'countersign', next: [{ to: 'notify' }] },
          { id: 'notify', name: '部门负责人知悉', type: 'cc', handler: { kind: 'deptManager' }, next: [{ to: 'end' }] },
          end,
        ],
      },
    },
  ];
}
