import { lazy, Suspense, useEffect, useState } from 'react';
import { MAIN_SIDEBAR_WIDTH } from '@zhyy/shared';
import { useLiveData } from '../live/useLiveData';
import { useAppStore } from '../stores/app';
import { registerReauthHost, useReauth } from '../stores/reauth';
import { useSettings } from '../stores/settings';
import { AppMain } from './AppMain';
import { Breadcrumb } from './Breadcrumb';
import { Navbar } from './Navbar';
import { Sidebar, SIDEBAR_COLLAPSED_WIDTH } from './Sidebar';
import { TagsView } from './TagsView';
import { useDevice } from './useDevice';
import { useTrackView } from './useTrackView';
import './layout.css';

// The sign-in-again dialog (antd Form, Input.Password) loads when a session ends under the user (issue 30);
// the layout registers as the one that can ask from the start.
const ReauthDialog = lazy(() => import('./ReauthDialog').then((m) => ({ default: m.ReauthDialog })));
// The page-style drawer (switches, sliders, the colour picker) is downloaded the first time it is opened.
const SettingsDrawer = lazy(() => import('./SettingsDrawer').then((m) => ({ default: m.SettingsDrawer })));

/** The signed-in chrome: navbar, sidebar, tag bar, breadcrumbs and the main area. */
export function Layout() {
  useDevice();
  useTrackView();
  useLiveData();
  const { sidebarOpened, device } = useAppStore();
  const { tagsView, fixedHeader, drawerOpen } = useSettings();
  const [drawerWanted, setDrawerWanted] = useState(drawerOpen);
  if (drawerOpen && !drawerWanted) setDrawerWanted(true);
  useEffect(() => registerReauthHost(), []);
  const reauthAsked = useReauth((s) => s.reason !== null);
  const [reauthWanted, setReauthWanted] = useState(reauthAsked);
  if (reauthAsked && !reauthWanted) setReauthWanted(true);
  const mobile = device === 'mobile';
  const offset = mobile ? 0 : sidebarOpened ? MAIN_SIDEBAR_WIDTH : SIDEBAR_COLLAPSED_WIDTH;
  return (
    <div className={`app-wrapper${mobile ? ' mobile' : ''}${fixedHeader ? ' fixed-header' : ''}`}>
      <Navbar />
      <div className="app-body">
        <Sidebar />
        <div className="main-container" style={{ marginLeft: offset }}>
          <div className="main-header">
            {tagsView ? <TagsView /> : null}
            <Breadcrumb />
          </div>
          <AppMain />
        </div>
      </div>
      {reauthWanted ? (
        <Suspense fallback={null}>
          <ReauthDialog />
        </Suspense>
      ) : null}
      {drawerWanted ? (
        <Suspense fallback={null}>
          <SettingsDrawer />
        </Suspense>
      ) : null}
    </div>
  );
}
