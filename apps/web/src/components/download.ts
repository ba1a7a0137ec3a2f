/** Saves a blob the API returned (an Excel export) under a file name. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

const SHANGHAI_OFFSET_MS = 8 * 3600_000;

/** An instant as YYYY-MM-DD HH:mm:ss in Asia/Shanghai, whatever the browser's zone; '' for none. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '';
  return new Date(t + SHANGHAI_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');
}

/** Today in Asia/Shanghai as YYYYMMDD, for export file names. */
export function todayStamp(now: Date = new Date()): string {
  return new Date(now.getTime() + SHANGHAI_OFFSET_MS).toISOString().slice(0, 10).replaceAll('-', '');
}
