import { Spin } from 'antd';
import { Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { documentTitle } from './title';

/** Sets the document title on every navigation and suspends lazily loaded public pages. */
export function RootShell() {
  const { pathname } = useLocation();
  useEffect(() => {
    document.title = documentTitle(pathname);
  }, [pathname]);
  return (
    <Suspense fallback={<Spin fullscreen />}>
      <Outlet />
    </Suspense>
  );
}
