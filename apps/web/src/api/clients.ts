/** The four service clients, wired to the session store and the toast. */
import { useSession, getToken } from '../stores/session';
import { requestReauth } from '../stores/reauth';
import { emitCountsRefresh } from '../live/events';
import { showError } from '../ui/feedback';
import { keepSignOutReason } from '../utils/storage';
import { publicConfig } from './config';
import { createHttpClient, type HttpHooks } from './http';

/** Several calls in flight can all answer 50008; only the first resets the token and reloads. */
let reloading = false;

export const hooks: HttpHooks = {
  getToken,
  onTokenInvalid(reason?: string) {
    if (reloading) return;
    reloading = true;
    // The sign-in page says why (您已被管理员强制下线, 登录已过期，请重新登录 …) — only for a session that existed.
    if (getToken() && reason) keepSignOutReason(reason);
    useSession.getState().resetToken();
    window.location.reload();
  },
  // Issue 31: at work (the signed-in layout shown, a session that existed), sign in again over the page.
  reauthenticate: (reason?: string) => (getToken() && !reloading ? requestReauth(reason) : Promise.resolve(false)),
  onNeedChangePassword: () => useSession.getState().raisePasswordFlag(),
  showError,
  // Any change the user makes refreshes the counts it may affect (badges) at once, not at the next 60 s tick.
  onChanged: () => emitCountsRefresh(),
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

/** True when a base URL is on the platform's own origin (a path, or this origin spelled out). */
export function isSameOrigin(baseUrl: string): boolean {
  try {
    return new URL(baseUrl, window.location.href).origin === window.location.origin;
  } catch {
    return false;
  }
}

/**
 * Hooks for a sister system: the session's X-Token goes only to a same-origin base URL (the built-in
 * simulator, which reads it); an outside system never receives it.
 */
const sisterHooks = (baseUrl: () => string): HttpHooks => ({ ...hooks, getToken: () => (isSameOrigin(baseUrl()) ? getToken() : undefined) });

const oaBase = () => publicConfig().oaApiBaseUrl;
const pmsBase = () => publicConfig().pmsApiBaseUrl;

/** The office-automation system's to-do API. */
export const oaApi = createHttpClient({ baseUrl: oaBase, hooks: sisterHooks(oaBase) });

/** The project-management system's to-do API. */
export const pmsApi = createHttpClient({ baseUrl: pmsBase, hooks: sisterHooks(pmsBase) });
