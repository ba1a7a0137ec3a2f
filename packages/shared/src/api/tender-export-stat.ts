/**
 * 投标管理 › 导出日志 and 导出统计 (issue 17, roles 1 and 6): /api/tender/export-stat/*. The tender file
 * exports (tender_exports) with their items and downloads, and how often contracts, certificates, people
 * and exporters were used per month (done exports only). Days 'YYYY-MM-DD', months 'YYYY-MM', both of
 * Asia/Shanghai.
 */
import { z } from '../zod-locale.js';
import { isoDay, PageQuery, text } from './common.js';
import { monthsBetween } from './reimbursement-ledger.js';

export const TENDER_EXPORT_KIND_LABELS: Record<string, string> = { performance: '业绩', certificate: '证书' };
export const TENDER_EXPORT_STATE_LABELS: Record<string, string> = { queued: '排队中', running: '生成中', done: '已完成', failed: '失败' };
export const TENDER_EXPORT_ITEM_LABELS: Record<string, string> = { contract: '合同', certificate: '资格证书', title: '职称证书' };

/** The statistic's dimensions: 合同, 证书, 人员 (the holders of the certificates and titles), 导出人. */
export const TENDER_STAT_DIMENSIONS = ['contract', 'certificate', 'person', 'user'] as const;
export type TenderStatDimension = (typeof TENDER_STAT_DIMENSIONS)[number];
export const TENDER_STAT_DIMENSION_LABELS: Record<TenderStatDimension, string> = { contract: '合同', certificate: '证书', person: '人员', user: '导出人' };
/** The longest month range of the statistic. */
export const TENDER_STAT_MAX_MONTHS = 24;

const optText = (label: string, max: number) => text().trim().max(max, `${label}不能超过${max}个字符`).optional().transform((v) => v || undefined);
const Month = (label: string) => text({ error: `请选择${label}` }).regex(/^\d{4}-(0[1-9]|1[0-2])$/, `${label}格式应为YYYY-MM`);
const Dimension = z.enum(TENDER_STAT_DIMENSIONS, { message: '统计维度不正确' });

const rangeChecks = <T extends { fromMonth: string; toMonth: string }>(s: z.ZodType<T>) =>
  s
    .refine((v) => v.fromMonth <= v.toMonth, { message: '开始月份不能晚于结束月份', path: ['toMonth'] })
    .refine((v) => monthsBetween(v.fromMonth, v.toMonth).length <= TENDER_STAT_MAX_MONTHS, { message: `统计区间最多${TENDER_STAT_MAX_MONTHS}个月`, path: ['toMonth'] });

// ---- 导出日志 ----

export const TenderExportLogFilter = z.object({
  from: isoDay().optional(),
  to: isoDay().optional(),
  /** 导出人: name or login name. */
  user: optText('导出人', 50),
  kind: z.enum(['performance', 'certificate'], { message: '导出类型不正确' }).optional(),
  state: z.enum(['queued', 'running', 'done', 'failed'], { message: '状态不正确' }).optional(),
  /** Title, file name or an item's name. */
  keyword: optText('关键字', 50),
  /** Drill-down of 导出统计: the exports that used this item (with its dimension). */
  dimension: Dimension.optional(),
  key: optText('统计项', 64),
});
export type TenderExportLogFilter = z.infer<typeof TenderExportLogFilter>;
export const TenderExportLogQuery = PageQuery.extend(TenderExportLogFilter.shape);
export type TenderExportLogQuery = z.infer<typeof TenderExportLogQuery>;

export interface TenderExportLogRow {
  id: string;
  kind: 'performance' | 'certificate';
  format: 'pdf' | 'zip';
  title: string;
  fileName: string;
  state: 'queued' | 'running' | 'done' | 'failed';
  error: string | null;
  itemCount: number;
  pageCount: number | null;
  /** Bytes. */
  size: number | null;
  sha256: string | null;
  createdByName: string;
  createdByLogin: string;
  createdAt: string;
  finishedAt: string | null;
  /** Done, but its file was removed after the retention period: it cannot be downloaded. */
  purged: boolean;
  downloads: number;
  lastDownloadAt: string | null;
}

/** An export by its id: the one body of tender-export.ts (the job's status and download use it too). */
export { TenderExportIdBody } from './tender-export.js';

export interface TenderExportDetail {
  export: TenderExportLogRow;
  items: { position: number; itemKind: string; itemId: string; label: string }[];
  /** Every download of the file, newest first. */
  downloads: { userName: string; loginName: string; deptName: string; createdAt: string }[];
}

// ---- 导出统计 ----

export const TenderExportStatFilter = rangeChecks(
  z.object({
    fromMonth: Month('开始月份'),
    toMonth: Month('结束月份'),
    dimension: Dimension.default('contract'),
  }),
);
export type TenderExportStatFilter = z.infer<typeof TenderExportStatFilter>;
export const TenderExportStatQuery = rangeChecks(
  z.object({
    fromMonth: Month('开始月份'),
    toMonth: Month('结束月份'),
    dimension: Dimension.default('contract'),
    top: z.number({ error: '前N名须为数字' }).int('前N名须为整数').min(1, '前N名至少为1').max(100, '前N名最多为100').default(10),
  }),
);
export type TenderExportStatQuery = z.infer<typeof TenderExportStatQuery>;

export interface TenderExportStatRow {
  /** The item's id (contract, certificate, person's or exporter's user id). */
  key: string;
  label: string;
  /** Exports that used it, per month of `months`. */
  counts: number[];
  total: number;
}

export interface TenderExportStatResult {
  months: string[];
  /** The top N by total (ties by name). */
  rows: TenderExportStatRow[];
  /** How many items of the dimension were used at all in the range. */
  itemTotal: number;
  /** Done exports per month, and in all. */
  exportsPerMonth: number[];
  exports: number;
}
