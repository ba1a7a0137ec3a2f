/** SPEC section 9: the relative-time helper. */

/**
 * Under 30 s 刚刚; under 1 hour N分钟前; under 1 day N小时前; under 2 days 1天前;
 * older times show as M月D日H时m分 (Asia/Shanghai is the caller's local time in the browser).
 */
export function relativeTime(time: Date | number | string, now: Date | number = Date.now()): string {
  const t = time instanceof Date ? time.getTime() : typeof time === 'number' ? time : Date.parse(time);
  const n = now instanceof Date ? now.getTime() : now;
  const diff = (n - t) / 1000;
  if (diff < 30) return '刚刚';
  if (diff < 3600) return `${Math.ceil(diff / 60)}分钟前`;
  if (diff < 3600 * 24) return `${Math.ceil(diff / 3600)}小时前`;
  if (diff < 3600 * 24 * 2) return '1天前';
  const d = new Date(t);
  return `${d.getMonth() + 1}月${d.getDate()}日${d.getHours()}时${d.getMinutes()}分`;
}
