/** 编辑用户 (/system/edituser/:id; the empty id creates one). A new user's initial password is shown once. */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Form, Input, Radio, Result, Skeleton, Space } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { EMPTY_ID, PRIVILEGED_ROLES, UserSaveBody, isSuperUser, type UserSaveInput } from '@zhyy/shared';
import { systemApi } from '../../api/system';
import { zodRule } from '../../components/zodRule';
import { useView } from '../../router/view';
import { useSession } from '../../stores/session';
import { feedback } from '../../ui/feedback';
import { DeptSelect, InitialPasswordNotice, RoleSelect } from './widgets';

const f = UserSaveBody.shape;

export default function UserEdit() {
  const { params } = useView();
  const id = params.id ?? EMPTY_ID;
  const isNew = id === EMPTY_ID;
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [form] = Form.useForm<UserSaveInput>();
  // Roles 1 and 3 are granted and taken away by administrators only (the server refuses the rest).
  const mayGrantAdmin = isSuperUser(useSession((s) => s.roles));
  const [saving, setSaving] = useState(false);
  const [created, setCreated] = useState<{ id: string; loginName: string; password: string } | null>(null);
  const detail = useQuery({ queryKey: ['system', 'user', id], queryFn: () => systemApi.userDetail(id), enabled: !isNew });

  if (!isNew && detail.isLoading) return <Card><Skeleton active /></Card>;
  if (!isNew && detail.isError) return <Card><Result status="warning" title="用户不存在或已被删除" extra={<Button onClick={() => navigate('/system/userlist')}>返回用户列表</Button>} /></Card>;

  if (created) {
    return (
      <Card title="用户已创建" data-testid="user-created">
        <div style={{ maxWidth: 520 }}>
          <InitialPasswordNotice loginName={created.loginName} password={created.password} />
        </div>
        <Space style={{ marginTop: 24 }}>
          <Button type="primary" onClick={() => navigate(`/system/userdetail/${created.id}`)}>查看用户</Button>
          <Button onClick={() => { setCreated(null); form.resetFields(); }}>继续新增</Button>
          <Button onClick={() => navigate('/system/userlist')}>返回列表</Button>
        </Space>
      </Card>
    );
  }

  const d = detail.data;
  const initial: Partial<UserSaveInput> = d
    ? { loginName: d.loginName, name: d.name, deptId: d.deptId ?? undefined, position: d.position, phone: d.phone, email: d.email, roles: d.roles.filter((r) => r !== 'admin') as UserSaveInput['roles'], status: d.status as 0 | 1 }
    : { status: 1, roles: [] };

  const submit = async (values: UserSaveInput) => {
    setSaving(true);
    try {
      const res = await systemApi.saveUser({ ...values, id });
      void qc.invalidateQueries({ queryKey: ['system'] });
      if (res.r?.initialPassword) {
        setCreated({ id: res.r.id, loginName: values.loginName.trim().toLowerCase(), password: res.r.initialPassword });
      } else {
        void feedback().message.success('保存成功');
        navigate(`/system/userdetail/${id}`);
      }
    } catch {
      // The request layer shows the refusal.
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card title={isNew ? '新增用户' : `编辑用户：${d?.name ?? ''}`} data-testid="user-edit">
      <Form form={form} name="user-edit" layout="horizontal" labelCol={{ flex: '90px' }} style={{ maxWidth: 640 }} initialValues={initial} onFinish={(v) => void submit(v)}>
        <Form.Item name="loginName" label="登录名" required rules={[{ required: true, message: '请输入登录名' }, zodRule(f.loginName)]} extra="字母、数字、点（.）和下划线（_），不区分大小写">
          <Input maxLength={32} autoComplete="off" placeholder="例如 zhang.san" />
        </Form.Item>
        <Form.Item name="name" label="姓名" required rules={[{ required: true, message: '请输入姓名' }, zodRule(f.name)]}>
          <Input maxLength={32} />
        </Form.Item>
        <Form.Item name="deptId" label="部门" required rules={[{ required: true, message: '请选择部门' }]}>
          <DeptSelect style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="position" label="职务" rules={[zodRule(f.position)]}>
          <Input maxLength={32} />
        </Form.Item>
        <Form.Item name="phone" label="电话" rules={[zodRule(f.phone)]}>
          <Input maxLength={20} />
        </Form.Item>
        <Form.Item name="email" label="邮箱" rules={[zodRule(f.email)]}>
          <Input maxLength={64} />
        </Form.Item>
        <Form.Item name="roles" label="角色" extra={d?.roles.includes('admin') ? '该账号是超级管理员（admin），此项不会改变。' : '未分配角色的用户无法进入系统（提示“权限不足”）'}>
          <RoleSelect multiple style={{ width: '100%' }} placeholder="可选多个角色" disabledCodes={mayGrantAdmin ? [] : [...PRIVILEGED_ROLES]} />
        </Form.Item>
        <Form.Item name="status" label="状态">
          <Radio.Group options={[{ value: 1, label: '启用' }, { value: 0, label: '停用（立即下线）' }]} />
        </Form.Item>
        <Form.Item label=" " colon={false}>
          <Space>
            <Button type="primary" htmlType="submit" loading={saving} data-testid="save-user">
              {isNew ? '创建用户' : '保存'}
            </Button>
            <Button onClick={() => navigate(-1)}>取消</Button>
          </Space>
        </Form.Item>
      </Form>
    </Card>
  );
}
