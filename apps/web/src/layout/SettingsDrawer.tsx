import { Divider, Drawer, Switch } from 'antd';
import type { ReactNode } from 'react';
import { useSettings } from '../stores/settings';
import { ThemePicker } from './ThemePicker';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="settings-row">
      <span>{label}</span>
      {children}
    </div>
  );
}

/** The page-style drawer: theme colour, tags view, fixed header, sidebar logo (kept across reloads). */
export function SettingsDrawer() {
  const s = useSettings();
  return (
    <Drawer title="页面风格设置" open={s.drawerOpen} onClose={() => s.setDrawerOpen(false)} size={300} data-testid="settings-drawer">
      <Divider titlePlacement="start" plain>
        主题色
      </Divider>
      <ThemePicker />
      <Divider titlePlacement="start" plain>
        界面
      </Divider>
      <Row label="显示标签栏">
        <Switch checked={s.tagsView} onChange={s.setTagsView} aria-label="显示标签栏" />
      </Row>
      <Row label="固定头部">
        <Switch checked={s.fixedHeader} onChange={s.setFixedHeader} aria-label="固定头部" />
      </Row>
      <Row label="侧边栏 Logo">
        <Switch checked={s.sidebarLogo} onChange={s.setSidebarLogo} aria-label="侧边栏 Logo" />
      </Row>
    </Drawer>
  );
}
