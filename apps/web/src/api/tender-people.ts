/**
 * 投标管理 — people and certificates (issue 17): /api/tender/personnel/*, title/*, certificate/*, cert-kind/*.
 * Reads use `post` (the answer's `r`); changes `request` (the envelope, its message says what was done);
 * exports are blobs (the server streams and logs them).
 */
import type { z } from 'zod';
import type {
  CertificateAlertQuery, CertificateBody, CertificateCard, CertificateExportQuery, CertificateQuery, CertificateRow, CertificateSummary, CertKind,
  CertKindBody, Envelope, PageResult, PersonnelBody, PersonnelDetail, PersonnelExportQuery, PersonnelFacts, PersonnelOption, PersonnelQuery,
  PersonnelRow, TitleBody, TitleExportQuery, TitleQuery, TitleRow,
} from '@zhyy/shared';
import { api } from './clients';
import type { RequestOptions } from './http';

type In<S extends z.ZodType> = z.input<S>;
export type Done<T> = Envelope<T> & { r: T };
const change = <T>(path: string, body: unknown, options?: RequestOptions) => api.request<T>(path, body, options) as Promise<Done<T>>;

const T = '/tender';

export const personnelApi = {
  list: (q: In<typeof PersonnelQuery>) => api.post<PageResult<PersonnelRow>>(`${T}/personnel/list`, q),
  export: (q: In<typeof PersonnelExportQuery>) => api.blob(`${T}/personnel/export`, q),
  detail: (userId: string) => api.post<PersonnelDetail>(`${T}/personnel/detail`, { userId }),
  save: (body: PersonnelBody, options?: RequestOptions) => change<PersonnelFacts>(`${T}/personnel/save`, body, options),
  options: (keyword?: string) => api.post<PersonnelOption[]>(`${T}/personnel/options`, keyword ? { keyword } : {}),
};

export const titleApi = {
  list: (q: In<typeof TitleQuery>) => api.post<PageResult<TitleRow>>(`${T}/title/list`, q),
  export: (q: In<typeof TitleExportQuery>) => api.blob(`${T}/title/export`, q),
  detail: (id: string) => api.post<TitleRow>(`${T}/title/detail`, { id }),
  save: (body: TitleBody, options?: RequestOptions) => change<TitleRow>(`${T}/title/save`, body, options),
  remove: (id: string) => change<null>(`${T}/title/delete`, { id }),
};

export const certificateApi = {
  list: (q: In<typeof CertificateQuery>) => api.post<PageResult<CertificateRow>>(`${T}/certificate/list`, q),
  export: (q: In<typeof CertificateExportQuery>) => api.blob(`${T}/certificate/export`, q),
  detail: (id: string) => api.post<CertificateRow>(`${T}/certificate/detail`, { id }),
  save: (body: CertificateBody, options?: RequestOptions) => change<CertificateRow>(`${T}/certificate/save`, body, options),
  remove: (id: string) => change<null>(`${T}/certificate/delete`, { id }),
  summary: () => api.post<CertificateSummary>(`${T}/certificate/summary`, {}),
  alerts: (q: In<typeof CertificateAlertQuery>) => api.post<PageResult<CertificateRow>>(`${T}/certificate/alerts`, q),
  card: () => api.post<CertificateCard>(`${T}/certificate/card`, {}),
};

export const certKindApi = {
  list: () => api.post<CertKind[]>(`${T}/cert-kind/list`, {}),
  save: (body: CertKindBody, options?: RequestOptions) => change<CertKind[]>(`${T}/cert-kind/save`, body, options),
  remove: (id: string) => change<CertKind[]>(`${T}/cert-kind/delete`, { id }),
};
