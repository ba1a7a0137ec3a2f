/** 个人设置 (/assistant/personalsetting): profile (phone, email), default approval opinion, password change (section 5 rules). */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Descriptions, Form, Input, Row, Skeleton } from 'antd';
import { useState } from 'react';
import { PASSWORD_INPUT_MAX_LENGTH, PersonalSaveBody, validateConfirmPassword, validateNewPassword } from '@zhyy/shared';
import { updatePassword } from '../../api/account';
import { feedback } from '../../ui/feedback';
import { wfApi } from '../../api/workflow';
import { settled } from '../common/workflowFormat';
import './workflow.css';

const fieldRule = (key: 'phone' | 'email' | 'defaultOpinion') => ({
  validator: async (_: unknown, v: unknown) => {
    const r = PersonalSaveBody.shape[key].safeParse(v ?? '');
    if (!r.success) throw new Error(r.error.issues[0]?.message ?? '输入不正确');
  },
});

function Profile() {
  const qc = useQueryClient();
  const q = useQuery({ queryKey: ['workflow', 'personal'], queryFn: wfApi.personal });
  const [busy, setBusy] = useState(false);
  if (q.isPending) return <Skeleton active />;
  if (q.isError) return <Alert type="error" showIcon title="个人信息加载失败" />;
  const p = q.data;
  const save = async (v: { phone: string; email: string; defaultOpinion: string }) => {
    setBusy(true);
    try {
      const { message } = await wfApi.savePersonal({ phone: v.phone?.trim() ?? '', email: v.email?.trim() ?? '', defaultOpinion: v.defaultOpinion?.trim() ?? '' });
      void feedback().message.success(message);
      void qc.invalidateQueries({ queryKey: ['workflow'] });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card size="small" title="基本信息" data-testid="profile-card">
      <Descriptions
        size="small"
        column={2}
        style={{ marginBottom: 16 }}
        items={[
          { key: 'name', label: '姓名', children: p.name },
          { key: 'login', label: '登录名', children: p.loginName },
          { key: 'dept', label: '部门', children: p.deptName || '无' },
          { key: 'position', label: '职务', children: p.position || '无' },
        ]}
      />
      <Form layout="vertical" initialValues={p} onFinish={(v) => void settled(() => save(v))}>
        <Form.Item name="phone" label="手机号" rules={[fieldRule('phone')]}>
          <Input maxLength={11} placeholder="11位手机号" />
        </Form.Item>
        <Form.Item name="email" label="邮箱" rules={[fieldRule('email')]}>
          <Input maxLength={100} placeholder="name@example.com" />
        </Form.Item>
        <Form.Item name="defaultOpinion" label="默认审批意见" rules={[fieldRule('defaultOpinion')]} extra="审批时自动填入意见框，可再修改">
          <Input.TextArea maxLength={200} showCount autoSize={{ minRows: 2 }} placeholder="例如：同意，请按规定执行" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={busy}>
          保存
        </Button>
      </Form>
    </Card>
  );
}

function PasswordCard() {
  const [form] = Form.useForm();
  const [busy, setBusy] = useState(false);
  const save = async (v: { oldPassword: string; password: string; confirmPassword: string }) => {
    setBusy(true);
    try {
      const e = await updatePassword(v);
      void feedback().message.success(e.message ?? '修改成功');
      form.resetFields();
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card size="small" title="修改密码" data-testid="password-card">
      <Form form={form} layout="vertical" onFinish={(v) => void settled(() => save(v))}>
        <Form.Item name="oldPassword" label="原密码" rules={[{ required: true, message: '请输入原密码' }]}>
          <Input.Password maxLength={PASSWORD_INPUT_MAX_LENGTH} autoComplete="current-password" />
        </Form.Item>
        <Form.Item
          name="password"
          label="新密码"
          required
          rules={[{ validator: async (_, v: string) => { const m = validateNewPassword(v); if (m) throw new Error(m); } }]}
        >
          <Input.Password maxLength={PASSWORD_INPUT_MAX_LENGTH} autoComplete="new-password" placeholder="6-20位，由字母和数字组合" />
        </Form.Item>
        <Form.Item
          name="confirmPassword"
          label="确认密码"
          required
          dependencies={['password']}
          rules={[{ validator: async (_, v: string) => { const m = validateConfirmPassword(v, form.getFieldValue('password')); if (m) throw new Error(m); } }]}
        >
          <Input.Password maxLength={PASSWORD_INPUT_MAX_LENGTH} autoComplete="new-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={busy}>
          修改密码
        </Button>
      </Form>
    </Card>
  );
}

export default function PersonalSettings() {
  return (
    <Row gutter={[12, 12]} className="wf-page" data-testid="personal-settings">
      <Col xs={24} lg={14}>
        <Profile />
      </Col>
      <Col xs={24} lg={10}>
        <PasswordCard />
      </Col>
    </Row>
  );
}
