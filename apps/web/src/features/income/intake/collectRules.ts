/** 采集's dialog rules: the default window and the client's check of it (the server's own messages). */
import type { Dayjs } from 'dayjs';
import { COLLECT_MAX_DAYS, CollectMessages, type CollectTask } from '@zhyy/shared';
import { shanghaiNow } from '../../../utils/time';

/** The first day of last month through today, Asia/Shanghai. */
export function defaultCollectRange(now: Dayjs = shanghaiNow()): [Dayjs, Dayjs] {
  return [now.subtract(1, 'month').startOf('month'), now.startOf('day')];
}

/** Why the window cannot be collected, or null: empty, reversed, or longer than 366 days. */
export function collectWindowError(range: readonly [Dayjs | null | undefined, Dayjs | null | undefined] | null | undefined): string | null {
  const [from, to] = range ?? [];
  if (!from || !to) return '请选择采集的开票日期区间';
  const days = to.startOf('day').diff(from.startOf('day'), 'day') + 1;
  if (days < 1) return CollectMessages.windowReversed;
  if (days > COLLECT_MAX_DAYS) return CollectMessages.windowTooLong;
  return null;
}

/** The bar's percent: invoices handled of those the tax account holds (0 before the first page). */
export function collectPercent(t: Pick<CollectTask, 'seen' | 'total' | 'finished' | 'state'>): number {
  if (t.finished && t.state === 'done') return 100;
  if (!t.total) return 0;
  return Math.min(99, Math.floor((t.seen / t.total) * 100));
}
