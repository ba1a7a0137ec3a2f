/** 计算抵扣 calls (issue 14): the period's passenger transport documents, the totals by month and kind, the export. */
import type { TransportPage, TransportSummary } from '@zhyy/shared';
import { api } from '../../../api/clients';

export const TRANSPORT_CALLS = { list: '/income/transport/list', summary: '/income/transport/summary', export: '/income/transport/export' } as const;

export const transportApi = {
  page: (body: Record<string, unknown>) => api.post<TransportPage>(TRANSPORT_CALLS.list, body),
  summary: (fromPeriod: string, toPeriod: string) => api.post<TransportSummary>(TRANSPORT_CALLS.summary, { fromPeriod, toPeriod }),
};
