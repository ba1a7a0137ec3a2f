/** The four service clients, wired to the session store and the toast. */
import { useSession, getToken } from '../stores/session';
import { showError } from '../ui/feedback';
import { publicConfig } from './config';
import { createHttpClient, type HttpHooks } from './http';

/** Several calls in flight can all answer 50008; only the first resets the token and reloads. */
let reloading = false;

export const hooks: HttpHooks = {
  getToken,
  onTokenInvalid() {
    if (reloading) return;
    reloading = true;
    useSession.getState().resetToken();
    window.location.reload();
  },
  onNeedChangePassword: () => useSession.getState().raisePasswordFlag(),
  showError,
};

/** The main API under /api. */
export const api = createHttpClient({ baseUrl: () => '/api', hooks });

/** The workflow service: own base URL, with credentials; answers under /api/miswf/workflow. */
export const workflowApi = createHttpClient({
  baseUrl: () => `${publicConfig().workflowBaseUrl}/api/miswf/workflow`,
  credentials: 'include',
  workflow: true,
  hooks,
});

/** The office-automation system's to-do API. */
export const oaApi = createHttpClient({ baseUrl: () => publicConfig().oaApiBaseUrl, hooks });

/** The project-management system's to-do API. */
export const pmsApi = createHttpClient({ baseUrl: () => publicConfig().pmsApiBaseUrl, hooks });
