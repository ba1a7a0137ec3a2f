/** A work item opened from a list: its header, the form's values, the approval panel, the opinions and the track. */
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Drawer, Result, Skeleton, Space } from 'antd';
import { Suspense, useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { FlowState } from '@zhyy/shared';
import { wfApi } from '../../api/workflow';
import { ApprovalPanel } from './ApprovalPanel';
import { CheckList } from './CheckList';
import { formatTime } from '../common/workflowFormat';
import { FormView } from './FormView';
import { TrackTimeline } from '../common/TrackTimeline';
import { StateTag } from './widgets';
import { recordPanel } from '../common/recordPanels';


export function WorkDrawer({ workId, onClose }: { workId: number | null; onClose: () => void }) {
  const navigate = useNavigate();
  const q = useQuery({ queryKey: ['workflow', 'detail', workId], queryFn: () => wfApi.detail(workId!), enabled: workId !== null, retry: false });
  const d = q.data;
  // The record behind the instance (an FY01's reimbursement bill: lines, checks, invoices, 核定), registered by router/pages.ts.
  const RecordPanel = recordPanel(d?.RecordType);
  // The drawer does not hand the focus back when it closes (it lands on <body>): keep what had the focus
  // when it opened (the list's title button) and give it back on closing, so Esc leaves the user where
  // they were instead of nowhere (and no outline is drawn around the whole tab pane).
  const opener = useRef<Element | null>(null);
  const wasOpen = useRef(false);
  if (workId !== null && !wasOpen.current) opener.current = document.activeElement;
  wasOpen.current = workId !== null;
  useEffect(() => {
    const el = opener.current;
    if (workId === null && el instanceof HTMLElement && el.isConnected) el.focus();
  }, [workId]);
  return (
    <Drawer open={workId !== null} onClose={onClose} size={880} title={d ? `${d.Title}` : '流程详情'} destroyOnHidden data-testid="work-drawer">
      {q.isPending ? <Skeleton active paragraph={{ rows: 8 }} /> : null}
      {q.isError ? <Result status="warning" title="无法打开该流程" subTitle={(q.error as Error).message} /> : null}
      {d ? (
        <Space direction="vertical" size={12} style={{ width: '100%' }}>
          <Descriptions
            size="small"
            column={{ xs: 1, md: 3 }}
            items={[
              { key: 'no', label: '流程号', children: d.WorkID },
              { key: 'flow', label: '流程', children: `${d.FlowName}（V${d.Version}）` },
              { key: 'state', label: '状态', children: <StateTag state={d.State} /> },
              { key: 'starter', label: '发起人', children: `${d.StarterName}（${d.DeptName}）` },
              { key: 'created', label: '发起时间', children: formatTime(d.CreatedAt) },
              { key: 'node', label: '当前节点', children: d.State === FlowState.complete ? `已结束 ${formatTime(d.FinishedAt)}` : d.NodeName },
              ...(d.Handlers.length ? [{ key: 'handlers', label: '当前处理人', span: 3, children: d.Handlers.map((h) => h.name).join('、') }] : []),
            ]}
          />
          {d.can.edit && d.State !== FlowState.draft ? (
            <Alert
              type="warning"
              showIcon
              title="申请已退回给您，请修改后重新提交"
              action={
                <Button size="small" type="primary" onClick={() => navigate(d.RecordType === 'reimbursement' && d.RecordId ? `/my/reimbursement/detail/${d.RecordId}` : `/flow/start?workId=${d.WorkID}`)}>
                  修改并重新提交
                </Button>
              }
            />
          ) : null}
          {/* A record with its own panel (an FY01's reimbursement bill: header, lines with their invoices, attachments) shows it instead of the form's copy, which said 无附件 beside two invoices (issue 31 #6). */}
          {RecordPanel && d.RecordId ? null : (
            <Card size="small" title="申请内容">
              <FormView fields={d.form} values={d.values} />
            </Card>
          )}
          {RecordPanel && d.RecordId ? (
            <Suspense fallback={<Skeleton active paragraph={{ rows: 3 }} />}>
              <RecordPanel recordId={d.RecordId} version={q.dataUpdatedAt} />
            </Suspense>
          ) : null}
          <ApprovalPanel detail={d} onChanged={() => void q.refetch()} />
          <Card size="small" title="各节点审批意见">
            <CheckList workId={d.WorkID} version={q.dataUpdatedAt} />
          </Card>
          <Card size="small" title="流程轨迹">
            <TrackTimeline track={d.track} />
          </Card>
        </Space>
      ) : null}
    </Drawer>
  );
}
