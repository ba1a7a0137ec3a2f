import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { startPublicConfig } from './api/config';
import { reportClientErrors } from './api/syslog';
import { installErrorLog } from './live/errorLog';
import { routes } from './router/routes';
import { App } from './App';
import './base.css';

dayjs.locale('zh-cn');
// The local error log is always kept; it is reported to the server in production builds.
installErrorLog(import.meta.env.PROD ? reportClientErrors : null);

function start() {
  // The sign-in page needs none of the configuration: it is drawn without waiting for it; the root
  // loader waits for it before any other page (issue 30).
  void startPublicConfig();
  const router = createBrowserRouter(routes);
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App router={router} />
    </StrictMode>,
  );
}

start();
