/** 勾选 calls (issue 14): the period, the candidates, tick / undo / import of each page, the log and its export, the setting. */
import { ERROR_TOAST_MS, ResponseCode, type CandidatePage, type TickAnswer, type TickImportAnswer, type TickLogRow, type TickPeriodInfo, type TickSetting } from '@zhyy/shared';
import { api } from '../../../api/clients';
import { ApiError } from '../../../api/errors';
import { showError } from '../../../ui/feedback';

export type TickScope = 'deduction' | 'rebate';

const P = '/income/deduction';
/** Each page's calls: 抵扣勾选 without a prefix, 退税勾选 with rebate-. */
export const TICK_CALLS: Record<TickScope, { list: string; export: string; tick: string; untick: string; import: string }> = {
  deduction: { list: `${P}/list`, export: `${P}/export`, tick: `${P}/tick`, untick: `${P}/untick`, import: `${P}/import` },
  rebate: { list: `${P}/rebate-list`, export: `${P}/rebate-export`, tick: `${P}/rebate-tick`, untick: `${P}/rebate-untick`, import: `${P}/rebate-import` },
};
export const TICK_LOG_EXPORT = `${P}/log-export`;
export const TICK_KEY = ['income', 'deduction'] as const;

/** A batch's answer with the server's words (勾选成功3张, or why nothing was ticked). */
export type Said<T> = T & { message: string };

/**
 * A tick, undo or import. A batch of which nothing was recorded is refused (30000) with each invoice's
 * outcome in `r`: that answer is returned, with the server's words, so that the page lists every reason (never
 * a toast claiming success). Any other refusal (a closed period, over 1000 invoices …) is shown as usual and thrown.
 */
async function batch<T>(path: string, body: Record<string, unknown>): Promise<Said<T>> {
  try {
    const e = await api.request<T>(path, body, { noShowError: true });
    return { ...(e.r as T), message: e.message ?? '' };
  } catch (e) {
    if (e instanceof ApiError && e.code === ResponseCode.businessError && e.envelope?.r) return { ...(e.envelope.r as T), message: e.message };
    if (e instanceof ApiError && e.kind === 'business') showError(e.message, ERROR_TOAST_MS);
    throw e;
  }
}

export const tickApi = {
  period: (scope: TickScope) => api.post<TickPeriodInfo>(`${P}/period`, { scope }),
  page: (scope: TickScope, body: Record<string, unknown>) => api.post<CandidatePage>(TICK_CALLS[scope].list, body),
  tick: (scope: TickScope, body: Record<string, unknown>) => batch<TickAnswer>(TICK_CALLS[scope].tick, body),
  untick: (scope: TickScope, body: Record<string, unknown>) => batch<TickAnswer>(TICK_CALLS[scope].untick, body),
  importTicks: (scope: TickScope, body: Record<string, unknown>) => batch<TickImportAnswer>(TICK_CALLS[scope].import, body),
  log: (body: Record<string, unknown>) => api.post<{ items: TickLogRow[]; total: number }>(`${P}/log`, body),
  setting: () => api.post<TickSetting>(`${P}/setting`, {}),
  saveSetting: (tickBookedOnly: boolean) => api.post<TickSetting>(`${P}/setting-save`, { tickBookedOnly }),
};
