import { describe, expect, it } from 'vitest';
import type { ConsumeTimeItem } from '@zhyy/shared';
import { aggregateConsumeTime, median, minutesText } from './consumeTime';

const item = (flow: string, node: string, handler: string, minutes: number, done = true): ConsumeTimeItem => ({
  WorkID: 1,
  FlowName: flow,
  NodeName: node,
  HandlerName: handler,
  ArrivedAt: '2026-11-01T00:00:00.000Z',
  DoneAt: done ? '2026-11-02T00:00:00.000Z' : null,
  Minutes: minutes,
});

describe('to-do waiting time', () => {
  const items = [
    item('报销', '部门审核', '张三', 30),
    item('报销', '部门审核', '李四', 90),
    item('报销', '财务审核', '王五', 3000, false),
    item('报销', '部门审核', '张三', 2000),
    item('合同', '法务审核', '赵六', 600),
  ];

  it('groups per node with count, average, median, longest and overdue', () => {
    const rows = aggregateConsumeTime(items, 'node', 1440);
    const dept = rows.find((r) => r.nodeName === '部门审核')!;
    expect(dept).toMatchObject({ flowName: '报销', count: 3, avgMinutes: 707, medianMinutes: 90, maxMinutes: 2000, overdue: 1, open: 0 });
    expect(rows[0]).toMatchObject({ nodeName: '财务审核', open: 1, overdue: 1 });
    expect(rows.map((r) => r.count).reduce((a, b) => a + b)).toBe(5);
  });

  it('groups per flow and per handler', () => {
    expect(aggregateConsumeTime(items, 'flow', 1440).map((r) => [r.flowName, r.count])).toEqual([
      ['报销', 4],
      ['合同', 1],
    ]);
    const zhang = aggregateConsumeTime(items, 'handler', 60).find((r) => r.handlerName === '张三')!;
    expect(zhang).toMatchObject({ count: 2, medianMinutes: 1015, overdue: 1 });
  });

  it('median of even and odd counts; durations in Chinese', () => {
    expect(median([1, 2, 3])).toBe(2);
    expect(median([1, 2, 3, 10])).toBe(3);
    expect(median([])).toBe(0);
    expect(minutesText(0)).toBe('不足1分钟');
    expect(minutesText(45)).toBe('45分钟');
    expect(minutesText(125)).toBe('2小时5分钟');
    expect(minutesText(1440 * 2 + 180)).toBe('2天3小时');
  });
});
