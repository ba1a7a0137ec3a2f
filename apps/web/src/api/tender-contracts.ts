/**
 * 投标管理 › 合同与项目 calls (issue 17): /tender/contract/* (合同台账, the editors' choices, 框架合同开票统计)
 * and /tender/project/* (项目管理). Bodies are the shared zod schemas' input types; answers the shared
 * response types (packages/shared/src/api/tender-contracts.ts). Changes use `request` (the envelope's
 * message says what was done); exports are blobs.
 */
import type { z } from 'zod';
import type {
  Envelope,
  FrameStatisticFilter,
  FrameStatisticPage,
  FrameStatisticQuery,
  ManagerExceptionBody,
  ManagerExceptionRow,
  PageResult,
  TenderContractBody,
  TenderContractDetail,
  TenderContractFilter,
  TenderContractQuery,
  TenderContractRow,
  TenderOption,
  TenderProjectBody,
  TenderProjectDetail,
  TenderProjectFilter,
  TenderProjectQuery,
  TenderProjectRow,
  TenderUserOption,
} from '@zhyy/shared';
import { api } from './clients';
import type { RequestOptions } from './http';

type In<S extends z.ZodType> = z.input<S>;
export type Done<T> = Envelope<T> & { r: T };
const change = <T>(path: string, body: unknown, options?: RequestOptions) => api.request<T>(path, body, options) as Promise<Done<T>>;

const C = '/tender/contract';
const P = '/tender/project';

export const tenderContractApi = {
  list: (q: In<typeof TenderContractQuery>) => api.post<PageResult<TenderContractRow>>(`${C}/list`, q),
  /** Silent: the page shows a missing contract in place. */
  detail: (id: string) => api.post<TenderContractDetail>(`${C}/detail`, { id }, { silent: true }),
  add: (body: TenderContractBody, options?: RequestOptions) => change<TenderContractRow>(`${C}/add`, body, options),
  edit: (body: TenderContractBody, options?: RequestOptions) => change<TenderContractRow>(`${C}/edit`, body, options),
  export: (f: In<typeof TenderContractFilter>) => api.blob(`${C}/export`, f),
  options: (keyword?: string, contractType?: number) => api.post<TenderOption[]>(`${C}/options`, { ...(keyword ? { keyword } : {}), ...(contractType ? { contractType } : {}) }, { silent: true }),
  users: (keyword?: string) => api.post<TenderUserOption[]>(`${C}/users`, keyword ? { keyword } : {}, { silent: true }),
  frameStatistic: (q: In<typeof FrameStatisticQuery>) => api.post<FrameStatisticPage>(`${C}/frame-statistic`, q),
  exportFrameStatistic: (f: In<typeof FrameStatisticFilter>) => api.blob(`${C}/frame-statistic/export`, f),
};

export const tenderProjectApi = {
  list: (q: In<typeof TenderProjectQuery>) => api.post<PageResult<TenderProjectRow>>(`${P}/list`, q),
  detail: (id: string) => api.post<TenderProjectDetail>(`${P}/detail`, { id }, { silent: true }),
  save: (body: TenderProjectBody, options?: RequestOptions) => change<TenderProjectRow>(`${P}/save`, body, options),
  export: (f: In<typeof TenderProjectFilter>) => api.blob(`${P}/export`, f),
  options: (keyword?: string) => api.post<TenderOption[]>(`${P}/options`, keyword ? { keyword } : {}, { silent: true }),
};

/** 项目经理例外 (注册建造师执业管理办法（试行）第九条, issue 29): a project's exceptions; record, modify, delete. */
export const tenderExceptionApi = {
  list: (projectId: string) => api.post<ManagerExceptionRow[]>(`${P}/exception/list`, { id: projectId }),
  save: (body: ManagerExceptionBody, options?: RequestOptions) => change<ManagerExceptionRow>(`${P}/exception/save`, body, options),
  remove: (id: string) => change<null>(`${P}/exception/delete`, { id }),
};
