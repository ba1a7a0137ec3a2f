/** One refresh of every count (SPEC section 7 "Refresh"); each failure is silent. */
import { accessibleRoutes, type BadgeKey } from '@zhyy/shared';
import { publicConfig } from '../api/config';
import { isUnreachable } from '../api/errors';
import { fetchCostTodo, fetchInvoiceCounts, fetchOaTodo, fetchPmsTodo, fetchUnreadMessages, fetchWorkflowTodo, type WorkflowTodoItem } from '../api/live';
import { useBadges } from '../stores/badges';

const INVOICE_KEYS: readonly BadgeKey[] = [
  'requestBillingCount',
  'cancellationCount',
  'requestDigitalElectricInvoiceCount',
  'redConfirmApplyCount',
  'redConfirmToConfirmCount',
  'invoiceRetryCreationCount',
  'reimbursementApplyCount',
  'invoiceEntrySignCount',
  'abnormalInvoicePoolCount',
];

/** Which count sources a user's pages show, so nobody polls what they cannot see. */
export function countSources(roles: readonly string[]): { invoice: boolean; cost: boolean } {
  const keys = new Set(accessibleRoutes(roles).flatMap((r) => r.badge?.keys ?? []));
  return { invoice: INVOICE_KEYS.some((k) => keys.has(k)), cost: keys.has('toAudit') };
}

export interface RefreshHandlers {
  onTodoItems(items: WorkflowTodoItem[]): void;
  onInvoiceCounts(abnormalCount: number): void;
}

export async function refreshCounts(loginName: string, roles: readonly string[], handlers: RefreshHandlers): Promise<void> {
  const badges = useBadges.getState();
  const cfg = publicConfig();
  const sources = countSources(roles);
  const quiet = () => undefined;
  await Promise.allSettled([
    fetchWorkflowTodo().then(
      (r) => {
        badges.setCounts(r ?? {});
        badges.setWorkflowAvailable(true);
        if (Array.isArray(r?.items)) handlers.onTodoItems(r.items);
      },
      // Only an outage marks the service unavailable; a refusal (50010 while the initial password must be
      // changed, …) leaves the last state as it was.
      (e: unknown) => {
        if (isUnreachable(e)) badges.setWorkflowAvailable(false);
      },
    ),
    sources.invoice
      ? fetchInvoiceCounts().then((r) => {
          badges.setCounts(r ?? {});
          handlers.onInvoiceCounts(useBadges.getState().counts.abnormalInvoicePoolCount);
        }, quiet)
      : null,
    sources.cost ? fetchCostTodo().then((r) => badges.setCounts({ toAudit: r?.toAudit }), quiet) : null,
    cfg.oaApiBaseUrl && loginName ? fetchOaTodo(loginName).then((n) => badges.setSister('oa', n), quiet) : null,
    cfg.pmsApiBaseUrl && loginName ? fetchPmsTodo(loginName).then((n) => badges.setSister('pms', n), quiet) : null,
    // Every signed-in user's own 站内消息 (the navbar bell).
    fetchUnreadMessages().then((r) => badges.setUnreadMessages(r?.unread), quiet),
  ]);
}
