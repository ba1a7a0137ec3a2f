/** SPEC section 3: every count that feeds a badge, each 0 by default. */
import { create } from 'zustand';
import type { BadgeKey } from '@zhyy/shared';

export type BadgeCounts = Record<BadgeKey, number>;

export const EMPTY_COUNTS: BadgeCounts = {
  Todolist_Draft: 0,
  Todolist_Runing: 0,
  Todolist_MyFlow: 0,
  Todolist_EmpWorks: 0,
  Todolist_MyStartFlow: 0,
  toAudit: 0,
  requestBillingCount: 0,
  cancellationCount: 0,
  requestDigitalElectricInvoiceCount: 0,
  redConfirmApplyCount: 0,
  redConfirmToConfirmCount: 0,
  invoiceRetryCreationCount: 0,
  reimbursementApplyCount: 0,
  invoiceEntrySignCount: 0,
  abnormalInvoicePoolCount: 0,
};

export interface BadgeState {
  counts: BadgeCounts;
  /** Sister-system pending counts (todoNum). */
  oaTodo: number;
  pmsTodo: number;
  onlineCount: number;
  /** The user's unread 站内消息 (the navbar bell). */
  unreadMessages: number;
  /** null until the first answer; false while the workflow service cannot be reached. */
  workflowAvailable: boolean | null;
  setCounts(partial: object): void;
  setSister(which: 'oa' | 'pms', count: unknown): void;
  setOnlineCount(count: unknown): void;
  setUnreadMessages(count: unknown): void;
  setWorkflowAvailable(on: boolean): void;
  reset(): void;
}

/** A count from an outside answer: a finite non-negative integer, else 0. */
export function toCount(v: unknown): number {
  const n = Number(v);
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
}

/** Badge total of a route: its counts summed. */
export function sumCounts(counts: BadgeCounts, keys: readonly BadgeKey[]): number {
  return keys.reduce((sum, k) => sum + counts[k], 0);
}

export const useBadges = create<BadgeState>()((set) => ({
  counts: { ...EMPTY_COUNTS },
  oaTodo: 0,
  pmsTodo: 0,
  onlineCount: 0,
  unreadMessages: 0,
  workflowAvailable: null,
  setCounts: (partial) =>
    set((s) => {
      const next = { ...s.counts };
      for (const key of Object.keys(EMPTY_COUNTS) as BadgeKey[]) {
        if (key in partial) next[key] = toCount((partial as Record<string, unknown>)[key]);
      }
      return { counts: next };
    }),
  setSister: (which, count) => set(which === 'oa' ? { oaTodo: toCount(count) } : { pmsTodo: toCount(count) }),
  setOnlineCount: (count) => set({ onlineCount: toCount(count) }),
  setUnreadMessages: (count) => set({ unreadMessages: toCount(count) }),
  setWorkflowAvailable: (workflowAvailable) => set({ workflowAvailable }),
  reset: () => set({ counts: { ...EMPTY_COUNTS }, oaTodo: 0, pmsTodo: 0, onlineCount: 0, unreadMessages: 0, workflowAvailable: null }),
}));
