/** The live behaviours of the signed-in chrome: counts, heartbeat, to-do alerts, abnormal-invoice reminder. */
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { ABNORMAL_INVOICE_TARGET, HEARTBEAT_INTERVAL_MS, Messages, REFRESH_INTERVAL_MS, abnormalInvoiceText } from '@zhyy/shared';
import { heartBeat } from '../api/live';
import { useBadges } from '../stores/badges';
import { useSession } from '../stores/session';
import { feedback } from '../ui/feedback';
import { takeReminder } from './abnormalReminder';
import { wfApi } from '../api/workflow';
import { COUNTS_REFRESH_EVENT, WORKFLOW_REFRESH_EVENT } from './events';
import { refreshCounts } from './refreshCounts';
import { alertNewItems } from './todoAlerts';

export function useLiveData(): void {
  const loginName = useSession((s) => s.loginName);
  const roles = useSession((s) => s.roles);
  const navigate = useNavigate();

  useEffect(() => {
    if (!loginName) return;
    let alive = true;
    const run = () =>
      refreshCounts(loginName, roles, {
        onTodoItems(items) {
          if (!alive) return;
          alertNewItems(
            loginName,
            items,
            (item) =>
              feedback().notification.info({
                title: '新的待办',
                description: item.Title,
                placement: 'bottomRight',
                // The workflow service says where the item opens (generfrmurl); an err@ answer is toasted.
                onClick: () => void wfApi.formUrl(Number(item.WorkID)).then((url) => navigate(url), () => undefined),
              }),
            setTimeout,
            (more) =>
              feedback().notification.info({
                title: '新的待办',
                description: `另有${more}条新的待办，请到“我的待办”查看`,
                placement: 'bottomRight',
                onClick: () => navigate('/flow/todolist'),
              }),
          );
        },
        onInvoiceCounts(count) {
          if (!alive || !takeReminder(roles, loginName, count)) return;
          feedback().modal.confirm({
            title: Messages.abnormalInvoiceTitle,
            content: abnormalInvoiceText(count),
            okText: Messages.abnormalInvoiceButton,
            cancelText: '稍后处理',
            onOk: () => navigate(ABNORMAL_INVOICE_TARGET),
          });
        },
      });
    void run();
    const timer = setInterval(run, REFRESH_INTERVAL_MS);
    window.addEventListener(WORKFLOW_REFRESH_EVENT, run);
    window.addEventListener(COUNTS_REFRESH_EVENT, run);
    return () => {
      alive = false;
      clearInterval(timer);
      window.removeEventListener(WORKFLOW_REFRESH_EVENT, run);
      window.removeEventListener(COUNTS_REFRESH_EVENT, run);
    };
  }, [loginName, roles, navigate]);

  useEffect(() => {
    if (!loginName) return;
    const beat = () => heartBeat().then((r) => useBadges.getState().setOnlineCount(r?.onlineCount), () => undefined);
    void beat();
    const timer = setInterval(beat, HEARTBEAT_INTERVAL_MS);
    // The online count is one of the counts a workflow refresh event renews.
    window.addEventListener(WORKFLOW_REFRESH_EVENT, beat);
    return () => {
      clearInterval(timer);
      window.removeEventListener(WORKFLOW_REFRESH_EVENT, beat);
    };
  }, [loginName]);
}
