/** 抵扣统计 / 退税统计 calls (issue 14): the view, the four actions, the export. Refusals come back as ApiError with the server's Chinese message (silent: the page shows it). */
import type { StatActionCode, StatOutsideTickBody, StatView } from '@zhyy/shared';
import { api } from '../../../api/clients';

export type StatScope = 'deduction' | 'rebate';
const P = '/income/statistics';
const PATH: Record<StatActionCode, string> = { apply: 'apply', confirm: 'confirm', revokeApply: 'revoke-apply', revokeConfirm: 'revoke-confirm' };
export const STAT_KEY = ['income', 'statistics'] as const;

export const statApi = {
  view: (scope: StatScope, period?: string) => api.post<StatView>(`${P}/${scope}/view`, period ? { period } : {}),
  act: (scope: StatScope, action: StatActionCode, period: string, reason?: string) => api.post<StatView>(`${P}/${scope}/${PATH[action]}`, reason ? { period, reason } : { period }, { silent: true }),
  /** 采纳税务端 (统计对比, issue 32 item 1): the chosen lines' keys, or every adoptable line when absent. */
  adopt: (scope: StatScope, period: string, keys?: string[]) => api.post<StatView>(`${P}/${scope}/adopt`, keys ? { period, keys } : { period }, { silent: true }),
  /** 模拟税务端勾选 (simulator mode only). */
  outsideTick: (scope: StatScope, body: StatOutsideTickBody) => api.post<{ period: string; accepted: number; outcomes: Array<{ key: string; accepted: boolean; message: string }> }>(`${P}/${scope}/sim-outside-tick`, body, { silent: true }),
  exportFigures: (scope: StatScope, period: string) => api.blob(`${P}/${scope}/export`, { period }),
};
