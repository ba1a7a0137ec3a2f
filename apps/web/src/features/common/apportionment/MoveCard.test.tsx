/**
 * 项目变更's MoveCard: the form resets when another allocation is picked, and only then. The incoming
 * invoices' page builds `picked` anew on every render; a refetch of its allocations must not wipe the
 * amount and the reason the clerk has typed.
 */
import '../../../test/dom';
import { configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { MoveCard, type MovePick } from './changes';

vi.mock('../../../api/invoiceApportionment', () => ({ apportionmentApi: { targets: vi.fn(async () => []) } }));
vi.mock('../../../ui/feedback', () => ({ feedback: () => ({ message: { success: vi.fn(), error: vi.fn() }, modal: { confirm: vi.fn() } }), showError: vi.fn() }));

configure({ asyncUtilTimeout: 15_000 });

const pick = (id: string, amountIncl: number): MovePick => ({ id, invoiceNo: '26320000000000000042', targetId: 'p1', targetName: '江北新区综合管廊二期', amountIncl });

const client = new QueryClient();

function card(picked: MovePick) {
  return (
    <QueryClientProvider client={client}>
      <MoveCard dim="project" picked={picked} canChange move={vi.fn()} onMoved={vi.fn()} />
    </QueryClientProvider>
  );
}

describe('MoveCard', () => {
  it('keeps the typed reason when the page re-renders with an equal pick, and resets it for another allocation', async () => {
    const view = render(card(pick('a1', 11300)));
    const reason = await screen.findByTestId('change-reason');
    await waitFor(() => expect((screen.getByTestId('change-amount') as HTMLInputElement).value).toBe('113.00'));
    fireEvent.change(reason, { target: { value: '部分费用属于苏州项目' } });
    fireEvent.change(screen.getByTestId('change-amount'), { target: { value: '10' } });

    view.rerender(card(pick('a1', 11300)));
    await new Promise((r) => setTimeout(r, 50));
    expect((screen.getByTestId('change-reason') as HTMLTextAreaElement).value).toBe('部分费用属于苏州项目');
    expect((screen.getByTestId('change-amount') as HTMLInputElement).value).toBe('10.00');

    view.rerender(card(pick('a2', 5650)));
    await waitFor(() => expect((screen.getByTestId('change-reason') as HTMLTextAreaElement).value).toBe(''));
    expect((screen.getByTestId('change-amount') as HTMLInputElement).value).toBe('56.50');
  });
});
