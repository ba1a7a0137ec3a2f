/** Test data of the bill pages. */
import type { ReimbApplyOptions, ReimbBillDetail, ReimbBillRow } from '@zhyy/shared';

export const row: ReimbBillRow = {
  id: '0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0b01', billNo: 'BX2026110007', applicantName: '张三', deptName: '工程部', projectName: '', reason: '项目现场出差',
  periodFrom: '2026-11-01', periodTo: '2026-11-20', flowState: 1, flowStateName: '审批中', reimbState: null, reimbStateName: '', amount: 153_000, approvedAmount: 143_000,
  tax: 2_000, lineCount: 2, nodeName: '部门负责人审批', handlerNames: '李经理', submittedAt: '2026-11-21T01:00:00Z', approvedAt: null, createdAt: '2026-11-20T01:00:00Z',
};

export const detail: ReimbBillDetail = {
  ...row,
  applicantId: 'u1', projectId: null, contractNo: '', payeeName: '张三', payeeBank: '工商银行', payeeAccount: '6222020200112233445', deductibleTax: 1_800, workId: 42,
  voucherNo: '', pushMessage: '',
  lines: [
    {
      id: '0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0c01', lineNo: 1, categoryCode: 'T-TRAFFIC', categoryName: '交通费', travelKind: 'transport', expenseDate: '2026-11-03', description: '往返北京',
      city: '北京', nights: null, seatClass: '一等座', amount: 113_000, taxRate: '0.09', tax: 9_330, netAmount: 111_200, deductibleTax: 1_800, approvedAmount: null, approveNote: '', approvedBy: '',
      invoiceId: 'i1', invoiceNumber: '26112000000000000001',
      invoice: { id: 'i1', number: '26112000000000000001', kind: 'rail', issueDate: '2026-11-03', sellerName: '中国铁路', buyerName: '华建', amountExcl: 0, tax: 0, amountIncl: 113_000, invoiceState: 0, buyerMismatch: false, usage: 1, docNo: 'BX2026110007', passengerName: '张三', transportTax: 1_800, files: [{ id: 'f1', name: 'ticket.pdf', format: 'pdf' }] },
      sellerName: '中国铁路', subjectCode: '', subjectName: '', checks: [{ code: 'seatOverStandard', level: 'warn', message: '座席「一等座」超出员工一类城市标准（二等座、经济舱）' }],
    },
    {
      id: '0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0c02', lineNo: 2, categoryCode: 'T-HOTEL', categoryName: '住宿费', travelKind: 'hotel', expenseDate: '2026-11-04', description: '酒店',
      city: '北京', nights: 1, seatClass: '', amount: 40_000, taxRate: '0.06', tax: 2_264, netAmount: 40_000, deductibleTax: 0, approvedAmount: 30_000, approveNote: '超标准部分不予报销', approvedBy: '李经理',
      invoiceId: null, invoiceNumber: '', invoice: null, sellerName: '', subjectCode: '', subjectName: '', checks: [],
    },
  ],
  attachments: [{ id: 'a1', name: '行程单.pdf', size: 2048, createdAt: '2026-11-20T01:00:00Z' }],
  track: [{ id: 't1', action: 'start', actionName: '发起', nodeId: 'start', nodeName: '发起', actorName: '张三', deptName: '工程部', opinion: '', toNodeName: '部门负责人审批', toNames: '李经理', createdAt: '2026-11-21T01:00:00Z' }],
  pushes: [],
  can: { edit: false, submit: false, withdraw: true, delete: false, approve: false },
};

export const options: ReimbApplyOptions = {
  categories: [
    { code: 'T-OFFICE', name: '办公费', travelKind: '', defaultTaxRate: '0.13' },
    { code: 'T-HOTEL', name: '住宿费', travelKind: 'hotel', defaultTaxRate: '0.06' },
  ],
  profile: { grade: 'staff', gradeName: '员工', payeeName: '张三', payeeBank: '工商银行', payeeAccount: '6222' },
  deptName: '工程部',
  applicantName: '张三',
  invoiceAgeDays: 365,
};
