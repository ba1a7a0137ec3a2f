/** Shown times are Asia/Shanghai wall time whatever the browser's zone (issue 12 #16); the formatter is shared. */
import dayjs, { type Dayjs } from 'dayjs';
import { formatShanghai } from '@zhyy/shared';

/**
 * Now as a dayjs whose fields read Asia/Shanghai wall time (hour, date, weekday): for the greeting, today's
 * date and default date ranges. Only for reading those fields; instants go through formatShanghai.
 */
export function shanghaiNow(now: number = Date.now()): Dayjs {
  return dayjs(formatShanghai(now, 'YYYY-MM-DDTHH:mm:ss'));
}

/** The last `n` days up to today (Asia/Shanghai), the default range of the report pages. */
export function lastDays(n = 30): [Dayjs, Dayjs] {
  const now = shanghaiNow();
  return [now.subtract(n - 1, 'day'), now];
}

/**
 * The instant a picked calendar day starts in Asia/Shanghai, as ISO: what a date-range filter sends, so
 * 11-01 means the company's 11-01 whatever the browser's zone (its own midnight would be 8 hours off in UTC).
 */
export function shanghaiDayStart(day: Dayjs): string {
  return new Date(`${day.format('YYYY-MM-DD')}T00:00:00+08:00`).toISOString();
}
