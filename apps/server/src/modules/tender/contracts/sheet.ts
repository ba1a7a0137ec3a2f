/** The Excel exports of 合同台账, 项目管理 and 框架合同开票统计 (amounts in 元 with two decimals). */
import { ContractType, ProjectState, type FrameStatisticRow, type TenderContractRow, type TenderProjectRow } from '@zhyy/shared';
import { shanghaiTime } from '../../../platform/listing.js';
import type { XlsxColumn } from '../../../platform/xlsx.js';

const yuan = (fen: number) => Number((fen / 100).toFixed(2));

export const CONTRACT_COLUMNS: XlsxColumn<TenderContractRow>[] = [
  { header: '合同编号', width: 18, value: (r) => r.code },
  { header: '合同名称', width: 30, value: (r) => r.name },
  { header: '合同类型', width: 10, value: (r) => ContractType.label(r.contractType) },
  { header: '客户', width: 24, value: (r) => r.customer },
  { header: '合同金额（元）', width: 16, value: (r) => yuan(r.amount) },
  { header: '项目编号', width: 16, value: (r) => r.projectCode },
  { header: '项目名称', width: 24, value: (r) => r.projectName },
  { header: '框架合同', width: 18, value: (r) => r.frameCode },
  { header: '合同负责人', width: 10, value: (r) => r.managerName },
  { header: '签订日期', width: 12, value: (r) => r.signedOn ?? '' },
  { header: '工期开始', width: 12, value: (r) => r.workFrom ?? '' },
  { header: '工期结束', width: 12, value: (r) => r.workTo ?? '' },
  { header: '竣工验收日期', width: 12, value: (r) => r.acceptedOn ?? '' },
  { header: '附件完整性', width: 10, value: (r) => (r.missingPages ? `缺${r.missingPages}页` : '完整') },
  { header: '备注', width: 20, value: (r) => r.remark },
  { header: '更新时间', width: 20, value: (r) => shanghaiTime(r.updatedAt) },
];

export const PROJECT_COLUMNS: XlsxColumn<TenderProjectRow>[] = [
  { header: '项目编号', width: 16, value: (r) => r.code },
  { header: '项目名称', width: 30, value: (r) => r.name },
  { header: '客户', width: 24, value: (r) => r.customer },
  { header: '项目地点', width: 16, value: (r) => r.location },
  { header: '项目金额（元）', width: 16, value: (r) => yuan(r.amount) },
  { header: '开工日期', width: 12, value: (r) => r.startDate ?? '' },
  { header: '完工日期', width: 12, value: (r) => r.endDate ?? '' },
  { header: '状态', width: 8, value: (r) => ProjectState.label(r.state) },
  { header: '项目经理', width: 10, value: (r) => r.managerName },
  { header: '注册建造师', width: 10, value: (r) => (r.managerRegistered ? '是' : '否') },
  { header: '合同数', width: 8, value: (r) => r.contractCount },
  { header: '更新时间', width: 20, value: (r) => shanghaiTime(r.updatedAt) },
];

export const FRAME_COLUMNS: XlsxColumn<FrameStatisticRow>[] = [
  { header: '框架合同编号', width: 18, value: (r) => r.code },
  { header: '框架合同名称', width: 30, value: (r) => r.name },
  { header: '客户', width: 24, value: (r) => r.customer },
  { header: '框架合同金额（元）', width: 18, value: (r) => yuan(r.frameAmount) },
  { header: '订单数', width: 8, value: (r) => r.orderCount },
  { header: '订单金额合计（元）', width: 18, value: (r) => yuan(r.orderAmount) },
  { header: '订单已开票（元）', width: 16, value: (r) => yuan(r.invoiced) },
  { header: '框架合同直接开票（元）', width: 20, value: (r) => yuan(r.frameInvoiced) },
  { header: '订单未开票（元）', width: 16, value: (r) => yuan(r.remaining) },
  { header: '订单开票比例', width: 12, value: (r) => (r.percentBp === null ? '' : `${(r.percentBp / 100).toFixed(2)}%`) },
];
