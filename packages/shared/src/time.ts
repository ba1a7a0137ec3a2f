/**
 * Every time the product shows is Asia/Shanghai wall time, whatever the zone of the browser or server
 * (issue 12 #16): China keeps UTC+8 all year, so the offset is fixed. SPEC section 9: the relative-time helper.
 */

export const SHANGHAI_OFFSET_MS = 8 * 3600_000;

function instant(time: Date | number | string): number {
  return time instanceof Date ? time.getTime() : typeof time === 'number' ? time : Date.parse(time);
}

/** The Asia/Shanghai wall-clock parts of an instant (month 1-12; weekday 0 = Sunday). */
export function shanghaiParts(time: Date | number | string): { year: number; month: number; day: number; hour: number; minute: number; second: number; weekday: number } {
  const d = new Date(instant(time) + SHANGHAI_OFFSET_MS);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds(), weekday: d.getUTCDay() };
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/**
 * An instant in Asia/Shanghai by a pattern of YYYY, MM, M, DD, D, HH, H, mm, ss (other characters are kept);
 * '' for none or an unreadable time. The one formatter of shown times.
 */
export function formatShanghai(time: Date | number | string | null | undefined, pattern = 'YYYY-MM-DD HH:mm:ss'): string {
  if (time === null || time === undefined || time === '') return '';
  const t = instant(time);
  if (Number.isNaN(t)) return '';
  const p = shanghaiParts(t);
  const tokens: Record<string, string> = {
    YYYY: String(p.year),
    MM: pad2(p.month),
    M: String(p.month),
    DD: pad2(p.day),
    D: String(p.day),
    HH: pad2(p.hour),
    H: String(p.hour),
    mm: pad2(p.minute),
    ss: pad2(p.second),
  };
  return pattern.replace(/YYYY|MM|M|DD|D|HH|H|mm|ss/g, (k) => tokens[k]!);
}

/**
 * Under 30 s 刚刚; under 1 hour N分钟前; under 1 day N小时前; under 2 days 1天前;
 * older times show as M月D日H时m分 in Asia/Shanghai.
 */
export function relativeTime(time: Date | number | string, now: Date | number = Date.now()): string {
  const t = instant(time);
  const n = now instanceof Date ? now.getTime() : now;
  const diff = (n - t) / 1000;
  if (diff < 30) return '刚刚';
  if (diff < 3600) return `${Math.ceil(diff / 60)}分钟前`;
  if (diff < 3600 * 24) return `${Math.ceil(diff / 3600)}小时前`;
  if (diff < 3600 * 24 * 2) return '1天前';
  const p = shanghaiParts(t);
  return `${p.month}月${p.day}日${p.hour}时${p.minute}分`;
}

/**
 * After a submission to the tax service (issuing, a 红字确认单): ask again after 3, 5, 10, 20, 30 s, then every
 * 60 s — the server job and the screens showing it alike.
 */
export const SETTLE_POLL_STEPS_S: readonly number[] = [3, 5, 10, 20, 30, 60];

/** The wait before poll number `count` (0 = the first after the submission), in ms. */
export function settlePollDelayMs(count: number): number {
  return (SETTLE_POLL_STEPS_S[Math.max(0, Math.min(count, SETTLE_POLL_STEPS_S.length - 1))] ?? 60) * 1000;
}
