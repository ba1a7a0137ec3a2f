import { beforeEach, describe, expect, it } from 'vitest';
import { APP_STORAGE_KEY, deviceForWidth, useAppStore } from './app';

describe('app store (SPEC section 4 "Layout")', () => {
  beforeEach(() => {
    localStorage.clear();
    useAppStore.setState({ sidebarOpened: true, mobileSidebarOpen: false, device: 'desktop', size: 'small' });
  });

  it('mobile is a width below 992px', () => {
    expect(deviceForWidth(991)).toBe('mobile');
    expect(deviceForWidth(992)).toBe('desktop');
    expect(deviceForWidth(375)).toBe('mobile');
  });

  it('size defaults to small (the spec mini)', () => {
    expect(useAppStore.getInitialState().size).toBe('small');
  });

  it('toggles and persists the desktop sidebar', () => {
    useAppStore.getState().toggleSidebar();
    expect(useAppStore.getState().sidebarOpened).toBe(false);
    const stored = JSON.parse(localStorage.getItem(APP_STORAGE_KEY)!) as { state: Record<string, unknown> };
    expect(stored.state.sidebarOpened).toBe(false);
  });

  it('on mobile the toggle opens the drawer and close-on-route-change closes it, leaving the desktop state', () => {
    const s = useAppStore.getState();
    s.setDevice('mobile');
    s.toggleSidebar();
    expect(useAppStore.getState().mobileSidebarOpen).toBe(true);
    useAppStore.getState().closeSidebar();
    expect(useAppStore.getState().mobileSidebarOpen).toBe(false);
    expect(useAppStore.getState().sidebarOpened).toBe(true);
  });
});
