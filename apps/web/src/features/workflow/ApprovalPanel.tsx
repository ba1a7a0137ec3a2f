/**
 * The approval panel of a work item: opinion, 同意, 退回, 移交, 抄送, and the starter's 撤回, 催办;
 * only the actions the server says are allowed are shown. Every change refreshes the counts.
 */
import { Button, Card, Form, Input, Popconfirm, Space } from 'antd';
import { useEffect, useState } from 'react';
import type { UserRef, WorkDetail } from '@zhyy/shared';
import { emitWorkflowRefresh } from '../../live/events';
import { feedback } from '../../ui/feedback';
import { wfApi } from '../../api/workflow';
import { ActionDialogs, type Dialog } from './ActionDialogs';
import { settled } from '../common/workflowFormat';

export function ApprovalPanel({ detail, onChanged }: { detail: WorkDetail; onChanged: () => void }) {
  const [opinion, setOpinion] = useState(detail.defaultOpinion);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [busy, setBusy] = useState(false);
  const [chooseFor, setChooseFor] = useState<string>();
  const can = detail.can;
  const id = detail.WorkID;
  useEffect(() => setOpinion(detail.defaultOpinion), [detail.WorkID, detail.defaultOpinion]);

  const run = async (fn: () => Promise<{ message: string }>) => {
    setBusy(true);
    try {
      const { message } = await fn();
      void feedback().message.success(message);
      emitWorkflowRefresh();
      onChanged();
    } finally {
      setBusy(false);
    }
  };
  const send = async () => {
    const next = await wfApi.nextStep({ workId: id });
    if (next.choose) {
      setChooseFor(next.nodeName);
      setDialog('choose');
      return;
    }
    await run(() => wfApi.send({ workId: id, opinion }));
  };

  const any = can.send || can.return || can.shift || can.cc || can.undo || can.withdraw || can.press;
  if (!any) return null;
  return (
    <Card size="small" title="审批" className="wf-panel" data-testid="approval-panel">
      {can.send ? (
        <Form layout="vertical">
          <Form.Item label="审批意见">
            <Input.TextArea value={opinion} onChange={(e) => setOpinion(e.target.value)} maxLength={500} showCount autoSize={{ minRows: 2, maxRows: 6 }} placeholder="不填写时记为“同意”" />
          </Form.Item>
        </Form>
      ) : null}
      <Space wrap>
        {can.send ? (
          <Button type="primary" loading={busy} onClick={() => void settled(send)}>
            同意
          </Button>
        ) : null}
        {can.return ? <Button danger onClick={() => setDialog('return')}>退回</Button> : null}
        {can.shift ? <Button onClick={() => setDialog('shift')}>移交</Button> : null}
        {can.cc ? <Button onClick={() => setDialog('cc')}>抄送</Button> : null}
        {can.undo ? (
          <Popconfirm title="撤销本次发送？下一节点的待办将收回。" okText="撤销" cancelText="取消" onConfirm={() => settled(() => run(() => wfApi.undo(id)))}>
            <Button>撤销发送</Button>
          </Popconfirm>
        ) : null}
        {can.withdraw ? (
          <Popconfirm title="撤回后流程回到草稿，可修改后重新提交。确定撤回？" okText="撤回" cancelText="取消" onConfirm={() => settled(() => run(() => wfApi.withdraw(id)))}>
            <Button>撤回</Button>
          </Popconfirm>
        ) : null}
        {can.press ? <Button onClick={() => void settled(() => run(() => wfApi.press(id)))}>催办</Button> : null}
      </Space>
      <ActionDialogs
        open={dialog}
        onClose={() => setDialog(null)}
        returnTargets={detail.returnTargets}
        chooseFor={chooseFor}
        onReturn={(toNodeId, reason) => run(() => wfApi.returnTo({ workId: id, toNodeId, reason }))}
        onShift={(to: UserRef, reason) => run(() => wfApi.shift({ workId: id, toUserId: to.id, reason }))}
        onCc={(users, note) => run(() => wfApi.cc({ workId: id, userIds: users.map((u) => u.id), note: note || undefined }))}
        onChoose={(users) => run(() => wfApi.send({ workId: id, opinion, toUserIds: users.map((u) => u.id) }))}
      />
    </Card>
  );
}
