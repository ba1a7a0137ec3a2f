import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useEffect, useState, type ReactNode } from 'react';
import { DATA_SCREEN_BASE, DATA_SCREEN_SIDEBAR_COLLAPSED, DATA_SCREEN_SIDEBAR_OPEN, HEADER_HEIGHT } from '@zhyy/shared';
import { dataScreenScale } from './dataScreenScale';

export interface DataScreenProps {
  title: string;
  /** Optional side navigation: 210px open, 55px collapsed. */
  sidebar?: ReactNode;
  children: ReactNode;
}

/**
 * A full-screen container that lays its content out at the base size (1024x768) and scales it to the
 * window (minimum 807x540), with a 66px header.
 */
export function DataScreen({ title, sidebar, children }: DataScreenProps) {
  const [box, setBox] = useState(() => dataScreenScale(window.innerWidth, window.innerHeight));
  const [open, setOpen] = useState(true);
  useEffect(() => {
    const onResize = () => setBox(dataScreenScale(window.innerWidth, window.innerHeight));
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  const sideWidth = sidebar ? (open ? DATA_SCREEN_SIDEBAR_OPEN : DATA_SCREEN_SIDEBAR_COLLAPSED) : 0;
  return (
    <div className="data-screen" style={{ minWidth: box.width, minHeight: box.height }} data-testid="data-screen">
      <div
        className="data-screen-stage"
        style={{ width: DATA_SCREEN_BASE.width, height: DATA_SCREEN_BASE.height, transform: `scale(${box.scale})` }}
      >
        <header className="data-screen-header" style={{ height: HEADER_HEIGHT }}>
          {sidebar ? (
            <Button
              type="text"
              aria-label={open ? '收起侧边栏' : '展开侧边栏'}
              icon={open ? <MenuFoldOutlined /> : <MenuUnfoldOutlined />}
              onClick={() => setOpen(!open)}
            />
          ) : null}
          <h1>{title}</h1>
        </header>
        <div className="data-screen-body" style={{ height: DATA_SCREEN_BASE.height - HEADER_HEIGHT }}>
          {sidebar ? (
            <aside className="data-screen-sidebar" style={{ width: sideWidth }}>
              {sidebar}
            </aside>
          ) : null}
          <section className="data-screen-content">{children}</section>
        </div>
      </div>
    </div>
  );
}
