/** The one TanStack Query client, with the shared rules for failed queries and for the password change. */
import { QueryClient } from '@tanstack/react-query';
import { emitWorkflowRefresh } from '../live/events';
import { useSession } from '../stores/session';
import { shouldRetry } from './retry';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        refetchOnWindowFocus: false,
        // Only an outage is worth a second try; a refusal (50010, 30000 …) answers the same way again.
        retry: shouldRetry,
      },
    },
  });
}

/**
 * While the initial password must be changed every call is refused with 50010; the moment it has been
 * changed, every live card and count reloads instead of waiting for its next 60-second refresh.
 * Returns the unsubscribe function.
 */
export function reloadAfterPasswordChange(client: QueryClient): () => void {
  return useSession.subscribe((state, prev) => {
    if (prev.needChangePassword && !state.needChangePassword && state.token) {
      void client.invalidateQueries();
      emitWorkflowRefresh();
    }
  });
}

export const queryClient = createQueryClient();
reloadAfterPasswordChange(queryClient);
