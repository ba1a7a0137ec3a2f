/**
 * The one place the screens format what they show: times and dates (YYYY-MM-DD, Asia/Shanghai),
 * money (元 with thousands separators, from 分), unit prices (grouped like amounts, up to 8 places),
 * 大写, and the money axes of charts (named 万元, ticks in 万 throughout). The rules themselves live in packages/shared.
 */
import { formatFen, formatShanghai } from '@zhyy/shared';
import { formatTime } from './download';

/** An instant as YYYY-MM-DD HH:mm:ss (Asia/Shanghai); '' for none. */
export const formatDateTime = formatTime;

/** An instant or a day as YYYY-MM-DD (Asia/Shanghai); '' for none. */
export function formatDate(value: string | null | undefined): string {
  return formatShanghai(value, 'YYYY-MM-DD');
}

const WAN = new Intl.NumberFormat('zh-CN', { maximumFractionDigits: 4, useGrouping: true });

/**
 * A money axis label of a chart, in 万元 throughout: the axis is named 万元 (moneyAxis), so a tick is the bare
 * figure in 万 (0, 0.5, 1, 5,000 …), never "5000万" under a 万元 heading (issue 31). `yuan` is the value in 元.
 */
export function axisWan(yuan: number): string {
  if (!Number.isFinite(yuan) || yuan === 0) return '0';
  return WAN.format(Number((yuan / 10000).toFixed(4)));
}

/** A chart tooltip value in 元 with thousands separators and two places ('12,345.60 元'). */
export function tooltipYuan(yuan: number | string): string {
  const n = typeof yuan === 'number' ? yuan : Number(yuan);
  return Number.isFinite(n) ? `${formatFen(Math.round(n * 100))} 元` : '';
}

/** The value axis and tooltip of a money chart (values in 元): one unit style for every money chart. */
export const moneyAxis = () => ({ type: 'value' as const, name: '万元', axisLabel: { formatter: axisWan } });
