import '../test/dom';
import { act, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { useBadges } from '../stores/badges';
import { useSession } from '../stores/session';
import { OnlineCount } from './OnlineCount';
import { SisterLinks } from './SisterLinks';

function renderIn(node: React.ReactNode) {
  const router = createMemoryRouter([{ path: '*', element: node }]);
  return render(<RouterProvider router={router} />);
}

describe('navbar badges (SPEC sections 1, 2 and 9)', () => {
  beforeEach(() => {
    useBadges.getState().reset();
    useSession.setState({ roles: ['5'] });
  });

  it('sister-system badges show 9+ above 9 and hide at 0', () => {
    act(() => {
      useBadges.getState().setSister('oa', 12);
      useBadges.getState().setSister('pms', 0);
    });
    renderIn(<SisterLinks compact={false} />);
    expect(screen.getByTestId('oa-badge').textContent).toContain('9+');
    expect(screen.getByTestId('pms-badge').querySelector('.ant-badge-count')).toBeNull();
  });

  it('the links carry their names, and the count follows the name instead of covering the icon (issue 12 item 22)', () => {
    act(() => useBadges.getState().setSister('oa', 12));
    renderIn(<SisterLinks compact={false} />);
    const oa = screen.getByTestId('oa-link');
    expect(oa.querySelector('.sister-link-name')?.textContent).toBe('OA系统');
    expect(screen.getByTestId('pms-link').querySelector('.sister-link-name')?.textContent).toBe('项目管理系统');
    // The badge stands on its own after the name: it wraps neither the icon nor the name.
    const badge = screen.getByTestId('oa-badge');
    expect(badge.querySelector('.anticon, .sister-link-name')).toBeNull();
    expect(badge.previousElementSibling?.className).toBe('sister-link-name');
  });

  it('a count up to 9 shows as is', () => {
    act(() => useBadges.getState().setSister('pms', 9));
    renderIn(<SisterLinks compact />);
    expect(screen.getByTestId('pms-badge').textContent).toContain('9');
    expect(screen.getByTestId('pms-badge').textContent).not.toContain('+');
  });

  it('在线：N appears only above 0', () => {
    const { unmount } = renderIn(<OnlineCount />);
    expect(screen.queryByTestId('online-count')).toBeNull();
    unmount();
    act(() => useBadges.getState().setOnlineCount(7));
    renderIn(<OnlineCount />);
    expect(screen.getByTestId('online-count').textContent).toContain('在线：7');
  });

  it('the online count opens the report only for role 1 (and admin)', () => {
    act(() => useBadges.getState().setOnlineCount(3));
    const { unmount } = renderIn(<OnlineCount />);
    expect(screen.getByTestId('online-count').tagName).toBe('SPAN');
    unmount();
    act(() => useSession.setState({ roles: ['1'] }));
    renderIn(<OnlineCount />);
    expect(screen.getByTestId('online-count').getAttribute('href')).toBe('/system/useronline/list');
  });
});
