import '../test/dom';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { lazy, useState } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useView } from '../router/view';
import { useSession } from '../stores/session';
import { useTagsView } from '../stores/tagsView';

/** A page with local state, to see whether a view keeps it. */
function Counter() {
  const { path, params } = useView();
  const [n, setN] = useState(0);
  return (
    <button type="button" data-testid={`counter-${path}`} onClick={() => setN(n + 1)}>
      {params.id ?? path}:{n}
    </button>
  );
}
const CounterPage = lazy(() => Promise.resolve({ default: Counter }));

vi.mock('../router/pages', () => ({ pageFor: () => CounterPage }));

const { AppMain } = await import('./AppMain');
const { useTrackView } = await import('./useTrackView');

function Host() {
  useTrackView();
  return <AppMain />;
}

const LIST = '/invoice/invoiceaccount/invoice-list';
const CACHED_DETAIL = '/invoice/invoiceaccount/invoice-detail/7';
const NO_CACHE = '/invoice/invoicesetting/buyeradd';

function setup() {
  const router = createMemoryRouter([{ path: '*', element: <Host /> }], { initialEntries: [LIST] });
  render(<RouterProvider router={router} />);
  return router;
}

const count = async (path: string) => (await screen.findByTestId(`counter-${path}`, {}, { timeout: 3000 })).textContent;

describe('AppMain keeps visited views (SPEC section 4 "Views")', () => {
  beforeEach(() => {
    useTagsView.getState().reset();
    useSession.setState({ roles: ['admin'] });
  });

  it('a view keeps its state when revisited, until its tag closes', async () => {
    const router = setup();
    fireEvent.click(await screen.findByTestId(`counter-${LIST}`));
    fireEvent.click(await screen.findByTestId(`counter-${LIST}`));
    expect(await count(LIST)).toBe(`${LIST}:2`);

    await act(() => router.navigate(CACHED_DETAIL));
    expect(await count(CACHED_DETAIL)).toBe('7:0');
    await act(() => router.navigate(LIST));
    expect(await count(LIST)).toBe(`${LIST}:2`);

    act(() => void useTagsView.getState().closeView(LIST));
    await act(() => router.navigate(CACHED_DETAIL));
    await act(() => router.navigate(LIST));
    expect(await count(LIST)).toBe(`${LIST}:0`);
  });

  it('刷新 remounts one view', async () => {
    setup();
    fireEvent.click(await screen.findByTestId(`counter-${LIST}`));
    expect(await count(LIST)).toBe(`${LIST}:1`);
    act(() => useTagsView.getState().refreshView(LIST));
    expect(await count(LIST)).toBe(`${LIST}:0`);
  });

  it('a noCache view remounts on every visit', async () => {
    const router = setup();
    await act(() => router.navigate(NO_CACHE));
    fireEvent.click(await screen.findByTestId(`counter-${NO_CACHE}`));
    expect(await count(NO_CACHE)).toBe(`${NO_CACHE}:1`);
    await act(() => router.navigate(LIST));
    expect(screen.queryByTestId(`counter-${NO_CACHE}`)).toBeNull();
    await act(() => router.navigate(NO_CACHE));
    expect(await count(NO_CACHE)).toBe(`${NO_CACHE}:0`);
  });

  it('hidden views stay in the DOM but are not shown', async () => {
    const router = setup();
    await count(LIST);
    await act(() => router.navigate(CACHED_DETAIL));
    await count(CACHED_DETAIL);
    const hidden = document.querySelector(`[data-view="${LIST}"]`) as HTMLElement;
    expect(hidden).not.toBeNull();
    expect(hidden.style.display).toBe('none');
  });
});
