import '../test/dom';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { useTagsView, type VisitedView } from '../stores/tagsView';
import { TagsView } from './TagsView';

const view = (path: string, title: string, affix = false): VisitedView => ({ path, fullPath: path, title, pattern: path, affix, noCache: false });

function setup(at: string) {
  const router = createMemoryRouter([{ path: '*', element: <TagsView /> }], { initialEntries: [at] });
  render(<RouterProvider router={router} />);
  return router;
}

const tags = () => screen.getAllByTestId('tags-view-item').map((t) => t.getAttribute('data-path'));

async function contextMenu(title: string, item: string) {
  fireEvent.contextMenu(screen.getByRole('tab', { name: new RegExp(title) }));
  const menu = await screen.findByTestId('tags-context-menu');
  fireEvent.click(within(menu).getByText(item));
}

describe('tag bar (SPEC section 2 "Layout")', () => {
  beforeEach(() => {
    useTagsView.getState().reset();
    act(() => {
      const s = useTagsView.getState();
      s.addView(view('/dashboard', '工作台', true));
      s.addView(view('/a', '发票台账'));
      s.addView(view('/b', '购方管理'));
      s.addView(view('/c', '开票设置'));
    });
  });

  it('the context menu offers 刷新, 关闭, 关闭其他, 关闭所有', async () => {
    setup('/a');
    fireEvent.contextMenu(screen.getByRole('tab', { name: /发票台账/ }));
    const menu = await screen.findByTestId('tags-context-menu');
    expect(within(menu).getAllByRole('menuitem').map((m) => m.textContent)).toEqual(['刷新', '关闭', '关闭其他', '关闭所有']);
  });

  it('affix tags have no close button and 关闭 is disabled for them', async () => {
    setup('/a');
    expect(within(screen.getByRole('tab', { name: /工作台/ })).queryByTestId('tags-view-close')).toBeNull();
    expect(within(screen.getByRole('tab', { name: /发票台账/ })).getByTestId('tags-view-close')).toBeTruthy();
    fireEvent.contextMenu(screen.getByRole('tab', { name: /工作台/ }));
    const menu = await screen.findByTestId('tags-context-menu');
    const close = within(menu).getAllByRole('menuitem')[1]!;
    expect(close.getAttribute('aria-disabled')).toBe('true');
  });

  it('关闭其他 keeps the affix tag and the chosen one', async () => {
    const router = setup('/a');
    await contextMenu('购方管理', '关闭其他');
    expect(tags()).toEqual(['/dashboard', '/b']);
    await waitFor(() => expect(router.state.location.pathname).toBe('/b'));
  });

  it('关闭所有 keeps only affix tags and leaves for the last one', async () => {
    const router = setup('/c');
    await contextMenu('开票设置', '关闭所有');
    expect(tags()).toEqual(['/dashboard']);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('closing the active tag goes to the last remaining one', async () => {
    const router = setup('/c');
    fireEvent.click(within(screen.getByRole('tab', { name: /开票设置/ })).getByTestId('tags-view-close'));
    expect(tags()).toEqual(['/dashboard', '/a', '/b']);
    await waitFor(() => expect(router.state.location.pathname).toBe('/b'));
  });

  it('刷新 bumps the refresh key of that view', async () => {
    setup('/a');
    await contextMenu('发票台账', '刷新');
    expect(useTagsView.getState().refreshKeys['/a']).toBe(1);
  });
});
