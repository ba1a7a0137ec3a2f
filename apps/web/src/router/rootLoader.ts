/** The root route's loader: version check, then the guard on every navigation (SPEC sections 2, 4, 9). */
import { redirect, type LoaderFunctionArgs } from 'react-router';
import { getUserInfo } from '../api/account';
import { publicConfigReady } from '../api/config';
import { useSession } from '../stores/session';
import { showError } from '../ui/feedback';
import { ERROR_TOAST_MS } from '@zhyy/shared';
import { checkVersion } from '../live/version';
import { decide, LOGIN_PATH } from './guard';
import { fetchCheckedUserInfo, guardErrorMessage } from './loadUser';

let pendingInfo: Promise<void> | null = null;

/** One user-info load at a time, however many navigations wait for it. */
function loadUserInfo(token: string): Promise<void> {
  pendingInfo ??= fetchCheckedUserInfo(token, getUserInfo)
    .then((info) => useSession.getState().setUserInfo(info))
    .finally(() => {
      pendingInfo = null;
    });
  return pendingInfo;
}

export async function rootLoader({ request }: LoaderFunctionArgs): Promise<null> {
  void checkVersion();
  const url = new URL(request.url);
  // Every page but the sign-in page reads the public configuration (base URLs of the workflow, OA and PMS).
  if (url.pathname !== LOGIN_PATH) await publicConfigReady();
  for (let attempt = 0; attempt < 2; attempt++) {
    const { token, roles } = useSession.getState();
    const d = decide({ pathname: url.pathname, search: url.search, token, roles });
    if (d.type === 'allow') return null;
    if (d.type === 'redirect') throw redirect(d.to);
    try {
      await loadUserInfo(token);
    } catch (e) {
      useSession.getState().resetToken();
      showError(guardErrorMessage(e), ERROR_TOAST_MS);
      throw redirect(LOGIN_PATH);
    }
  }
  throw redirect(LOGIN_PATH);
}
