import { Drawer } from 'antd';
import type { ReactNode } from 'react';
import { MAIN_SIDEBAR_WIDTH } from '@zhyy/shared';

/**
 * The sidebar on mobile: a drawer from the left. Its own chunk (issue 30): antd's Drawer is loaded only
 * on a narrow screen, not with the chrome every desktop page loads.
 */
export default function SidebarDrawer({ open, onClose, children }: { open: boolean; onClose: () => void; children: ReactNode }) {
  return (
    <Drawer
      open={open}
      placement="left"
      size={MAIN_SIDEBAR_WIDTH + 60}
      closable={false}
      onClose={onClose}
      styles={{ body: { padding: 0, background: '#001529' } }}
      className="sidebar-drawer"
    >
      {children}
    </Drawer>
  );
}
