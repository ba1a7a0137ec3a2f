import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { RouterProvider, type createBrowserRouter } from 'react-router';
import { useAppStore } from './stores/app';
import { useSettings } from './stores/settings';
import { FeedbackBridge } from './ui/FeedbackBridge';

const queryClient = new QueryClient({
  defaultOptions: { queries: { refetchOnWindowFocus: false, retry: 1 } },
});

/** Providers: antd (zh_CN, theme colour, size small), its App context, TanStack Query, the router. */
export function App({ router }: { router: ReturnType<typeof createBrowserRouter> }) {
  const colorPrimary = useSettings((s) => s.themeColour);
  const size = useAppStore((s) => s.size);
  return (
    <ConfigProvider
      locale={zhCN}
      componentSize={size}
      // Exact button names (设置, 退出) for people and for tests: no space inserted between two characters.
      button={{ autoInsertSpace: false }}
      theme={{ token: { colorPrimary, colorInfo: colorPrimary } }}
    >
      <AntApp>
        <FeedbackBridge />
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}
