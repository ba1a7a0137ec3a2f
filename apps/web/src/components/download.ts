import { formatShanghai } from '@zhyy/shared';
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

/** An instant as YYYY-MM-DD HH:mm:ss in Asia/Shanghai, whatever the browser's zone; '' for none. */
export function formatTime(iso: string | null | undefined): string {
  return formatShanghai(iso, 'YYYY-MM-DD HH:mm:ss');
}

/** Today in Asia/Shanghai as YYYYMMDD, for export file names. */
export function todayStamp(now: Date = new Date()): string {
  return formatShanghai(now, 'YYYYMMDD');
}
