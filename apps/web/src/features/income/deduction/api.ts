/** 勾选 calls (issue 14): the period, the candidates, tick / undo / import of each page, the log and its export, the setting. */
import type { CandidatePage, TickAnswer, TickImportAnswer, TickLogRow, TickPeriodInfo, TickSetting } from '@zhyy/shared';
import { api } from '../../../api/clients';

export type TickScope = 'deduction' | 'rebate';

const P = '/income/deduction';
/** Each page's calls: 抵扣勾选 without a prefix, 退税勾选 with rebate-. */
export const TICK_CALLS: Record<TickScope, { list: string; tick: string; untick: string; import: string }> = {
  deduction: { list: `${P}/list`, tick: `${P}/tick`, untick: `${P}/untick`, import: `${P}/import` },
  rebate: { list: `${P}/rebate-list`, tick: `${P}/rebate-tick`, untick: `${P}/rebate-untick`, import: `${P}/rebate-import` },
};
export const TICK_LOG_EXPORT = `${P}/log-export`;
export const TICK_KEY = ['income', 'deduction'] as const;

export const tickApi = {
  period: (scope: TickScope) => api.post<TickPeriodInfo>(`${P}/period`, { scope }),
  page: (scope: TickScope, body: Record<string, unknown>) => api.post<CandidatePage>(TICK_CALLS[scope].list, body),
  tick: (scope: TickScope, body: Record<string, unknown>) => api.post<TickAnswer>(TICK_CALLS[scope].tick, body),
  untick: (scope: TickScope, body: Record<string, unknown>) => api.post<TickAnswer>(TICK_CALLS[scope].untick, body),
  importTicks: (scope: TickScope, body: Record<string, unknown>) => api.post<TickImportAnswer>(TICK_CALLS[scope].import, body),
  log: (body: Record<string, unknown>) => api.post<{ items: TickLogRow[]; total: number }>(`${P}/log`, body),
  setting: () => api.post<TickSetting>(`${P}/setting`, {}),
  saveSetting: (tickBookedOnly: boolean) => api.post<TickSetting>(`${P}/setting-save`, { tickBookedOnly }),
};
