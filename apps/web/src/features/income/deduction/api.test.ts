/**
 * Issue 27 Minor 8: a tick batch refused as a whole is a 30000 answer carrying each invoice's outcome; the
 * client returns that answer with the server's words (the page lists the reasons) and shows no toast; a
 * refusal without outcomes (a closed period) is shown and thrown; a success comes with its words.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';

const request = vi.fn();
const showError = vi.fn();
vi.mock('../../../api/clients', () => ({ api: { request: (...a: unknown[]) => request(...a) } }));
vi.mock('../../../ui/feedback', () => ({ showError: (...a: unknown[]) => showError(...a) }));

const { ApiError } = await import('../../../api/errors');
const { tickApi } = await import('./api');

const refused = { done: false, needConfirm: false, batchId: 'b', count: 0, refused: 1, outcomes: [{ invoiceId: 'i', invoiceNumber: '26322000000012345678', ok: false, message: '税务端无此发票信息' }] };

beforeEach(() => {
  request.mockReset();
  showError.mockReset();
});

describe('tickApi batches', () => {
  it('a refused batch (30000 with r) comes back as the answer with the server words, without a toast', async () => {
    const message = '勾选失败：发票26322000000012345678，税务端无此发票信息';
    request.mockRejectedValue(new ApiError('business', message, { code: 30000, status: 400, envelope: { code: 30000, message, r: refused } }));
    await expect(tickApi.tick('deduction', { items: [] })).resolves.toEqual({ ...refused, message });
    expect(request).toHaveBeenCalledWith('/income/deduction/tick', { items: [] }, { noShowError: true });
    expect(showError).not.toHaveBeenCalled();
  });

  it('a refusal without outcomes is shown and thrown; a success carries its words', async () => {
    request.mockRejectedValueOnce(new ApiError('business', '税款所属期202611已申请统计，不能再勾选或撤销勾选；如需修改，请先撤销申请', { code: 30000, status: 400, envelope: { code: 30000, message: 'x' } }));
    await expect(tickApi.untick('rebate', { ids: [] })).rejects.toThrow('已申请统计');
    expect(showError).toHaveBeenCalledWith('税款所属期202611已申请统计，不能再勾选或撤销勾选；如需修改，请先撤销申请', 5000);
    request.mockResolvedValueOnce({ code: 20000, message: '勾选成功2张', r: { ...refused, done: true, refused: 0, count: 2 } });
    expect((await tickApi.importTicks('deduction', {})).message).toBe('勾选成功2张');
  });
});
