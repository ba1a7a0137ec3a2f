/**
 * SPEC section 9: version check on every navigation. The running build's id is compiled in; when
 * /version.json names another, the page reloads (once per new version, so a stale cache cannot loop).
 * Failures are ignored.
 */
const RELOADED_KEY = 'zhyy-version-reloaded-for';
export const VERSION_KEY = 'zhyy-version';

export interface VersionDeps {
  current: string;
  fetchVersion(): Promise<string | undefined>;
  reload(): void;
  storage: Pick<Storage, 'getItem' | 'setItem'>;
}

/** True when a reload happened. */
export async function checkVersionWith(deps: VersionDeps): Promise<boolean> {
  try {
    const remote = await deps.fetchVersion();
    if (!remote) return false;
    deps.storage.setItem(VERSION_KEY, remote);
    if (remote === deps.current || deps.storage.getItem(RELOADED_KEY) === remote) return false;
    deps.storage.setItem(RELOADED_KEY, remote);
    deps.reload();
    return true;
  } catch {
    return false;
  }
}

async function fetchVersion(): Promise<string | undefined> {
  const res = await fetch(`/version.json?t=${Date.now()}`, { cache: 'no-store' });
  if (!res.ok) return undefined;
  const body = (await res.json()) as { version?: unknown };
  return typeof body.version === 'string' ? body.version : undefined;
}

export function checkVersion(): Promise<boolean> {
  // The dev server has no build id to compare with.
  if (!import.meta.env.PROD) return Promise.resolve(false);
  return checkVersionWith({ current: __APP_VERSION__, fetchVersion, reload: () => window.location.reload(), storage: localStorage });
}
