/** The workflow refresh event: pages that change workflow data dispatch it; the counts reload. */
export const WORKFLOW_REFRESH_EVENT = 'workflow-refresh';

export function emitWorkflowRefresh(): void {
  window.dispatchEvent(new Event(WORKFLOW_REFRESH_EVENT));
}
