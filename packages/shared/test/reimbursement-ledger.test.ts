/** 报销台账报表's shared rules: the summary's month list and range limit, the net of tax, the ledger's date and amount ranges. */
import { describe, expect, it } from 'vitest';
import { monthsBetween, reimbNetAmount, ReimbLedgerQuery, ReimbSummaryQuery } from '../src/index.js';

describe('reimbursement ledger rules', () => {
  it('monthsBetween crosses years and includes both ends', () => {
    expect(monthsBetween('2030-11', '2031-02')).toEqual(['2030-11', '2030-12', '2031-01', '2031-02']);
    expect(monthsBetween('2031-05', '2031-05')).toEqual(['2031-05']);
  });
  it('the summary answers at most 24 months, from before to', () => {
    expect(ReimbSummaryQuery.safeParse({ fromMonth: '2030-01', toMonth: '2031-12' }).success).toBe(true);
    expect(ReimbSummaryQuery.safeParse({ fromMonth: '2030-01', toMonth: '2032-01' }).error?.issues[0]?.message).toBe('月份范围不能超过24个月');
    expect(ReimbSummaryQuery.safeParse({ fromMonth: '2031-02', toMonth: '2031-01' }).error?.issues[0]?.message).toBe('开始月份不能晚于结束月份');
  });
  it('net of tax is the approved amount less the deductible tax', () => {
    expect(reimbNetAmount(100_00, 8_26)).toBe(91_74);
  });
  it('the ledger refuses reversed ranges and lists no draft', () => {
    expect(ReimbLedgerQuery.safeParse({ approvedFrom: '2031-02-01', approvedTo: '2031-01-31' }).error?.issues[0]?.message).toBe('审批通过日期起不能晚于止');
    expect(ReimbLedgerQuery.safeParse({ flowState: 0 }).success).toBe(false);
    expect(ReimbLedgerQuery.safeParse({ flowState: 2, reimbState: -1 }).success).toBe(true);
  });
});
