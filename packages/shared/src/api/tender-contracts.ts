/**
 * 投标管理 › 合同与项目 (issue 17): /api/tender/contract/* and /api/tender/project/*. Money in 分
 * (integers; the forms take 元), days 'YYYY-MM-DD'. The rules are in ../tender-rules.ts (pages) and
 * ../tender-contract-rules.ts (project states, the registered-manager rule).
 */
import { z } from '../zod-locale.js';
import { ContractType } from '../enums.js';
import { ProjectState } from '../tender-contract-rules.js';
import { isoDay, PageQuery, text } from './common.js';
import type { CertificateRow } from './tender-people.js';
import type { ManagerExceptionRow } from './tender-manager-exceptions.js';

const reqText = (label: string, max: number) => text({ error: `请填写${label}` }).trim().min(1, `请填写${label}`).max(max, `${label}不能超过${max}个字符`);
const optText = (label: string, max: number) => text().trim().max(max, `${label}不能超过${max}个字符`).optional();
const RefId = (label: string) => text({ error: `请选择${label}` }).trim().min(1, `请选择${label}`).max(64, `${label}不正确`);
const optRef = (label: string) => z.union([RefId(label), z.literal(''), z.null()]).optional().transform((v) => v || null);
const optDay = () => z.union([isoDay(), z.literal(''), z.null()]).optional().transform((v) => v || null);
const Fen = z.number({ error: '金额须为数字' }).int('金额须精确到分').min(0, '金额不能为负数').max(1e13, '金额超出范围');
const contractType = z.number({ error: '请选择合同类型' }).refine((v) => ContractType.has(v), '合同类型不正确');
const projectState = z.number({ error: '请选择项目状态' }).refine((v) => ProjectState.has(v), '项目状态不正确');

export const TenderIdBody = z.object({ id: RefId('记录') });
export type TenderIdBody = z.infer<typeof TenderIdBody>;

// ---- Contracts ----

export const TenderContractFilter = z.object({
  keyword: optText('关键字', 50),
  contractType: contractType.optional(),
  customer: optText('客户', 100),
  projectId: RefId('项目').optional(),
  signedFrom: isoDay().optional(),
  signedTo: isoDay().optional(),
  acceptedFrom: isoDay().optional(),
  acceptedTo: isoDay().optional(),
  /** 'complete': every required page present; 'incomplete': some missing. */
  complete: z.enum(['complete', 'incomplete'], { message: '完整性不正确' }).optional(),
});
export type TenderContractFilter = z.infer<typeof TenderContractFilter>;
export const TenderContractQuery = PageQuery.extend(TenderContractFilter.shape);
export type TenderContractQuery = z.infer<typeof TenderContractQuery>;

export const TenderContractBody = z
  .object({
    /** Absent: a new contract. */
    id: RefId('合同').optional(),
    contractType,
    code: reqText('合同编号', 50),
    name: reqText('合同名称', 100),
    customer: reqText('客户', 100),
    amount: Fen,
    projectId: optRef('项目'),
    /** An order's frame contract (required for an order, absent otherwise). */
    frameId: optRef('框架合同'),
    managerId: optRef('合同负责人'),
    signedOn: optDay(),
    workFrom: optDay(),
    workTo: optDay(),
    acceptedOn: optDay(),
    remark: text().trim().max(500, '备注不能超过500个字符').default(''),
  })
  .refine((b) => b.contractType !== ContractType.order || Boolean(b.frameId), { message: '订单合同须选择所属框架合同', path: ['frameId'] })
  .refine((b) => b.contractType === ContractType.order || !b.frameId, { message: '只有订单合同属于框架合同', path: ['frameId'] })
  .refine((b) => !b.workFrom || !b.workTo || b.workTo >= b.workFrom, { message: '工期结束日期不能早于开始日期', path: ['workTo'] })
  .refine((b) => !b.signedOn || !b.acceptedOn || b.acceptedOn >= b.signedOn, { message: '竣工验收日期不能早于签订日期', path: ['acceptedOn'] });
export type TenderContractBody = z.input<typeof TenderContractBody>;
export type TenderContractInput = z.output<typeof TenderContractBody>;

/** Choices of a picker: frame contracts for an order, any contract. */
export const TenderContractOptionsQuery = z.object({ keyword: optText('关键字', 50), contractType: contractType.optional() });
export type TenderContractOptionsQuery = z.infer<typeof TenderContractOptionsQuery>;

export interface TenderContractRow {
  id: string;
  contractType: number;
  code: string;
  name: string;
  customer: string;
  amount: number;
  projectId: string | null;
  projectCode: string;
  projectName: string;
  frameId: string | null;
  frameCode: string;
  frameName: string;
  managerId: string | null;
  managerName: string;
  signedOn: string | null;
  workFrom: string | null;
  workTo: string | null;
  acceptedOn: string | null;
  remark: string;
  /** The required pages it lacks (0: 完整). */
  missingPages: number;
  source: number;
  updatedAt: string;
}

export interface TenderHistoryRow {
  id: string;
  type: number;
  description: string;
  userName: string;
  loginName: string;
  createdAt: string;
}

export interface TenderContractDetail extends TenderContractRow {
  /** The attachment types it has (filled by the attachment layer). */
  presentPages: number[];
  /** For a frame contract: its orders. */
  orders: TenderContractRow[];
  /** 已开票 on it (invoices in force, 分). */
  invoiced: number;
  history: TenderHistoryRow[];
}

export interface TenderOption {
  id: string;
  code: string;
  name: string;
}

// ---- Projects ----

export const TenderProjectFilter = z.object({
  keyword: optText('关键字', 50),
  customer: optText('客户', 100),
  state: projectState.optional(),
  managerId: RefId('项目经理').optional(),
  startFrom: isoDay().optional(),
  startTo: isoDay().optional(),
});
export type TenderProjectFilter = z.infer<typeof TenderProjectFilter>;
export const TenderProjectQuery = PageQuery.extend(TenderProjectFilter.shape);
export type TenderProjectQuery = z.infer<typeof TenderProjectQuery>;

export const TenderProjectBody = z
  .object({
    id: RefId('项目').optional(),
    code: reqText('项目编号', 50),
    name: reqText('项目名称', 100),
    customer: text().trim().max(100, '客户不能超过100个字符').default(''),
    location: text().trim().max(100, '项目地点不能超过100个字符').default(''),
    amount: Fen.default(0),
    startDate: optDay(),
    endDate: optDay(),
    state: projectState,
    managerId: optRef('项目经理'),
    /** Not used: the server derives 注册建造师 from the manager's valid 一级/二级建造师 certificate (kept for older clients). */
    managerRegistered: z.boolean({ error: '注册建造师标记不正确' }).optional(),
  })
  .refine((b) => !b.startDate || !b.endDate || b.endDate >= b.startDate, { message: '结束日期不能早于开始日期', path: ['endDate'] });
export type TenderProjectBody = z.input<typeof TenderProjectBody>;
export type TenderProjectInput = z.output<typeof TenderProjectBody>;

export const TenderProjectOptionsQuery = z.object({ keyword: optText('关键字', 50) });

export interface TenderProjectRow {
  id: string;
  code: string;
  name: string;
  customer: string;
  location: string;
  amount: number;
  startDate: string | null;
  endDate: string | null;
  state: number;
  managerId: string | null;
  managerName: string;
  managerRegistered: boolean;
  contractCount: number;
  isTemp: boolean;
  updatedAt: string;
}

export interface TenderProjectInvoiceRow {
  id: string;
  invoiceNo: string;
  buyerName: string;
  issueDate: string | null;
  amountIncl: number;
  status: number;
  colour: number;
}

export interface TenderProjectDetail extends TenderProjectRow {
  contracts: TenderContractRow[];
  invoices: TenderProjectInvoiceRow[];
  /** Sum of the invoices in force (分). */
  invoiced: number;
  /**
   * The certificates in use on the project: there is no link of people to projects yet, so those of its
   * manager (all of them, with their state today).
   */
  certificates: CertificateRow[];
  /** The manager exceptions (注册建造师执业管理办法（试行）第九条) this project is part of, either side. */
  managerExceptions: ManagerExceptionRow[];
  history: TenderHistoryRow[];
}

export interface TenderUserOption {
  id: string;
  name: string;
  loginName: string;
  deptName: string;
  /** 注册建造师 today: holds a valid 一级/二级建造师 certificate (the pickers list these first and mark them). */
  registered: boolean;
}
export const TenderUserOptionsQuery = z.object({ keyword: optText('关键字', 50) });

// ---- 框架合同开票统计 ----

export const FrameStatisticFilter = z.object({ keyword: optText('关键字', 50), customer: optText('客户', 100) });
export type FrameStatisticFilter = z.infer<typeof FrameStatisticFilter>;
export const FrameStatisticQuery = PageQuery.extend(FrameStatisticFilter.shape);
export type FrameStatisticQuery = z.infer<typeof FrameStatisticQuery>;

export interface FrameStatisticRow {
  id: string;
  code: string;
  name: string;
  customer: string;
  /** The frame's own amount (分). */
  frameAmount: number;
  orderCount: number;
  /** Sum of its orders' amounts (分). */
  orderAmount: number;
  /** 已开票: invoices in force issued on its orders (分), red ones netted; what remaining and percentBp use. */
  invoiced: number;
  /** 框架合同直接开票: invoices in force issued on the frame contract itself (分), not on any of its orders; shown apart, never in invoiced. */
  frameInvoiced: number;
  /** orderAmount − invoiced (invoices on the frame itself do not reduce it). */
  remaining: number;
  /** invoiced / orderAmount in basis points; null when there are no order amounts. */
  percentBp: number | null;
}

export interface FrameStatisticPage {
  items: FrameStatisticRow[];
  total: number;
  /** Sums over every frame of the filter; remaining = orderAmount − invoiced. */
  totals: { frameAmount: number; orderAmount: number; invoiced: number; frameInvoiced: number; remaining: number; orderCount: number };
  /** The largest twelve by order amount, for the chart: orders against what was invoiced on the orders. */
  chart: { name: string; orderAmount: number; invoiced: number }[];
}
