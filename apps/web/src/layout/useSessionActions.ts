/** Logout (SPEC section 4): clears token, roles, login name, stored user name and all open views. */
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { logout } from '../api/account';
import { useBadges } from '../stores/badges';
import { useSession } from '../stores/session';
import { useTagsView } from '../stores/tagsView';

export function clearSession(): void {
  useSession.getState().resetToken();
  useTagsView.getState().reset();
  useBadges.getState().reset();
}

export function useLogout(): () => Promise<void> {
  const navigate = useNavigate();
  return useCallback(async () => {
    const { token, name } = useSession.getState();
    await logout(token, name).catch(() => undefined);
    clearSession();
    await navigate('/login', { replace: true });
  }, [navigate]);
}
