/** The 计算抵扣 export: the period's passenger transport documents of the filter with their deduction, streamed (platform/xlsx.ts). */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { IncomeKind, IncomeUseKind, TransportKind, TransportReason, type TransportFilter, type TransportRow } from '@zhyy/shared';
import { refuse } from '../../../platform/envelope.js';
import { exportXlsx } from '../../syslog/fileExports.js';
import { transportBatches, transportCount } from './repo.js';

export const TRANSPORT_EXPORT_MAX_ROWS = 200_000;
const yuan = (fen: number) => fen / 100;

export const TRANSPORT_COLUMNS = [
  { header: '票据种类', width: 24, value: (r: TransportRow) => TransportKind.label(r.transportKind) },
  { header: '发票种类', width: 24, value: (r: TransportRow) => IncomeKind.label(r.kind) },
  { header: '发票代码', width: 14, value: (r: TransportRow) => r.invoiceCode },
  { header: '发票号码', width: 22, value: (r: TransportRow) => r.digitalNo || r.invoiceNo },
  { header: '开票日期', width: 12, value: (r: TransportRow) => r.issueDate },
  { header: '销方名称', width: 30, value: (r: TransportRow) => r.sellerName },
  { header: '旅客姓名', width: 10, value: (r: TransportRow) => r.passengerName },
  { header: '出行日期', width: 12, value: (r: TransportRow) => r.travelDate },
  { header: '国内/国际', width: 10, value: (r: TransportRow) => (r.international ? '国际' : '国内') },
  { header: '票面金额（元）', width: 14, value: (r: TransportRow) => yuan(r.amountIncl) },
  { header: '票价（元）', width: 12, value: (r: TransportRow) => (r.transportKind === 'air' ? yuan(r.fare) : null) },
  { header: '燃油附加费（元）', width: 14, value: (r: TransportRow) => (r.transportKind === 'air' ? yuan(r.fuel) : null) },
  { header: '计算依据', width: 34, value: (r: TransportRow) => r.formula },
  { header: '计算税额（元）', width: 14, value: (r: TransportRow) => yuan(r.formulaTax) },
  { header: '是否可抵扣', width: 10, value: (r: TransportRow) => (r.deductible ? '是' : '否') },
  { header: '不可抵扣原因', width: 18, value: (r: TransportRow) => (r.reason ? TransportReason.label(r.reason) : '') },
  { header: '可抵扣税额（元）', width: 14, value: (r: TransportRow) => yuan(r.tax) },
  { header: '报销单据', width: 22, value: (r: TransportRow) => (r.docNo ? `${IncomeUseKind.label(r.useKind)} ${r.docNo}` : '') },
];

export async function exportTransport(app: FastifyInstance, req: FastifyRequest, reply: FastifyReply, f: TransportFilter): Promise<FastifyReply> {
  const db = app.db.kysely;
  const count = await transportCount(db, f);
  if (count > TRANSPORT_EXPORT_MAX_ROWS) throw refuse(`筛选结果 ${count} 条，超过导出上限 ${TRANSPORT_EXPORT_MAX_ROWS} 条，请缩小筛选范围`);
  const name = `旅客运输计算抵扣${f.period}`;
  return exportXlsx(app, req, reply, {
    fileName: name, sheetName: '旅客运输计算抵扣', category: '旅客运输计算抵扣', rowCount: count,
    description: `导出旅客运输计算抵扣（所属期 ${f.period}）${count} 条`,
    columns: TRANSPORT_COLUMNS, rows: transportBatches(db, f),
  });
}
