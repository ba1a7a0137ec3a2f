/** SPEC sections 4 and 5: load the user info for a token; the failures carry the spec's messages. */
import { Messages, type UserInfo } from '@zhyy/shared';

export async function fetchCheckedUserInfo(token: string, fetchInfo: (token: string) => Promise<UserInfo | null | undefined>): Promise<UserInfo> {
  const info = await fetchInfo(token);
  if (!info) throw new Error(Messages.loginInfoMissing);
  if (!Array.isArray(info.roles) || info.roles.length === 0) throw new Error(Messages.noRoles);
  return info;
}

/** The message a failed guard shows: the error's own text, else 'Has Error'. */
export function guardErrorMessage(e: unknown): string {
  if (e instanceof Error && e.message) return e.message;
  if (typeof e === 'string' && e) return e;
  return Messages.routeGuardFallback;
}
