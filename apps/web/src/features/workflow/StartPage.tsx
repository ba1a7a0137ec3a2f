/** 发起申请 (/flow/start): the template catalogue, then the start form; `?workId=N` edits a draft or a returned application. */
import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Popconfirm, Button, Skeleton } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { FlowState } from '@zhyy/shared';
import { emitWorkflowRefresh } from '../../live/events';
import { useView } from '../../router/view';
import { feedback } from '../../ui/feedback';
import { wfApi } from '../../api/workflow';
import { settled } from '../common/workflowFormat';
import { StartCatalog } from './StartCatalog';
import { StartForm } from './StartForm';
import './workflow.css';

export default function StartPage() {
  const view = useView();
  const navigate = useNavigate();
  const [flowNo, setFlowNo] = useState<string | null>(null);
  const params = new URLSearchParams(view.search);
  const workId = Number(params.get('workId')) || null;
  const askedFlow = params.get('flowNo');
  const existing = useQuery({ queryKey: ['workflow', 'detail', workId], queryFn: () => wfApi.detail(workId!), enabled: workId !== null, retry: false });
  useEffect(() => {
    // A draft opens its own form; a quick start from the workbench opens the template's.
    setFlowNo(workId ? null : askedFlow);
  }, [workId, askedFlow]);

  const back = () => {
    setFlowNo(null);
    if (workId || askedFlow) void navigate('/flow/start', { replace: true });
  };
  const done = (id: number) => {
    setFlowNo(null);
    void navigate(`/flow/todolist?workId=${id}`);
  };

  if (workId) {
    if (existing.isPending) return <Skeleton active />;
    if (existing.isError) return <Alert type="error" showIcon title="无法打开该申请" description={(existing.error as Error).message} />;
    const d = existing.data;
    if (!d.can.edit) return <Alert type="info" showIcon title="该申请当前不能修改" description={`状态：${FlowState.label(d.State)}`} action={<Button onClick={back}>返回</Button>} />;
    return (
      <div className="wf-page" data-testid="start-page">
        <StartForm key={d.WorkID} flowNo={d.FlowNo} existing={d} onDone={done} onCancel={back} />
        {d.can.delete ? (
          <Popconfirm
            title="删除该草稿？删除后不能恢复。"
            okText="删除"
            okButtonProps={{ danger: true }}
            cancelText="取消"
            onConfirm={() =>
              settled(async () => {
                const { message } = await wfApi.remove(d.WorkID);
                void feedback().message.success(message);
                emitWorkflowRefresh();
                back();
              })
            }
          >
            <Button danger style={{ marginTop: 12 }}>
              删除草稿
            </Button>
          </Popconfirm>
        ) : null}
      </div>
    );
  }
  return (
    <div className="wf-page" data-testid="start-page">
      {flowNo ? (
        <StartForm key={flowNo} flowNo={flowNo} onDone={done} onCancel={back} />
      ) : (
        <Card size="small" title="发起申请">
          {/* 费用报销审批 runs for a bill: 我的报销 starts it (features/reimbursement/apply). */}
          <StartCatalog onPick={(f) => (f.flowNo === 'FY01' ? void navigate('/my/reimbursement/detail/new') : setFlowNo(f.flowNo))} />
        </Card>
      )}
    </div>
  );
}
