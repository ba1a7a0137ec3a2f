/**
 * antd's providers (zh_CN, theme colour, size small, its App context) and TanStack Query, around every
 * page but the sign-in page. A chunk of its own: the sign-in page is drawn without antd (see
 * docs/performance.md), and the signed-in chrome loads this with its first page.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import type { ReactNode } from 'react';
import { queryClient } from '../api/queryClient';
import { useAppStore } from '../stores/app';
import { useSettings } from '../stores/settings';
import { FeedbackBridge } from './FeedbackBridge';

export default function AntdRoot({ children }: { children: ReactNode }) {
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
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}
