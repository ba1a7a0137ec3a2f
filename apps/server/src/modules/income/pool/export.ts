/** The pool's Excel export: the filtered set, streamed in keyset batches read off the request thread (repo.ts, platform/xlsx.ts). */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  IncomeAbnormalFlag, IncomeBookingState, IncomeInvoiceState, IncomeKind, IncomeRiskLevel, IncomeSignState, IncomeSource, IncomeUsage, IncomeUseKind, IncomeVerifyState,
  type PoolFilter, type PoolRow,
} from '@zhyy/shared';
import { refuse } from '../../../platform/envelope.js';
import { shanghaiTime } from '../../../platform/listing.js';
import { exportXlsx } from '../../syslog/fileExports.js';
import type { Scope } from './filters.js';
import { poolBatches, poolTotalsPlanned } from './repo.js';

export const POOL_EXPORT_MAX_ROWS = 1_000_000;
const yuan = (fen: number) => fen / 100;

export const POOL_COLUMNS = [
  { header: '发票种类', width: 26, value: (r: PoolRow) => IncomeKind.label(r.kind) },
  { header: '发票代码', width: 14, value: (r: PoolRow) => r.invoiceCode },
  { header: '发票号码', width: 12, value: (r: PoolRow) => r.invoiceNo },
  { header: '数电号码', width: 22, value: (r: PoolRow) => r.digitalNo },
  { header: '开票日期', width: 12, value: (r: PoolRow) => r.issueDate },
  { header: '销方名称', width: 32, value: (r: PoolRow) => r.sellerName },
  { header: '销方税号', width: 20, value: (r: PoolRow) => r.sellerTaxNo },
  { header: '购方名称', width: 32, value: (r: PoolRow) => r.buyerName },
  { header: '购方税号', width: 20, value: (r: PoolRow) => r.buyerTaxNo },
  { header: '金额（元）', width: 14, value: (r: PoolRow) => yuan(r.amountExcl) },
  { header: '税额（元）', width: 12, value: (r: PoolRow) => yuan(r.tax) },
  { header: '价税合计（元）', width: 14, value: (r: PoolRow) => yuan(r.amountIncl) },
  { header: '校验码', width: 22, value: (r: PoolRow) => r.checkCode },
  { header: '发票状态', width: 10, value: (r: PoolRow) => IncomeInvoiceState.label(r.invoiceState) },
  { header: '风险等级', width: 10, value: (r: PoolRow) => IncomeRiskLevel.label(r.riskLevel) },
  { header: '查验状态', width: 10, value: (r: PoolRow) => IncomeVerifyState.label(r.verifyState) },
  { header: '查验时间', width: 20, value: (r: PoolRow) => shanghaiTime(r.verifiedAt) },
  { header: '签收状态', width: 10, value: (r: PoolRow) => IncomeSignState.label(r.signState) },
  { header: '档案号', width: 16, value: (r: PoolRow) => r.archiveNo },
  { header: '使用状态', width: 8, value: (r: PoolRow) => IncomeUsage.label(r.usage) },
  { header: '业务单据', width: 24, value: (r: PoolRow) => (r.docNo ? `${IncomeUseKind.label(r.useKind)} ${r.docNo}` : '') },
  { header: '入账状态', width: 14, value: (r: PoolRow) => IncomeBookingState.label(r.bookingState) },
  { header: '来源', width: 8, value: (r: PoolRow) => IncomeSource.label(r.source) },
  { header: '异常', width: 24, value: (r: PoolRow) => r.abnormalFlags.map((f) => IncomeAbnormalFlag.label(f)).join('、') },
];

const NAMES: Record<Scope, string> = { all: '进项票池', other: '其他票池', abnormal: '异常票池' };

export async function exportPool(app: FastifyInstance, req: FastifyRequest, reply: FastifyReply, f: PoolFilter, scope: Scope): Promise<FastifyReply> {
  const db = app.db.kysely;
  // The count and the seller-name plan off the request thread; the batches read with that plan.
  const { totals, filter } = await poolTotalsPlanned(db, f, scope);
  const count = totals.count;
  if (count > POOL_EXPORT_MAX_ROWS) throw refuse(`筛选结果 ${count} 条，超过导出上限 ${POOL_EXPORT_MAX_ROWS} 条，请缩小筛选范围`);
  const name = NAMES[scope];
  return exportXlsx(app, req, reply, {
    fileName: name, sheetName: name, category: name, rowCount: count,
    description: `导出${name} ${count} 条`,
    columns: POOL_COLUMNS, rows: poolBatches(db, filter, scope),
  });
}
