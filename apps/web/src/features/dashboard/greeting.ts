/** 早上好 / 上午好 / 中午好 / 下午好 / 晚上好 by the hour. */
export function greeting(hour: number): string {
  if (hour < 6) return '夜深了';
  if (hour < 9) return '早上好';
  if (hour < 11) return '上午好';
  if (hour < 13) return '中午好';
  if (hour < 18) return '下午好';
  return '晚上好';
}
