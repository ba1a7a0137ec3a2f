import { CloseOutlined } from '@ant-design/icons';
import { Dropdown, type MenuProps } from 'antd';
import { useLayoutEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useTagsView, type VisitedView } from '../stores/tagsView';
import { DASHBOARD_PATH } from '../router/guard';

type MenuKey = 'refresh' | 'close' | 'closeOthers' | 'closeAll';

/** The tag bar of visited views with its context menu 刷新, 关闭, 关闭其他, 关闭所有. */
export function TagsView() {
  const views = useTagsView((s) => s.visitedViews);
  const { closeView, closeOthers, closeAll, refreshView } = useTagsView.getState();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [menuFor, setMenuFor] = useState<VisitedView | null>(null);
  const scrollRef = useRef<HTMLDivElement | null>(null);
  const activeIndex = views.findIndex((v) => v.path === pathname);

  // The active tag is always in view: also when it has just been added (the page's tag arrives after the
  // navigation, so this runs again when it appears) and when tags before it close. Only the bar scrolls, not the page.
  useLayoutEffect(() => {
    // Found in the bar, not through a ref: the Dropdown around each tag keeps the ref its tag first had.
    const box = scrollRef.current;
    const tag = box?.querySelector<HTMLElement>('.tags-view-item.active');
    if (!box || !tag) return;
    const b = box.getBoundingClientRect();
    const t = tag.getBoundingClientRect();
    const margin = 12;
    if (t.left < b.left + margin) box.scrollLeft -= b.left + margin - t.left;
    else if (t.right > b.right - margin) box.scrollLeft += t.right - (b.right - margin);
  }, [pathname, activeIndex, views.length]);

  /** After closing the active view, go to the last remaining one (or the dashboard). */
  function leaveIfActive(path: string) {
    if (path !== pathname) return;
    const last = useTagsView.getState().visitedViews.at(-1);
    void navigate(last ? last.fullPath : DASHBOARD_PATH);
  }

  function close(view: VisitedView) {
    if (closeView(view.path)) leaveIfActive(view.path);
  }

  function onMenu(key: MenuKey, view: VisitedView) {
    if (key === 'refresh') {
      refreshView(view.path);
      if (view.path !== pathname) void navigate(view.fullPath);
    } else if (key === 'close') close(view);
    else if (key === 'closeOthers') {
      closeOthers(view.path);
      if (view.path !== pathname) void navigate(view.fullPath);
    } else {
      closeAll();
      const remaining = useTagsView.getState().visitedViews;
      if (!remaining.some((v) => v.path === pathname)) void navigate(remaining.at(-1)?.fullPath ?? DASHBOARD_PATH);
    }
  }

  const items: MenuProps['items'] = [
    { key: 'refresh', label: '刷新' },
    { key: 'close', label: '关闭', disabled: !!menuFor?.affix },
    { key: 'closeOthers', label: '关闭其他' },
    { key: 'closeAll', label: '关闭所有' },
  ];

  return (
    <div className="tags-view" role="tablist" aria-label="已打开的页面" data-testid="tags-view">
      <div className="tags-view-scroll" ref={scrollRef}>
        {views.map((v) => {
          const active = v.path === pathname;
          return (
            <Dropdown
              key={v.path}
              trigger={['contextMenu']}
              onOpenChange={(open) => open && setMenuFor(v)}
              menu={{ items, onClick: ({ key }) => onMenu(key as MenuKey, v) }}
              classNames={{ root: 'tags-context-menu' }}
              popupRender={(node) => <div data-testid="tags-context-menu">{node}</div>}
            >
              <a
                role="tab"
                aria-selected={active}
                href={v.fullPath}
                className={`tags-view-item${active ? ' active' : ''}`}
                data-testid="tags-view-item"
                data-path={v.path}
                data-affix={v.affix ? 'true' : 'false'}
                onClick={(e) => {
                  e.preventDefault();
                  if (!active) void navigate(v.fullPath);
                }}
                onAuxClick={(e) => {
                  if (e.button === 1 && !v.affix) close(v);
                }}
              >
                {v.title}
                {v.affix ? null : (
                  <span
                    role="button"
                    aria-label={`关闭 ${v.title}`}
                    className="tags-view-close"
                    data-testid="tags-view-close"
                    onClick={(e) => {
                      e.preventDefault();
                      e.stopPropagation();
                      close(v);
                    }}
                  >
                    <CloseOutlined />
                  </span>
                )}
              </a>
            </Dropdown>
          );
        })}
      </div>
    </div>
  );
}
