import '../../test/dom';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { filingCalendarYear, type FilingCalendarView } from '@zhyy/shared';

const view = (): FilingCalendarView => ({
  years: [
    { ...filingCalendarYear(2027), sourceLabel: '按规则推算', enteredDays: null, updatedBy: '', updatedAt: null, editable: true },
    { ...filingCalendarYear(2025), sourceLabel: '税务总局公布', enteredDays: null, updatedBy: '', updatedAt: null, editable: false },
  ],
});
const save = vi.fn((_body: unknown) => Promise.resolve({ code: 20000, message: '保存成功', r: view() }));
vi.mock('../../api/system', () => ({ systemApi: { filingCalendar: () => Promise.resolve(view()), saveFilingCalendar: (b: unknown) => save(b) } }));

import FilingCalendarPage from './FilingCalendarPage';

describe('申报日历 (issue 29 item 9)', () => {
  it('shows each year with its source and basis; a published year has no entry button; a computed one is entered with its 12 days', { timeout: 30_000 }, async () => {
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <FilingCalendarPage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const published = (await screen.findByText('税总办征科函〔2024〕71号', undefined, { timeout: 10_000 })).closest('tr')!;
    expect(within(published).getByText('税务总局公布')).not.toBeNull();
    // 202505 is filed by 2025-06-16 (the 15th a Sunday), 202509 by 2025-10-27 (the October holiday).
    expect(within(published).getByText('6-16')).not.toBeNull();
    expect(within(published).getByText('10-27')).not.toBeNull();
    expect(within(published).queryByRole('button')).toBeNull();
    const computed = screen.getByText('按规则推算').closest('tr')!;
    fireEvent.click(within(computed).getByRole('button', { name: /录\s*入/ }));
    expect(await screen.findByText('录入2027年申报日历')).not.toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(save).toHaveBeenCalledTimes(1));
    expect(save.mock.calls[0]![0]).toEqual({ year: 2027, deadlines: filingCalendarYear(2027).days });
  });
});
