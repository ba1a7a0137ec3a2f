import { beforeEach, describe, expect, it, vi } from 'vitest';
import { alertNewItems, alertedKey, pickNewItems } from './todoAlerts';

describe('to-do notifications (SPEC section 4 "Notification tracking")', () => {
  beforeEach(() => localStorage.clear());

  it('picks only items not alerted yet, without duplicates', () => {
    const { fresh, remembered } = pickNewItems(
      [
        { WorkID: 1, Title: 'a' },
        { WorkID: 2, Title: 'b' },
        { WorkID: 2, Title: 'b again' },
      ],
      ['1'],
    );
    expect(fresh.map((i) => i.Title)).toEqual(['b']);
    expect(remembered).toEqual(['1', '2']);
  });

  it('staggers notifications in 200 ms steps and alerts each id once per login name', () => {
    const schedule = vi.fn((fn: () => void, _ms: number) => fn());
    const notify = vi.fn();
    const items = [
      { WorkID: 11, Title: '报销审批' },
      { WorkID: 12, Title: '合同审批' },
      { WorkID: 13, Title: '付款审批' },
    ];
    expect(alertNewItems('demo5', items, notify, schedule)).toBe(3);
    expect(schedule.mock.calls.map((c) => c[1])).toEqual([0, 200, 400]);
    expect(notify).toHaveBeenCalledTimes(3);

    expect(alertNewItems('demo5', [...items, { WorkID: 14, Title: '新' }], notify, schedule)).toBe(1);
    expect(notify).toHaveBeenLastCalledWith({ WorkID: 14, Title: '新' });

    // Another login name on the same browser is alerted on its own.
    expect(alertNewItems('demo6', items, notify, schedule)).toBe(3);
    expect(JSON.parse(localStorage.getItem(alertedKey('demo5'))!)).toEqual(['11', '12', '13', '14']);
  });

  it('raises at most 5 notifications a round and sums up the rest in one', () => {
    const notify = vi.fn();
    const summarise = vi.fn();
    const schedule = vi.fn((fn: () => void, _ms: number) => fn());
    const many = Array.from({ length: 8 }, (_, i) => ({ WorkID: 100 + i, Title: `待办${i}` }));
    expect(alertNewItems('demo7', many, notify, schedule, summarise)).toBe(8);
    expect(notify).toHaveBeenCalledTimes(5);
    expect(summarise).toHaveBeenCalledWith(3);
    expect(schedule.mock.calls.map((c) => c[1])).toEqual([0, 200, 400, 600, 800, 1000]);
    // All eight are remembered: none is alerted again.
    expect(alertNewItems('demo7', many, notify, schedule, summarise)).toBe(0);
  });

  it('does nothing without a login name', () => {
    const notify = vi.fn();
    expect(alertNewItems('', [{ WorkID: 1, Title: 'x' }], notify)).toBe(0);
    expect(notify).not.toHaveBeenCalled();
  });
});
