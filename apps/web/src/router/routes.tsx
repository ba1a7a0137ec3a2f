/** The router: public pages, then every page of the shared table flattened under the Layout. */
import { lazy } from 'react';
import { redirect, type RouteObject } from 'react-router';
import { FLAT_ROUTES } from '@zhyy/shared';
import { PageLoading } from './PageLoading';
import { RootShell } from './RootShell';
import { rootLoader } from './rootLoader';
import { RouteError } from './RouteError';

// The signed-in chrome (and the antd parts it uses) is not needed to sign in.
const Layout = lazy(() => import('../layout/Layout').then((m) => ({ default: m.Layout })));
const Login = lazy(() => import('../features/login/Login'));
const NotFound = lazy(() => import('../features/common/NotFound'));
const FileView = lazy(() => import('../features/common/FileView'));
const AuthRedirect = lazy(() => import('../features/common/AuthRedirect'));
const RedirectPage = lazy(() => import('../features/common/RedirectPage'));

export const routes: RouteObject[] = [
  {
    id: 'root',
    loader: rootLoader,
    // The guard and the version check run on every navigation.
    shouldRevalidate: () => true,
    element: <RootShell />,
    // Shown while the first navigation's guard runs (e.g. loading the user info).
    hydrateFallbackElement: <PageLoading />,
    errorElement: <RouteError />,
    children: [
      { path: '/login', element: <Login /> },
      { path: '/auth-redirect', element: <AuthRedirect /> },
      { path: '/404', element: <NotFound /> },
      { path: '/file/view/:viewData', element: <FileView /> },
      {
        id: 'layout',
        element: <Layout />,
        children: [
          { path: '/', element: null },
          { path: '/redirect/*', element: <RedirectPage /> },
          // AppMain renders the pages itself (to keep visited views mounted); these entries only match.
          ...FLAT_ROUTES.map((r) => ({ path: r.path, element: null, handle: { pattern: r.path } })),
        ],
      },
      { path: '*', loader: () => redirect('/404') },
    ],
  },
];
