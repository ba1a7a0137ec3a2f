/**
 * Signing in again without leaving the page (issue 31). When a call meets 50008 (the session was
 * revoked, forced offline, or reached its 7-day end) while the signed-in layout is shown, the request
 * layer waits here instead of reloading into /login: the layout's ReauthDialog asks for the password
 * over the page, what the user typed stays where it is, and every call that met 50008 meanwhile is sent
 * once more with the new token (a 保存草稿 goes through with the form as it was). Choosing 重新登录页
 * (or no layout to ask: the sign-in page, the first user-info load) falls back to the old way: the token
 * is cleared and the page reloads into /login.
 */
import { create } from 'zustand';

export interface ReauthState {
  /** Why the session ended (the server's message), while the dialog is open. */
  reason: string | null;
  /** How many dialogs can ask (the signed-in layout mounts one). */
  hosts: number;
  waiting: Array<(signedIn: boolean) => void>;
}

export const useReauth = create<ReauthState>()(() => ({ reason: null, hosts: 0, waiting: [] }));

/** The request layer's hook: resolves true once signed in again, false when the user leaves or nobody can ask. */
export function requestReauth(reason?: string): Promise<boolean> {
  const s = useReauth.getState();
  if (s.hosts === 0) return Promise.resolve(false);
  return new Promise<boolean>((resolve) => {
    useReauth.setState((st) => ({ reason: st.reason ?? (reason || '登录已失效，请重新登录'), waiting: [...st.waiting, resolve] }));
  });
}

/** The dialog's answer: every waiting call goes on (true) or gives up (false). */
export function settleReauth(signedIn: boolean): void {
  const { waiting } = useReauth.getState();
  useReauth.setState({ reason: null, waiting: [] });
  for (const w of waiting) w(signedIn);
}

/** A dialog mounted (returns its unmount). */
export function registerReauthHost(): () => void {
  useReauth.setState((s) => ({ hosts: s.hosts + 1 }));
  return () => {
    useReauth.setState((s) => ({ hosts: s.hosts - 1 }));
    if (useReauth.getState().hosts === 0) settleReauth(false);
  };
}
