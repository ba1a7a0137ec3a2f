/**
 * 投标管理 › 导出日志 and 导出统计 calls (issue 17): /tender/export-stat/* (packages/shared/src/api/tender-export-stat.ts).
 * Exports are blobs.
 */
import type { z } from 'zod';
import type {
  PageResult,
  TenderExportDetail,
  TenderExportLogFilter,
  TenderExportLogQuery,
  TenderExportLogRow,
  TenderExportStatFilter,
  TenderExportStatQuery,
  TenderExportStatResult,
} from '@zhyy/shared';
import { api } from './clients';

type In<S extends z.ZodType> = z.input<S>;
const S = '/tender/export-stat';

export const tenderExportStatApi = {
  list: (q: In<typeof TenderExportLogQuery>) => api.post<PageResult<TenderExportLogRow>>(`${S}/list`, q),
  detail: (id: string) => api.post<TenderExportDetail>(`${S}/detail`, { id }),
  export: (f: In<typeof TenderExportLogFilter>) => api.blob(`${S}/export`, f),
  statistic: (q: In<typeof TenderExportStatQuery>) => api.post<TenderExportStatResult>(`${S}/statistic`, q),
  exportStatistic: (f: In<typeof TenderExportStatFilter>) => api.blob(`${S}/statistic/export`, f),
};
