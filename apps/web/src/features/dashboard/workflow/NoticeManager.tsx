/**
 * 公告管理 for roles 1 and 3: the button on the 通知公告 card. The drawer (a table, a form and the notice
 * schema) is its own chunk, downloaded when the button is first pressed: the workbench does not carry it.
 */
import { Button, Spin } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { isWorkflowAdmin } from '@zhyy/shared';
import { useSession } from '../../../stores/session';

const NoticeManager = lazy(() => import('./NoticeManagerDrawer'));

export function NoticeManagerButton() {
  const roles = useSession((s) => s.roles);
  const [open, setOpen] = useState(false);
  if (!isWorkflowAdmin(roles)) return null;
  return (
    <>
      <Button type="link" size="small" onClick={() => setOpen(true)} data-testid="manage-notices">
        管理
      </Button>
      {open ? (
        <Suspense fallback={<Spin size="small" />}>
          <NoticeManager onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
