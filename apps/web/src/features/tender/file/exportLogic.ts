/**
 * The tender file export pages' pure logic: the watermark from the settings' template, the hand-over of
 * checked contracts from 业绩核查 to 业绩文件导出 through the URL, the poll interval of the job panel.
 */
import { unfinishedExport, type TenderExportJob } from '@zhyy/shared';
import { TENDER_KEY } from '../common/attachments';

export const exportJobsKey = (kind: TenderExportJob['kind']) => [...TENDER_KEY, 'export-jobs', kind] as const;

/** The job panel polls about once a second while one of its jobs is queued or running, not otherwise. */
export const POLL_MS = 1000;
export const pollInterval = (jobs: readonly Pick<TenderExportJob, 'state'>[] | undefined): number | false => (jobs?.some(unfinishedExport) ? POLL_MS : false);

/** 仅供××项目投标使用 with the project's name typed in place of ××; the template as is without a name or a ××. */
export function watermarkOf(template: string, project: string): string {
  const name = project.trim();
  if (!name) return template;
  if (template.includes('××')) return template.replace('××', name.replace(/项目$/, ''));
  return template;
}

export interface PerformanceRuleParams {
  deadline: string;
  years: number;
  thresholdFen: number;
}

/** The URL of 业绩文件导出 for the chosen contracts and the rule they were checked with. */
export function performanceExportUrl(ids: readonly string[], rule: PerformanceRuleParams): string {
  const q = new URLSearchParams({ ids: ids.join(','), deadline: rule.deadline, years: String(rule.years), threshold: String(rule.thresholdFen) });
  return `/tender/file/performance-file-export?${q.toString()}`;
}

/** What 业绩文件导出 reads back from its URL; absent or malformed parts left out (the page's defaults apply). */
export function readPerformanceSearch(search: string): { ids: string[] } & Partial<PerformanceRuleParams> {
  const q = new URLSearchParams(search);
  const ids = [...new Set((q.get('ids') ?? '').split(',').map((s) => s.trim()).filter(Boolean))].slice(0, 200);
  const out: { ids: string[] } & Partial<PerformanceRuleParams> = { ids };
  const d = q.get('deadline');
  if (d && /^\d{4}-\d{2}-\d{2}$/.test(d)) out.deadline = d;
  const y = Number(q.get('years'));
  if (Number.isInteger(y) && y >= 1 && y <= 10) out.years = y;
  const t = Number(q.get('threshold'));
  if (q.get('threshold') !== null && Number.isInteger(t) && t >= 0) out.thresholdFen = t;
  return out;
}

/** The rows that pass a check and those that do not. */
export function splitChecked<T extends { problems: string[] }>(rows: readonly T[]): { good: T[]; bad: T[] } {
  return { good: rows.filter((r) => !r.problems.length), bad: rows.filter((r) => r.problems.length > 0) };
}

export function fileSizeText(n: number | null): string {
  if (n === null) return '';
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
