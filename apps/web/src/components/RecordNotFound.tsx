/**
 * The page of a record that cannot be shown: it does not exist (404), its id is malformed, or it could
 * not be loaded. One clear message on the page, no toast beside it: detail pages load their record
 * silently and show this instead.
 */
import { Button, Card, Result } from 'antd';
import { useNavigate } from 'react-router';
import { Uuid } from '@zhyy/shared';
import { ApiError } from '../api/errors';

/** Whether an id can name a record at all (a malformed one is not sent to the server). */
export const isRecordId = (id: string | undefined): id is string => !!id && Uuid.safeParse(id).success;

/** Whether a failed load means the record is not there (404) or cannot be (400: malformed id). */
export const isMissing = (error: unknown): boolean => error instanceof ApiError && (error.status === 404 || error.status === 400);

export function RecordNotFound({ what, error, back, backLabel }: { what: string; error?: unknown; back: string; backLabel: string }) {
  const navigate = useNavigate();
  // No error: nothing was asked (a malformed id) or nothing came back.
  const missing = error == null || isMissing(error);
  return (
    <Card data-testid="record-not-found">
      <Result
        status={missing ? '404' : 'error'}
        title={missing ? `${what}不存在` : `${what}加载失败`}
        subTitle={missing ? `该${what}不存在或已被删除，请检查链接是否正确。` : error instanceof Error ? error.message : '请稍后重试。'}
        extra={<Button type="primary" onClick={() => navigate(back)}>{backLabel}</Button>}
      />
    </Card>
  );
}
