/**
 * 投标管理 › 投标文件导出 (issue 17): /api/tender/export/*. An export is a background job (the engine in
 * apps/server/src/modules/tender/export); the pages check their picks first (performance-check,
 * certificate check), then create a job, poll its row for the progress bar and download the file.
 * The rules are performanceProblems and certProblemOn in ../tender-rules.ts.
 */
import { z } from '../zod-locale.js';
import { isoDay, text } from './common.js';
import type { ManagerExceptionRow } from './tender-manager-exceptions.js';

export const TENDER_EXPORT_MAX_ITEMS = 200;

export type TenderExportKindName = 'performance' | 'certificate';
export type TenderExportFormatName = 'pdf' | 'zip';
export type TenderExportStateName = 'queued' | 'running' | 'done' | 'failed';

export const TENDER_EXPORT_STATE_LABEL: Record<TenderExportStateName, string> = { queued: '排队中', running: '生成中', done: '已完成', failed: '失败' };
export const TENDER_EXPORT_KIND_LABEL: Record<TenderExportKindName, string> = { performance: '业绩文件', certificate: '证书文件' };

/** One export job as the pages see it. */
export interface TenderExportJob {
  id: string;
  kind: TenderExportKindName;
  format: TenderExportFormatName;
  title: string;
  state: TenderExportStateName;
  /** 0–100 */
  progress: number;
  step: string;
  error: string | null;
  fileName: string;
  size: number | null;
  pageCount: number | null;
  itemCount: number;
  createdByName: string;
  createdAt: string;
  finishedAt: string | null;
}

export const unfinishedExport = (j: Pick<TenderExportJob, 'state'>): boolean => j.state === 'queued' || j.state === 'running';

export const TenderExportJobQuery = z.object({
  kind: z.enum(['performance', 'certificate'], { message: '导出类型不正确' }).optional(),
  /** Everyone's jobs (roles 1 and 6 only); otherwise the caller's own. */
  all: z.boolean({ error: '参数不正确' }).optional(),
  limit: z.number({ error: '条数须为数字' }).int('条数须为整数').min(1, '条数至少为1').max(100, '一次最多查询100条').default(10),
});
export type TenderExportJobQuery = z.input<typeof TenderExportJobQuery>;

export const TenderExportIdBody = z.object({ id: text({ error: '缺少导出记录' }).trim().min(1, '缺少导出记录').max(64, '导出记录不正确') });
export type TenderExportIdBody = z.infer<typeof TenderExportIdBody>;

const ItemId = (label: string) => text({ error: `请选择${label}` }).trim().min(1, `请选择${label}`).max(64, `${label}不正确`);
const ids = (label: string) =>
  z
    .array(ItemId(label), { error: `请选择${label}` })
    .max(TENDER_EXPORT_MAX_ITEMS, `一次最多导出${TENDER_EXPORT_MAX_ITEMS}项`)
    .refine((v) => new Set(v).size === v.length, `${label}重复`);

const deadline = isoDay().describe('投标截止日');
const exportOptions = {
  title: text({ error: '请填写导出标题' }).trim().min(1, '请填写导出标题').max(100, '导出标题不能超过100个字符'),
  format: z.enum(['pdf', 'zip'], { message: '导出格式须为PDF或ZIP' }),
  /** Empty: no watermark (PDF only). */
  watermark: text().trim().max(50, '水印不能超过50个字符').default(''),
  /** Go on although the check found problems (the page shows them and asks first). */
  force: z.boolean({ error: '参数不正确' }).default(false),
};

// ---- 业绩 ----

export const PerformanceCheckBody = z.object({
  contractIds: ids('合同').min(1, '请至少选择一个合同'),
  deadline,
  years: z.number({ error: '年限须为数字' }).int('年限须为整数').min(1, '年限须在1到10年之间').max(10, '年限须在1到10年之间'),
  thresholdFen: z.number({ error: '金额须为数字' }).int('金额须精确到分').min(0, '金额不能为负数').max(1e13, '金额超出范围'),
});
export type PerformanceCheckBody = z.infer<typeof PerformanceCheckBody>;

export const PerformanceCreateBody = PerformanceCheckBody.extend(exportOptions);
export type PerformanceCreateBody = z.input<typeof PerformanceCreateBody>;

export interface PerformanceCheckRow {
  id: string;
  contractType: number;
  code: string;
  name: string;
  customer: string;
  /** 分 */
  amount: number;
  acceptedOn: string | null;
  /** The attachment types it has. */
  presentPages: number[];
  missingPages: number[];
  /** How many files the export would take (its pages, in binding order). */
  fileCount: number;
  /** Empty: it counts as a performance record. */
  problems: string[];
  /** The contract's project and its manager's exceptions there (注册建造师执业管理办法（试行）第九条); none without a project. */
  projectCode: string | null;
  managerName: string;
  managerExceptions: ManagerExceptionRow[];
}

// ---- 证书 ----

const certificatePick = { certificateIds: ids('证书').default([]), titleIds: ids('职称').default([]), deadline };
/** At least one certificate or title, at most TENDER_EXPORT_MAX_ITEMS together (both bodies' rule). */
const pickedCertificates = <T extends z.ZodType<{ certificateIds: string[]; titleIds: string[] }>>(s: T) =>
  s
    .refine((b) => b.certificateIds.length + b.titleIds.length > 0, { message: '请至少选择一个证书', path: ['certificateIds'] })
    .refine((b) => b.certificateIds.length + b.titleIds.length <= TENDER_EXPORT_MAX_ITEMS, { message: `一次最多导出${TENDER_EXPORT_MAX_ITEMS}项`, path: ['certificateIds'] });

export const CertificateCheckBody = pickedCertificates(z.object(certificatePick));
export type CertificateCheckBody = z.input<typeof CertificateCheckBody>;

export const CertificateCreateBody = pickedCertificates(z.object({ ...certificatePick, ...exportOptions }));
export type CertificateCreateBody = z.input<typeof CertificateCreateBody>;

export interface CertificateCheckRow {
  kind: 'certificate' | 'title';
  id: string;
  holderName: string;
  /** The certificate kind (一级建造师…) or the title's name. */
  name: string;
  /** The level: a certificate's level, a title's 初级/中级…. */
  level: string;
  certNo: string;
  validFrom: string | null;
  validTo: string | null;
  scanCount: number;
  problems: string[];
}

/** 人员证书导出: one person's certificates and titles (personnel/items). */
export interface PersonnelExportItems {
  certificates: import('./tender-people.js').CertificateRow[];
  titles: import('./tender-people.js').TitleRow[];
}

/** The answer of a create: the job queued. */
export interface TenderExportCreated {
  id: string;
}
