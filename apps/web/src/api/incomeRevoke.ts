/**
 * 发票签收 (issue 13): 签收撤销 and 项目分摊 / 项目变更 of incoming invoices, /api/income/entry/*
 * (docs/income.md, "Signing and archiving").
 */
import type {
  EntryDetail,
  IncomeAllocationChangeRow,
  IncomeAllocationMoveBody,
  IncomeAllocationRow,
  IncomeAllocationSetBody,
  PageResult,
  PoolPage,
  RevokeBody,
  RevokeRow,
  SigningRow,
  TargetOption,
} from '@zhyy/shared';
import { api } from './clients';
import type { ListParams } from './system';

const P = '/income/entry';
/** 签收撤销's streamed Excel export (ExportProgress). */
export const REVOKE_EXPORT = `${P}/revoke/export`;

export interface EntryDept {
  id: string;
  name: string;
  parentId: string | null;
}

export const incomeRevokeApi = {
  revokes: (p: ListParams) => api.post<PageResult<RevokeRow>>(`${P}/revoke/list`, p),
  /** The signed records one may revoke (state signed). */
  signed: (p: ListParams) => api.post<PageResult<SigningRow>>(`${P}/revoke/signed`, p),
  /** Silent: the form shows the refusal (已入账, 合同归档 …) in place. */
  revoke: (body: RevokeBody) => api.request<{ archiveNo: string }>(`${P}/revoke/add`, body, { silent: true }),
};

export const incomeProjectApi = {
  /** The invoices waiting to be signed (the pool's filters). */
  waiting: (p: ListParams) => api.post<PoolPage>(`${P}/list`, p),
  /** Signing records (state signed: the signed invoices). */
  signings: (p: ListParams) => api.post<PageResult<SigningRow>>(`${P}/signings`, p),
  detail: (id: string) => api.post<EntryDetail>(`${P}/detail`, { id }),
  allocations: (invoiceId: string) => api.post<IncomeAllocationRow[]>(`${P}/project/allocations`, { invoiceId }),
  changes: (p: ListParams) => api.post<PageResult<IncomeAllocationChangeRow>>(`${P}/project/changes`, p),
  targets: (keyword?: string) => api.post<TargetOption[]>(`${P}/project/targets`, { keyword }),
  depts: () => api.post<EntryDept[]>(`${P}/depts`, {}),
  set: (body: IncomeAllocationSetBody) => api.request<null>(`${P}/project/set`, body),
  move: (body: IncomeAllocationMoveBody) => api.request<null>(`${P}/project/move`, body),
};
