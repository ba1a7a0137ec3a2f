import { lazy, Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { LOGIN_PATH } from './guard';
import { PageLoading } from './PageLoading';
import { documentTitle } from './title';

const AntdRoot = lazy(() => import('../ui/AntdRoot'));

/**
 * Sets the document title on every navigation and suspends lazily loaded public pages. Every page but
 * the sign-in page is drawn inside antd's providers, loaded with the first such page.
 */
export function RootShell() {
  const { pathname } = useLocation();
  useEffect(() => {
    document.title = documentTitle(pathname);
  }, [pathname]);
  const page = (
    <Suspense fallback={<PageLoading />}>
      <Outlet />
    </Suspense>
  );
  if (pathname === LOGIN_PATH) return page;
  return (
    <Suspense fallback={<PageLoading />}>
      <AntdRoot>{page}</AntdRoot>
    </Suspense>
  );
}
