import { Button, Result } from 'antd';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { logClientError } from '../live/errorLog';
import { useEffect } from 'react';

/** Shown when a route fails in a way nothing else caught. */
export function RouteError() {
  const error = useRouteError();
  useEffect(() => {
    logClientError(error);
  }, [error]);
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : error instanceof Error ? error.message : '';
  return (
    <Result
      status="error"
      title="页面出错了"
      subTitle={detail || '请刷新页面后重试'}
      extra={
        <Button type="primary" onClick={() => window.location.assign('/')}>
          返回首页
        </Button>
      }
    />
  );
}
