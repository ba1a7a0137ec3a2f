/** SPEC section 4 "Layout": sidebar open or closed (kept), device desktop or mobile (< 992px), size small. */
import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { DEFAULT_COMPONENT_SIZE, MOBILE_BREAKPOINT } from '@zhyy/shared';

export type Device = 'desktop' | 'mobile';
export type ComponentSize = 'small' | 'middle' | 'large';

export interface AppState {
  /** The desktop sidebar: open or collapsed (kept across reloads). */
  sidebarOpened: boolean;
  /** The mobile drawer: closed on every route change, independent of the desktop state. */
  mobileSidebarOpen: boolean;
  device: Device;
  size: ComponentSize;
  toggleSidebar(): void;
  closeSidebar(): void;
  setDevice(device: Device): void;
  setSize(size: ComponentSize): void;
}

export const APP_STORAGE_KEY = 'zhyy-app';

export function deviceForWidth(width: number): Device {
  return width < MOBILE_BREAKPOINT ? 'mobile' : 'desktop';
}

export const useAppStore = create<AppState>()(
  persist(
    (set) => ({
      sidebarOpened: true,
      mobileSidebarOpen: false,
      device: typeof window === 'undefined' ? 'desktop' : deviceForWidth(window.innerWidth),
      size: DEFAULT_COMPONENT_SIZE,
      toggleSidebar: () =>
        set((s) => (s.device === 'mobile' ? { mobileSidebarOpen: !s.mobileSidebarOpen } : { sidebarOpened: !s.sidebarOpened })),
      closeSidebar: () => set((s) => (s.device === 'mobile' ? { mobileSidebarOpen: false } : { sidebarOpened: false })),
      setDevice: (device) => set((s) => (s.device === device ? s : { device, mobileSidebarOpen: false })),
      setSize: (size) => set({ size }),
    }),
    { name: APP_STORAGE_KEY, partialize: (s) => ({ sidebarOpened: s.sidebarOpened, size: s.size }) },
  ),
);
