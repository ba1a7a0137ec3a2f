import { beforeEach, describe, expect, it } from 'vitest';
import { EMPTY_COUNTS, sumCounts, toCount, useBadges } from './badges';

describe('badges store (SPEC section 3)', () => {
  beforeEach(() => useBadges.getState().reset());

  it('every count defaults to 0', () => {
    expect(Object.keys(EMPTY_COUNTS)).toHaveLength(15);
    expect(Object.values(useBadges.getState().counts).every((n) => n === 0)).toBe(true);
    expect(useBadges.getState().oaTodo).toBe(0);
    expect(useBadges.getState().onlineCount).toBe(0);
  });

  it('takes known keys from an answer and ignores the rest', () => {
    useBadges.getState().setCounts({ Todolist_EmpWorks: 5, requestBillingCount: '7', junk: 3, items: [] });
    const { counts } = useBadges.getState();
    expect(counts.Todolist_EmpWorks).toBe(5);
    expect(counts.requestBillingCount).toBe(7);
    expect(counts).not.toHaveProperty('junk');
  });

  it('an absent key keeps its value; garbage counts as 0', () => {
    useBadges.getState().setCounts({ toAudit: 4 });
    useBadges.getState().setCounts({ cancellationCount: 'x' });
    expect(useBadges.getState().counts.toAudit).toBe(4);
    expect(useBadges.getState().counts.cancellationCount).toBe(0);
    expect(toCount(-3)).toBe(0);
    expect(toCount(null)).toBe(0);
    expect(toCount(2.7)).toBe(2);
  });

  it('sums the keys of a badge', () => {
    useBadges.getState().setCounts({ redConfirmApplyCount: 60, redConfirmToConfirmCount: 50 });
    expect(sumCounts(useBadges.getState().counts, ['redConfirmApplyCount', 'redConfirmToConfirmCount'])).toBe(110);
  });

  it('sister-system and online counts', () => {
    const s = useBadges.getState();
    s.setSister('oa', 12);
    s.setSister('pms', '3');
    s.setOnlineCount(8);
    expect(useBadges.getState()).toMatchObject({ oaTodo: 12, pmsTodo: 3, onlineCount: 8 });
  });
});
