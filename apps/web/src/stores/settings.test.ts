import { beforeEach, describe, expect, it } from 'vitest';
import { ALTERNATE_THEME_COLOUR, DEFAULT_THEME_COLOUR, THEME_COLOURS } from '@zhyy/shared';
import { SETTINGS_STORAGE_KEY, useSettings } from './settings';

describe('settings store', () => {
  beforeEach(() => {
    localStorage.clear();
    useSettings.setState({ themeColour: DEFAULT_THEME_COLOUR, tagsView: true, fixedHeader: true, sidebarLogo: true });
  });

  it('defaults to #1890ff and offers #409EFF', () => {
    expect(useSettings.getInitialState().themeColour).toBe('#1890ff');
    expect(THEME_COLOURS).toContain(ALTERNATE_THEME_COLOUR);
    expect(ALTERNATE_THEME_COLOUR).toBe('#409EFF');
  });

  it('keeps the theme colour, tags view, fixed header and sidebar logo in localStorage', () => {
    const s = useSettings.getState();
    s.setThemeColour('#409EFF');
    s.setTagsView(false);
    s.setFixedHeader(false);
    s.setSidebarLogo(false);
    const stored = JSON.parse(localStorage.getItem(SETTINGS_STORAGE_KEY)!) as { state: Record<string, unknown> };
    expect(stored.state).toEqual({ themeColour: '#409EFF', tagsView: false, fixedHeader: false, sidebarLogo: false });
  });

  it('does not persist the drawer being open', () => {
    useSettings.getState().setDrawerOpen(true);
    const stored = JSON.parse(localStorage.getItem(SETTINGS_STORAGE_KEY)!) as { state: Record<string, unknown> };
    expect(stored.state).not.toHaveProperty('drawerOpen');
  });

  it('rejects a colour that is not #rrggbb', () => {
    useSettings.getState().setThemeColour('red; background:url(x)');
    expect(useSettings.getState().themeColour).toBe(DEFAULT_THEME_COLOUR);
  });

  it('restores stored settings on rehydrate', async () => {
    localStorage.setItem(SETTINGS_STORAGE_KEY, JSON.stringify({ state: { themeColour: '#13c2c2', tagsView: false }, version: 0 }));
    await useSettings.persist.rehydrate();
    expect(useSettings.getState().themeColour).toBe('#13c2c2');
    expect(useSettings.getState().tagsView).toBe(false);
  });
});
