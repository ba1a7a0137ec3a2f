/**
 * The start form of a template: title, the fields rendered from the form definition with the shared
 * rules, the route preview, 保存草稿 and 提交. Also edits a draft, and a returned application (resubmit).
 */
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Form, Input, Skeleton, Space, Typography } from 'antd';
import { useState } from 'react';
import { FlowState, type UserRef, type WorkDetail } from '@zhyy/shared';
import { emitWorkflowRefresh } from '../../live/events';
import { feedback } from '../../ui/feedback';
import { wfApi } from '../../api/workflow';
import { ActionDialogs } from './ActionDialogs';
import { FormFields } from './FormFields';
import { settled } from '../common/workflowFormat';

export function StartForm(props: { flowNo: string; existing?: WorkDetail; onDone: (workId: number, submitted: boolean) => void; onCancel: () => void }) {
  const [form] = Form.useForm();
  const tpl = useQuery({ queryKey: ['workflow', 'template', props.flowNo], queryFn: () => wfApi.template(props.flowNo) });
  const [workId, setWorkId] = useState(props.existing?.WorkID);
  const [busy, setBusy] = useState<'draft' | 'submit' | null>(null);
  const [choose, setChoose] = useState<string | null>(null);
  const resubmit = props.existing && props.existing.State !== FlowState.draft;

  if (tpl.isPending) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (tpl.isError) return <Alert type="error" showIcon title="流程模板加载失败" />;
  const fields = props.existing?.form ?? tpl.data.form;
  const collect = () => {
    const { __title, ...values } = form.getFieldsValue(true) as Record<string, unknown>;
    return { title: typeof __title === 'string' ? __title.trim() || undefined : undefined, form: values };
  };
  const saveDraft = async () => {
    setBusy('draft');
    try {
      const body = collect();
      const { r, message } = await wfApi.saveDraft({ workId, flowNo: props.flowNo, ...body });
      setWorkId(r.workId);
      void feedback().message.success(message);
      emitWorkflowRefresh();
    } finally {
      setBusy(null);
    }
  };
  const submit = async (toUserIds?: string[]) => {
    await form.validateFields();
    setBusy('submit');
    try {
      const body = collect();
      if (!resubmit && !toUserIds) {
        const next = await wfApi.nextStep({ flowNo: props.flowNo, form: body.form });
        if (next.choose) {
          setChoose(next.nodeName);
          return;
        }
      }
      const { r, message } = resubmit
        ? await wfApi.send({ workId: workId!, form: body.form, opinion: '已修改，重新提交' })
        : await wfApi.start({ workId, flowNo: props.flowNo, ...body, toUserIds });
      void feedback().message.success(message);
      emitWorkflowRefresh();
      props.onDone(r.workId, true);
    } finally {
      setBusy(null);
    }
  };
  return (
    <Card
      size="small"
      title={`${resubmit ? '修改并重新提交：' : workId ? '编辑草稿：' : '发起：'}${tpl.data.name}`}
      extra={<Button onClick={props.onCancel}>返回流程列表</Button>}
      data-testid="start-form"
    >
      {tpl.data.description ? <Typography.Paragraph type="secondary">{tpl.data.description}</Typography.Paragraph> : null}
      <Form form={form} name="wf-start" layout="vertical" initialValues={{ __title: props.existing?.Title, ...(props.existing?.values ?? {}) }} scrollToFirstError>
        {resubmit ? null : (
          <Form.Item name="__title" label="标题" rules={[{ max: 100, message: '标题不能超过100个字' }]} extra="不填写时自动生成：流程名称-姓名-日期">
            <Input maxLength={100} placeholder={`${tpl.data.name}-姓名-日期`} />
          </Form.Item>
        )}
        <FormFields fields={fields} form={form} />
      </Form>
      <Space>
        <Button type="primary" loading={busy === 'submit'} onClick={() => void settled(() => submit())} data-testid="submit-flow">
          {resubmit ? '重新提交' : '提交'}
        </Button>
        {resubmit ? null : (
          <Button loading={busy === 'draft'} onClick={() => void settled(saveDraft)}>
            保存草稿
          </Button>
        )}
      </Space>
      <ActionDialogs
        open={choose ? 'choose' : null}
        chooseFor={choose ?? undefined}
        onClose={() => setChoose(null)}
        returnTargets={[]}
        onReturn={async () => undefined}
        onShift={async () => undefined}
        onCc={async () => undefined}
        onChoose={(users: UserRef[]) => submit(users.map((u) => u.id))}
      />
    </Card>
  );
}
