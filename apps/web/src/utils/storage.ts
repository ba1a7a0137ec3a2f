/** localStorage access that never throws (private mode, quota, jsdom). */
export function readJson<T>(key: string, fallback: T): T {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? fallback : (JSON.parse(raw) as T);
  } catch {
    return fallback;
  }
}

export function writeJson(key: string, value: unknown): void {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or unavailable: the value simply is not kept.
  }
}

export function readText(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeText(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // ignored, as above
  }
}

/**
 * Why the session ended (the 50008 message: 您已被管理员强制下线, 登录已过期，请重新登录 …), kept across the
 * reload for the sign-in page, which says it once. sessionStorage: it concerns this tab only.
 */
const SIGN_OUT_REASON_KEY = 'zhyy.signOutReason';

export function keepSignOutReason(text: string): void {
  try {
    sessionStorage.setItem(SIGN_OUT_REASON_KEY, text);
  } catch {
    // ignored: the sign-in page then simply says nothing
  }
}

export function readSignOutReason(): string | null {
  try {
    return sessionStorage.getItem(SIGN_OUT_REASON_KEY);
  } catch {
    return null;
  }
}

export function forgetSignOutReason(): void {
  try {
    sessionStorage.removeItem(SIGN_OUT_REASON_KEY);
  } catch {
    // ignored
  }
}
