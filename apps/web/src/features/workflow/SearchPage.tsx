/**
 * 流程管理 (/flow/zonghesearch): every instance by template, title, starter, department, state and
 * period (roles 1 and 3 see all, others those they took part in). Administrators shift or delete a
 * stuck instance with a reason, which the server logs.
 */
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Form, Input, Modal, Space } from 'antd';
import { useState } from 'react';
import { FlowState, OPEN_FLOW_STATES, isWorkflowAdmin, type InstanceRow, type UserRef } from '@zhyy/shared';
import { emitWorkflowRefresh } from '../../live/events';
import { useSession } from '../../stores/session';
import { feedback } from '../../ui/feedback';
import { wfApi } from '../../api/workflow';
import { settled } from '../common/workflowFormat';
import { LazyWorkDrawer } from './WorkDrawerLazy';
import { WorkList } from './WorkList';
import { UserPicker } from './widgets';
import './workflow.css';

type AdminAction = { kind: 'shift' | 'delete'; row: InstanceRow } | null;

export default function SearchPage() {
  const roles = useSession((s) => s.roles);
  const admin = isWorkflowAdmin(roles);
  const qc = useQueryClient();
  const [open, setOpen] = useState<number | null>(null);
  const [action, setAction] = useState<AdminAction>(null);
  const [form] = Form.useForm<{ reason: string; to?: UserRef }>();

  const confirm = async () => {
    if (!action) return;
    const v = await form.validateFields();
    const id = action.row.WorkID;
    const { message } = action.kind === 'shift' ? await wfApi.adminShift({ workId: id, toUserId: v.to!.id, reason: v.reason.trim() }) : await wfApi.adminDelete(id, v.reason.trim());
    void feedback().message.success(message);
    setAction(null);
    form.resetFields();
    emitWorkflowRefresh();
    void qc.invalidateQueries({ queryKey: ['workflow'] });
  };
  const adminColumn = admin
    ? [
        {
          title: '管理',
          key: 'admin',
          width: 130,
          fixed: 'right' as const,
          render: (_: unknown, r: InstanceRow) => (
            <Space size={0}>
              {(OPEN_FLOW_STATES as readonly number[]).includes(r.State) ? (
                <Button type="link" size="small" onClick={() => setAction({ kind: 'shift', row: r })}>
                  移交
                </Button>
              ) : null}
              {r.State !== FlowState.complete && r.State !== FlowState.deleted ? (
                <Button type="link" size="small" danger onClick={() => setAction({ kind: 'delete', row: r })}>
                  删除
                </Button>
              ) : null}
            </Space>
          ),
        },
      ]
    : [];
  return (
    <Card className="wf-page" title="流程管理" data-testid="search-page">
      <Alert type="info" showIcon style={{ marginBottom: 12 }} title={admin ? '您可以查看全部流程，并移交或删除卡住的流程（须填写原因，操作记入日志）。' : '显示您发起、处理或抄送给您的流程。'} />
      <WorkList scope="all" full onOpen={(r) => setOpen(r.WorkID)} extraColumns={adminColumn} testId="search-list" />
      <LazyWorkDrawer workId={open} onClose={() => setOpen(null)} />
      <Modal
        open={action !== null}
        title={action ? `${action.kind === 'shift' ? '移交' : '删除'}流程：${action.row.Title}` : ''}
        okText={action?.kind === 'delete' ? '删除' : '移交'}
        okButtonProps={{ danger: action?.kind === 'delete' }}
        cancelText="取消"
        onOk={() => settled(confirm)}
        onCancel={() => setAction(null)}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" preserve={false}>
          {action?.kind === 'shift' ? (
            <>
              <Alert type="info" showIcon style={{ marginBottom: 12 }} title={`当前处理人：${action.row.Handlers || '无'}，移交后由新处理人处理当前节点。`} />
              <Form.Item name="to" label="移交给" rules={[{ required: true, message: '请选择移交对象' }]}>
                <UserPicker />
              </Form.Item>
            </>
          ) : (
            <Alert type="warning" showIcon style={{ marginBottom: 12 }} title="删除后流程终止，所有待办收回，不能恢复。" />
          )}
          <Form.Item name="reason" label="原因" rules={[{ required: true, whitespace: true, message: '请填写原因' }, { max: 500, message: '原因不能超过500个字' }]}>
            <Input.TextArea autoSize={{ minRows: 2 }} maxLength={500} showCount />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
