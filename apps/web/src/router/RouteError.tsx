import { useEffect } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { logClientError } from '../live/errorLog';
import { ErrorResult } from './ErrorResult';

/** Shown when a route fails in a way nothing else caught. */
export function RouteError() {
  const error = useRouteError();
  useEffect(() => {
    logClientError(error);
  }, [error]);
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : error instanceof Error ? error.message : '';
  return <ErrorResult title="页面出错了" detail={detail || '请刷新页面后重试'} action="返回首页" onAction={() => window.location.assign('/')} />;
}
