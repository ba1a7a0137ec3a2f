import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { AttachmentType } from '@zhyy/shared';
import { canChangeLedger, fileTypeLabel, toLedgerRequest, yuanToFen } from './request';

describe('ledger request', () => {
  it('sends 分 for 元 typed, exactly', () => {
    expect(yuanToFen(0.29)).toBe(29);
    expect(yuanToFen(1234.56)).toBe(123456);
    expect(yuanToFen(null)).toBeUndefined();
  });

  it('maps the form: a date range to issue days, blanks dropped, text trimmed', () => {
    expect(toLedgerRequest({ issued: [dayjs('2025-01-01'), dayjs('2025-03-31')], buyerName: '  南京 ', number: '', colour: 2, amountMin: 10, amountMax: null })).toEqual({
      issueFrom: '2025-01-01',
      issueTo: '2025-03-31',
      buyerName: '南京',
      colour: 2,
      amountMin: 1000,
    });
  });

  it('lets roles 1 and 5 change the ledger, not role 11', () => {
    expect(canChangeLedger(['5'])).toBe(true);
    expect(canChangeLedger(['1'])).toBe(true);
    expect(canChangeLedger(['11'])).toBe(false);
  });

  it('names a 1000 file 发票原件 whatever its format, the others by their attachment type', () => {
    expect(fileTypeLabel(1000, AttachmentType.label)).toBe('发票原件');
    expect(fileTypeLabel(1010, AttachmentType.label)).toBe('发票扫描页');
  });
});
