import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { loadPublicConfig } from './api/config';
import { reportClientErrors } from './api/syslog';
import { installErrorLog } from './live/errorLog';
import { routes } from './router/routes';
import { App } from './App';
import './base.css';

dayjs.locale('zh-cn');
// The local error log is always kept; it is reported to the server in production builds.
installErrorLog(import.meta.env.PROD ? reportClientErrors : null);

async function start() {
  await loadPublicConfig();
  const router = createBrowserRouter(routes);
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App router={router} />
    </StrictMode>,
  );
}

void start();
