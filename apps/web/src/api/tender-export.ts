/**
 * 投标文件导出 calls (issue 17): /tender/export/* — the checks, the creates (background jobs), the job
 * list and status the progress bar polls, and the download (GET, streamed; a JSON answer is a refusal).
 */
import type {
  CertificateCheckBody, CertificateCheckRow, CertificateCreateBody, PerformanceCheckBody, PerformanceCheckRow, PerformanceCreateBody, TenderExportCreated, TenderExportJob,
  TenderExportJobQuery, CertificateQuery, CertificateRow, PageResult, PersonnelExportItems, PersonnelOption, TitleQuery, TitleRow,
} from '@zhyy/shared';
import type { z } from 'zod';
import { api } from './clients';

const E = '/tender/export';

export const tenderExportApi = {
  jobs: (q: TenderExportJobQuery) => api.post<TenderExportJob[]>(`${E}/jobs`, q),
  status: (id: string) => api.post<TenderExportJob>(`${E}/status`, { id }),
  download: (id: string) => api.blob(`${E}/download?id=${encodeURIComponent(id)}`, undefined, { method: 'GET' }),
  performanceCheck: (b: PerformanceCheckBody) => api.post<PerformanceCheckRow[]>(`${E}/performance/check`, b),
  performanceCreate: (b: PerformanceCreateBody) => api.request<TenderExportCreated>(`${E}/performance/create`, b),
  certificateCheck: (b: CertificateCheckBody) => api.post<CertificateCheckRow[]>(`${E}/certificate/check`, b),
  certificateList: (q: z.input<typeof CertificateQuery>) => api.post<PageResult<CertificateRow>>(`${E}/certificate/list`, q),
  titleList: (q: z.input<typeof TitleQuery>) => api.post<PageResult<TitleRow>>(`${E}/title/list`, q),
  personnelOptions: (keyword?: string) => api.post<PersonnelOption[]>(`${E}/personnel/options`, keyword ? { keyword } : {}),
  personnelItems: (userId: string) => api.post<PersonnelExportItems>(`${E}/personnel/items`, { userId }),
  certificateCreate: (b: CertificateCreateBody) => api.request<TenderExportCreated>(`${E}/certificate/create`, b),
};
