/** SPEC section 9: a local log of the last 25 client errors, reported to the server in production. */
import { CLIENT_LOG_BUFFER_SIZE } from '@zhyy/shared';
import type { ClientErrorEntry } from '../api/syslog';

const entries: ClientErrorEntry[] = [];
let unsent: ClientErrorEntry[] = [];
let timer: ReturnType<typeof setTimeout> | null = null;
let reporter: ((entries: ClientErrorEntry[]) => Promise<unknown>) | null = null;

const clip = (s: string | undefined, max: number) => (s && s.length > max ? s.slice(0, max) : s);

export function toEntry(error: unknown, url?: string, now = new Date()): ClientErrorEntry {
  const e = error instanceof Error ? error : null;
  const message = e ? `${e.name}: ${e.message}` : typeof error === 'string' ? error : JSON.stringify(error) ?? String(error);
  return { message: clip(message, 2000) ?? '', url: clip(url, 1000), stack: clip(e?.stack, 8000), time: now.toISOString() };
}

/** The kept entries, oldest first. */
export function clientErrors(): readonly ClientErrorEntry[] {
  return entries;
}

export function logClientError(error: unknown, url: string = typeof location === 'undefined' ? '' : location.href): void {
  const entry = toEntry(error, url);
  entries.push(entry);
  if (entries.length > CLIENT_LOG_BUFFER_SIZE) entries.splice(0, entries.length - CLIENT_LOG_BUFFER_SIZE);
  if (!reporter) return;
  unsent.push(entry);
  if (unsent.length > CLIENT_LOG_BUFFER_SIZE) unsent = unsent.slice(-CLIENT_LOG_BUFFER_SIZE);
  timer ??= setTimeout(flush, 2000);
}

function flush(): void {
  timer = null;
  const batch = unsent;
  unsent = [];
  if (batch.length && reporter) void reporter(batch).catch(() => undefined);
}

/** Installs the window listeners; `report` is given in production builds only. */
export function installErrorLog(report: ((entries: ClientErrorEntry[]) => Promise<unknown>) | null): () => void {
  reporter = report;
  const onError = (ev: ErrorEvent) => logClientError(ev.error ?? ev.message);
  const onRejection = (ev: PromiseRejectionEvent) => {
    // Rejected API calls were already handled (toast or silence); they are not client errors.
    if (ev.reason instanceof Error && ev.reason.name === 'ApiError') return;
    logClientError(ev.reason);
  };
  window.addEventListener('error', onError);
  window.addEventListener('unhandledrejection', onRejection);
  return () => {
    window.removeEventListener('error', onError);
    window.removeEventListener('unhandledrejection', onRejection);
  };
}

/** For tests. */
export function resetErrorLog(): void {
  entries.length = 0;
  unsent = [];
  if (timer) clearTimeout(timer);
  timer = null;
  reporter = null;
}
