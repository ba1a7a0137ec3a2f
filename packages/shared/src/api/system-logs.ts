/**
 * System administration, logs and reports (issue 4): operation log, integrated sync log, file
 * exports and downloads, AI recognition calls and the to-do waiting-time report.
 */
import { z } from '../zod-locale.js';
import { OperationLogType, SyncLogStatus, SyncSystem } from '../enums.js';
import { PageQuery, Uuid } from './common.js';
import { TimeRange, optText } from './system.js';

// ---------------------------------------------------------------- operation log

export const OperationLogQuery = PageQuery.extend(TimeRange.shape).extend({
  /** Login name or name of who did it. */
  user: optText(),
  type: z
    .number()
    .int()
    .refine((v) => OperationLogType.has(v), '日志类型不正确')
    .optional(),
  /** Text in the description. */
  text: optText(100),
});
export type OperationLogQuery = z.infer<typeof OperationLogQuery>;

export interface OperationLogRow {
  id: string;
  userId: string | null;
  loginName: string;
  userName: string;
  type: number;
  description: string;
  ip: string;
  /** Reported by the client (/syslog/add-operation-log), not recorded by the server itself. */
  clientReported: boolean;
  createdAt: string;
}

// ---------------------------------------------------------------- integrated sync log

export const SyncLogQuery = PageQuery.extend(TimeRange.shape).extend({
  system: z
    .number()
    .int()
    .refine((v) => SyncSystem.has(v), '系统编码不正确')
    .optional(),
  status: z
    .number()
    .int()
    .refine((v) => SyncLogStatus.has(v), '状态不正确')
    .optional(),
  type: optText(100),
  /** Text in the memo. */
  text: optText(100),
});
export type SyncLogQuery = z.infer<typeof SyncLogQuery>;

export interface SyncLogRow {
  id: string;
  system: number;
  type: string;
  status: number;
  memo: string;
  durationMs: number | null;
  userName: string;
  /** Reported by the client (/syslog/add-integrated-synclog), not an exchange the server made. */
  clientReported: boolean;
  createdAt: string;
}

export interface SyncLogPage {
  items: SyncLogRow[];
  total: number;
  /** Failures among the rows matching every filter but the status. */
  failures: number;
}

export interface SyncLogDetail extends SyncLogRow {
  request: string | null;
  response: string | null;
}

export const SyncLogDetailBody = z.object({ id: Uuid });

// ---------------------------------------------------------------- file exports and downloads

export const FileExportKind = { export: 'export', download: 'download' } as const;
export const FILE_EXPORT_KIND_LABELS: Record<string, string> = { export: '导出', download: '下载' };

export const FileExportLogQuery = PageQuery.extend(TimeRange.shape).extend({
  user: optText(),
  kind: z.enum(['export', 'download'], { message: '类型不正确' }).optional(),
  category: optText(40),
  text: optText(100),
});
export type FileExportLogQuery = z.infer<typeof FileExportLogQuery>;

export interface FileExportLogRow {
  id: string;
  kind: string;
  category: string;
  description: string;
  fileName: string;
  rowCount: number | null;
  loginName: string;
  userName: string;
  deptName: string;
  createdAt: string;
}

export const FileExportStatQuery = TimeRange.extend({
  groupBy: z.enum(['user', 'category', 'day'], { message: '统计维度不正确' }).default('category'),
  kind: z.enum(['export', 'download'], { message: '类型不正确' }).optional(),
});
export type FileExportStatQuery = z.infer<typeof FileExportStatQuery>;

export interface FileExportStatRow {
  key: string;
  label: string;
  exports: number;
  downloads: number;
  total: number;
  lastAt: string;
}

// ---------------------------------------------------------------- AI recognition calls

/** The recognition service's interfaces; other areas call recordAiCall() with one of these. */
export const AI_INTERFACES: Record<string, string> = {
  'invoice-ocr': '发票识别',
  'invoice-verify': '发票查验信息提取',
  'contract-ocr': '合同识别',
  'certificate-ocr': '证书识别',
};
export const aiInterfaceName = (code: string) => AI_INTERFACES[code] ?? code;

export const AiStatQuery = TimeRange.extend({
  groupBy: z.enum(['interface', 'user', 'day'], { message: '统计维度不正确' }).default('interface'),
  interfaceCode: optText(40),
  user: optText(),
});
export type AiStatQuery = z.infer<typeof AiStatQuery>;

export interface AiStatRow {
  key: string;
  label: string;
  calls: number;
  successes: number;
  /** 0..1; null without calls. */
  successRate: number | null;
  avgDurationMs: number | null;
}

export interface AiStatResult {
  rows: AiStatRow[];
  total: AiStatRow;
  /** Calls and failures per day (Asia/Shanghai), for the chart. */
  daily: Array<{ day: string; calls: number; failures: number }>;
}

// ---------------------------------------------------------------- to-do waiting time (workflow service)

/** What the waiting-time report sends to the workflow service's consumetime/list (issue 5), page by page. */
export interface ConsumeTimeQuery {
  pageIndex: number;
  pageSize: number;
  /** Calendar days (Asia/Shanghai), YYYY-MM-DD, both included. */
  from?: string;
  to?: string;
  flowNo?: string;
}

/** One to-do item as consumetime/list answers it: when it arrived, when it was done, how long it waited. */
export interface ConsumeTimeItem {
  WorkID: number;
  FlowName: string;
  NodeName: string;
  HandlerName: string;
  DeptName?: string;
  ArrivedAt: string;
  DoneAt: string | null;
  /** Minutes waited (until now while still open). */
  Minutes: number;
}
