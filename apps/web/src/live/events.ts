/** The workflow refresh event: pages that change workflow data dispatch it; the counts and the online count reload. */
export const WORKFLOW_REFRESH_EVENT = 'workflow-refresh';

/** The counts refresh event: every badge count reloads (a change went through). */
export const COUNTS_REFRESH_EVENT = 'counts-refresh';

let pending: ReturnType<typeof setTimeout> | null = null;

export function emitWorkflowRefresh(): void {
  // A workflow refresh reloads the counts too: it takes the place of a counts refresh still waiting
  // (the change that asked for it is usually the one this refresh follows), so the badges load once.
  if (pending) {
    clearTimeout(pending);
    pending = null;
  }
  window.dispatchEvent(new Event(WORKFLOW_REFRESH_EVENT));
}

/** Asks for one counts refresh; several changes in the same turn (a batch) give one refresh. */
export function emitCountsRefresh(): void {
  if (pending) return;
  pending = setTimeout(() => {
    pending = null;
    window.dispatchEvent(new Event(COUNTS_REFRESH_EVENT));
  }, 0);
}
