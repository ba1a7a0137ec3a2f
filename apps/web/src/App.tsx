import { RouterProvider, type createBrowserRouter } from 'react-router';

/**
 * The router. antd's providers and TanStack Query are mounted by the root route around every page but
 * the sign-in page (router/RootShell.tsx, ui/AntdRoot.tsx), so /login downloads none of antd.
 */
export function App({ router }: { router: ReturnType<typeof createBrowserRouter> }) {
  return <RouterProvider router={router} />;
}
