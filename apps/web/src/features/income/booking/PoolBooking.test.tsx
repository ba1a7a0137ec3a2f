/**
 * Issue 14, 入账标识 on 票池发票详情: the state and date, each delivery in words (已同步, 待重试（n次，下次 hh:mm）,
 * 失败 with the reason), 标记入账 with 02 or 03, 撤销入账 after a confirmation, 立即重试, and the server's answers
 * and refusals as it words them.
 */
import '../../../test/dom';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { BookingDeliveryRow, BookingInfo } from '@zhyy/shared';
import { ApiError } from '../../../api/errors';
import { PoolBooking, deliveryWord } from './PoolBooking';
import { BookingTag } from '../pool/widgets';

const info = vi.fn();
const book = vi.fn();
const revoke = vi.fn();
const retry = vi.fn();
vi.mock('../../../api/incomeBooking', () => ({
  bookingApi: { info: (...a: unknown[]) => info(...a), book: (...a: unknown[]) => book(...a), revoke: (...a: unknown[]) => revoke(...a), retry: (...a: unknown[]) => retry(...a) },
}));

configure({ asyncUtilTimeout: 15_000 });
const ID = '0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0a11';
beforeEach(() => {
  for (const f of [info, book, revoke, retry]) f.mockReset();
});

const delivery = (o: Partial<BookingDeliveryRow>): BookingDeliveryRow => ({
  id: `d-${Math.random()}`, state: '02', sourceType: 'manual', sourceNo: '', requestedBy: '王会计', attempts: 1, nextAttemptAt: null, lastError: '', status: 'sent',
  sentAt: '2026-11-20T02:00:05.000Z', createdAt: '2026-11-20T02:00:00.000Z', updatedAt: '2026-11-20T02:00:05.000Z', ...o,
});
const infoOf = (o: Partial<BookingInfo>): BookingInfo => ({ invoiceId: ID, bookingState: '01', bookedAt: null, deliveries: [], ...o });

function renderSection() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(<QueryClientProvider client={client}><PoolBooking invoiceId={ID} /></QueryClientProvider>);
}

describe('deliveryWord', () => {
  it('says sent, waiting, retrying with the count and the next time (Shanghai), failed', () => {
    expect(deliveryWord({ status: 'sent', attempts: 1, nextAttemptAt: null }).text).toBe('已同步');
    expect(deliveryWord({ status: 'pending', attempts: 0, nextAttemptAt: '2026-11-20T02:00:00.000Z' }).text).toBe('待同步');
    expect(deliveryWord({ status: 'pending', attempts: 2, nextAttemptAt: '2026-11-20T02:35:00.000Z' }).text).toBe('待重试（2次，下次 10:35）');
    expect(deliveryWord({ status: 'failed', attempts: 10, nextAttemptAt: null })).toEqual({ text: '失败', colour: 'error' });
  });
});

describe('the pool list’s 入账状态 column', () => {
  it('names each state, 06 入账撤销 included', () => {
    const { container } = render(<>{['01', '02', '03', '06'].map((st) => <BookingTag key={st} state={st} />)}</>);
    expect([...container.querySelectorAll('.ant-tag')].map((t) => t.textContent)).toEqual(['未入账', '已入账（企业所得税税前扣除）', '已入账（不扣除）', '入账撤销']);
  });
});

describe('入账标识 section', { timeout: 60_000 }, () => {
  it('shows the state, the date and each delivery with its reason; 撤销入账 asks first, then sends 06 and shows the answer', async () => {
    info.mockResolvedValue(infoOf({
      bookingState: '02', bookedAt: '2026-11-20T17:00:00.000Z',
      deliveries: [
        delivery({ state: '02', status: 'pending', attempts: 2, nextAttemptAt: '2026-11-20T02:35:00.000Z', lastError: '税务端连接超时', sourceType: 'contract', sourceNo: 'HT2026-0301', sentAt: null }),
        delivery({ state: '06', status: 'failed', attempts: 1, lastError: '该发票未入账，不能撤销入账', sentAt: null }),
        delivery({ state: '02', status: 'sent' }),
      ],
    }));
    revoke.mockResolvedValue({ code: 20000, message: '撤销入账成功1张', r: { done: 1, refused: 0, results: [{ invoiceId: ID, number: '1', ok: true, message: '入账撤销，已同步税务端', delivery: 'sent' }] } });
    renderSection();
    const card = await screen.findByTestId('pool-booking');
    await waitFor(() => expect(within(card).getByTestId('booking-state').textContent).toBe('已入账（企业所得税税前扣除）'));
    // The day of booking in Shanghai (17:00 UTC is the next day there).
    expect(card.textContent).toContain('2026-11-21');
    expect(screen.getAllByTestId('booking-delivery-status').map((e) => e.textContent)).toEqual(['待重试（2次，下次 10:35）', '失败', '已同步']);
    expect(card.textContent).toContain('合同签收 HT2026-0301');
    expect(card.textContent).toContain('税务端连接超时');
    expect(card.textContent).toContain('该发票未入账，不能撤销入账');
    expect(card.textContent).toContain('06 入账撤销');
    expect(screen.queryByTestId('booking-book')).toBeNull();

    fireEvent.click(screen.getByTestId('booking-revoke'));
    expect(revoke).not.toHaveBeenCalled();
    // The confirmation's own 撤销入账.
    await waitFor(() => expect(screen.getAllByRole('button', { name: '撤销入账' })).toHaveLength(2));
    fireEvent.click(screen.getAllByRole('button', { name: '撤销入账' }).at(-1)!);
    await waitFor(() => expect(revoke).toHaveBeenCalledWith([ID]));
    expect((await screen.findByTestId('booking-note')).textContent).toContain('入账撤销，已同步税务端');
    await waitFor(() => expect(info.mock.calls.length).toBeGreaterThan(1));
  });

  it('标记入账 chooses 02 or 03; a refusal is shown in the server’s words', async () => {
    info.mockResolvedValue(infoOf({ bookingState: '06' }));
    book.mockResolvedValue({ code: 20000, message: '入账成功1张', r: { done: 1, refused: 0, results: [{ invoiceId: ID, number: '1', ok: true, message: '已入账（不扣除），税务端同步失败，系统将自动重试（税务端连接超时）', delivery: 'pending' }] } });
    renderSection();
    await waitFor(() => expect(screen.getByTestId('booking-state').textContent).toBe('入账撤销'));
    expect(screen.getByText('尚未向税务端同步入账标识')).toBeTruthy();
    expect((screen.getByTestId('booking-retry') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByTestId('booking-book'));
    fireEvent.click(await screen.findByText('03 已入账（不扣除）'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: '标记入账' }));
    await waitFor(() => expect(book).toHaveBeenCalledWith([ID], '03'));
    expect((await screen.findByTestId('booking-note')).textContent).toContain('系统将自动重试');

    book.mockRejectedValue(new ApiError('business', '权限不足', { code: 30000, status: 403 }));
    fireEvent.click(screen.getByTestId('booking-book'));
    const again = await screen.findByRole('dialog');
    fireEvent.click(within(again).getByRole('button', { name: '标记入账' }));
    await waitFor(() => expect(screen.getByTestId('booking-note').textContent).toBe('权限不足'));
    expect(book).toHaveBeenLastCalledWith([ID], '02');
  });

  it('立即重试 sends the unsent deliveries and shows the answer', async () => {
    info.mockResolvedValue(infoOf({ bookingState: '03', bookedAt: '2026-11-20T02:00:00.000Z', deliveries: [delivery({ state: '03', status: 'failed', attempts: 10, lastError: '已尝试10次仍未送达：税务端连接超时', sentAt: null })] }));
    retry.mockResolvedValue({ code: 20000, message: '入账标识已同步税务端', r: infoOf({}) });
    renderSection();
    await waitFor(() => expect((screen.getByTestId('booking-retry') as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByTestId('booking-retry'));
    await waitFor(() => expect(retry).toHaveBeenCalledWith(ID));
    expect((await screen.findByTestId('booking-note')).textContent).toBe('入账标识已同步税务端');
  });
});
