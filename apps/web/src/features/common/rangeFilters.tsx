/** Filter helpers of the log and report screens: a date range that becomes { from, to }. */
import { DatePicker, Form } from 'antd';
import type { Dayjs } from 'dayjs';
import { shanghaiDayStart } from '../../utils/time';

type Range = [Dayjs | null, Dayjs | null] | null | undefined;

/** { range, ...rest } to { from, to, ...rest }: from the start of the first day to the end of the last (days of Asia/Shanghai). */
export function withRange(values: Record<string, unknown>): Record<string, unknown> {
  const { range, ...rest } = values as { range?: Range };
  const [a, b] = range ?? [null, null];
  return { ...rest, from: a ? shanghaiDayStart(a) : undefined, to: b ? shanghaiDayStart(b.add(1, 'day')) : undefined };
}

export function RangeItem({ label = '时间' }: { label?: string }) {
  return (
    <Form.Item name="range" label={label}>
      <DatePicker.RangePicker allowEmpty={[true, true]} style={{ width: 240 }} />
    </Form.Item>
  );
}
