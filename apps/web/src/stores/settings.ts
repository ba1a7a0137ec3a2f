/** The page-style drawer's settings (SPEC section 2 "Layout"), kept across reloads in localStorage. */
import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { DEFAULT_THEME_COLOUR } from '@zhyy/shared';

export interface SettingsState {
  themeColour: string;
  tagsView: boolean;
  fixedHeader: boolean;
  sidebarLogo: boolean;
  drawerOpen: boolean;
  setThemeColour(colour: string): void;
  setTagsView(on: boolean): void;
  setFixedHeader(on: boolean): void;
  setSidebarLogo(on: boolean): void;
  setDrawerOpen(open: boolean): void;
}

export const SETTINGS_STORAGE_KEY = 'zhyy-settings';

const HEX = /^#[0-9a-fA-F]{6}$/;

export const useSettings = create<SettingsState>()(
  persist(
    (set) => ({
      themeColour: DEFAULT_THEME_COLOUR,
      tagsView: true,
      fixedHeader: true,
      sidebarLogo: true,
      drawerOpen: false,
      setThemeColour: (colour) => set((s) => ({ themeColour: HEX.test(colour) ? colour : s.themeColour })),
      setTagsView: (tagsView) => set({ tagsView }),
      setFixedHeader: (fixedHeader) => set({ fixedHeader }),
      setSidebarLogo: (sidebarLogo) => set({ sidebarLogo }),
      setDrawerOpen: (drawerOpen) => set({ drawerOpen }),
    }),
    {
      name: SETTINGS_STORAGE_KEY,
      partialize: (s) => ({ themeColour: s.themeColour, tagsView: s.tagsView, fixedHeader: s.fixedHeader, sidebarLogo: s.sidebarLogo }),
    },
  ),
);
