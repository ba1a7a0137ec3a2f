/** Issue 12 item 8: an empty reason marks the field, keeps the dialog open and throws nothing. */
import '../../test/dom';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { askReason } from './widgets';

vi.mock('../../api/invoice', () => ({ invoiceApi: {} }));

const rejections: unknown[] = [];
const onRejection = (e: unknown) => rejections.push(e);
process.on('unhandledRejection', onRejection);
afterEach(() => { rejections.length = 0; });

describe('askReason (税控作废, 拒绝, 置为无效)', { timeout: 30_000 }, () => {
  it('marks an empty reason on the field and stays open; then resolves to the reason typed', async () => {
    let answer: string | null | undefined;
    void askReason('作废所选 1 张发票', '作废原因', '确定作废').then((r) => { answer = r; });
    const ok = await screen.findByRole('button', { name: /确定作废/ });
    fireEvent.click(ok);
    await waitFor(() => expect([...document.querySelectorAll('.ant-form-item-explain-error')].map((e) => e.textContent)).toEqual(['请填写作废原因']));
    expect(screen.getByLabelText('作废原因').closest('.ant-form-item')!.className).toContain('ant-form-item-has-error');
    fireEvent.change(screen.getByLabelText('作废原因'), { target: { value: '   ' } });
    fireEvent.click(ok);
    await new Promise((r) => setTimeout(r, 300));
    expect(answer).toBeUndefined();
    expect(screen.getByRole('button', { name: /确定作废/ })).toBeTruthy();
    expect(rejections).toEqual([]);

    fireEvent.change(screen.getByLabelText('作废原因'), { target: { value: ' 开具错误 ' } });
    fireEvent.click(screen.getByRole('button', { name: /确定作废/ }));
    await waitFor(() => expect(answer).toBe('开具错误'));
    expect(rejections).toEqual([]);
  });

  it('resolves to null when cancelled', async () => {
    let answer: string | null | undefined;
    void askReason('拒绝红字确认单', '拒绝原因').then((r) => { answer = r; });
    // The previous test's dialog may still be closing (its motion): cancel in this one.
    const dialog = (await screen.findByText('拒绝红字确认单', { selector: '.ant-modal-confirm-title' })).closest('.ant-modal') as HTMLElement;
    fireEvent.click(within(dialog).getByRole('button', { name: /取\s*消/ }));
    await waitFor(() => expect(answer).toBeNull());
  });
});
