/** 用户管理: filters (name, login name, department subtree, role, status), server paging, export, enable/disable, reset password. */
import { PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Popconfirm, Select, Space, Tooltip, Typography, type TableColumnsType } from 'antd';
import { Link, useNavigate } from 'react-router';
import { EMPTY_ID, type UserRow } from '@zhyy/shared';
import { systemApi } from '../../api/system';
import { formatTime } from '../../components/download';
import { ListPage } from '../../components/ListPage';
import { useSession } from '../../stores/session';
import { feedback } from '../../ui/feedback';
import { DeptSelect, RoleSelect, RoleTags, StatusTag, showInitialPassword } from './widgets';

export const USERS_KEY = ['system', 'users'] as const;

export default function UserList() {
  const navigate = useNavigate();
  const qc = useQueryClient();
  const me = useSession((s) => s.loginName);
  const refresh = () => void qc.invalidateQueries({ queryKey: ['system'] });

  const setStatus = async (u: UserRow, status: 0 | 1) => {
    const res = await systemApi.setUserStatus(u.id, status);
    void feedback().message.success(status === 0 ? `已停用 ${u.name}，${res.r?.revokedSessions ?? 0} 个会话已下线` : `已启用 ${u.name}`);
    refresh();
  };
  const reset = async (u: UserRow) => {
    const r = await systemApi.resetPassword(u.id);
    showInitialPassword(`已重置 ${u.name} 的密码`, u.loginName, r.initialPassword);
    refresh();
  };
  const remove = async (u: UserRow) => {
    await systemApi.deleteUser(u.id);
    void feedback().message.success(`已删除 ${u.name}`);
    refresh();
  };

  const columns: TableColumnsType<UserRow> = [
    { title: '登录名', dataIndex: 'loginName', key: 'loginName', sorter: true, width: 130, render: (v: string, u) => <Link to={`/system/userdetail/${u.id}`}>{v}</Link> },
    { title: '姓名', dataIndex: 'name', key: 'name', sorter: true, width: 90 },
    { title: '部门', dataIndex: 'deptName', key: 'deptName', sorter: true, width: 120 },
    { title: '职务', dataIndex: 'position', width: 100 },
    { title: '角色', dataIndex: 'roles', render: (roles: string[]) => <RoleTags roles={roles} /> },
    { title: '状态', dataIndex: 'status', key: 'status', sorter: true, width: 100, render: (s: number, u) => (
      <Space size={4}>
        <StatusTag status={s} />
        {u.passwordIsInitial ? <Tooltip title="尚未修改初始密码"><Typography.Text type="warning">初始</Typography.Text></Tooltip> : null}
      </Space>
    ) },
    { title: '最近登录', dataIndex: 'lastLoginAt', key: 'lastLoginAt', sorter: true, width: 150, render: (v: string | null) => formatTime(v) || <Typography.Text type="secondary">从未登录</Typography.Text> },
    {
      title: '操作',
      key: 'actions',
      width: 220,
      fixed: 'right',
      render: (_: unknown, u) => {
        const self = u.loginName === me;
        return (
          <Space size={0} wrap>
            <Button type="link" onClick={() => navigate(`/system/edituser/${u.id}`)}>编辑</Button>
            <Popconfirm title={`重置 ${u.name} 的密码？`} description="将生成新的初始密码，并使其所有会话立即下线。" onConfirm={() => reset(u)} disabled={self}>
              <Button type="link" disabled={self}>重置密码</Button>
            </Popconfirm>
            {u.status === 1 ? (
              <Popconfirm title={`停用 ${u.name}？`} description="停用后该用户立即下线，且不能再登录。" onConfirm={() => setStatus(u, 0)} disabled={self}>
                <Button type="link" danger disabled={self}>停用</Button>
              </Popconfirm>
            ) : (
              <Button type="link" onClick={() => void setStatus(u, 1)}>启用</Button>
            )}
            {!u.lastLoginAt ? (
              <Popconfirm title={`删除 ${u.name}？`} description="只能删除从未使用过的账号，删除后不可恢复。" onConfirm={() => remove(u)} disabled={self}>
                <Button type="link" danger disabled={self}>删除</Button>
              </Popconfirm>
            ) : null}
          </Space>
        );
      },
    },
  ];

  return (
    <ListPage<UserRow>
      testId="user-list"
      queryKey={USERS_KEY}
      fetch={systemApi.users}
      columns={columns}
      rowKey="id"
      scrollX={1100}
      emptyText="没有符合条件的用户"
      filters={
        <>
          <Form.Item name="name" label="姓名"><Input allowClear placeholder="姓名" style={{ width: 120 }} maxLength={32} /></Form.Item>
          <Form.Item name="loginName" label="登录名"><Input allowClear placeholder="登录名" style={{ width: 120 }} maxLength={32} /></Form.Item>
          <Form.Item name="deptId" label="部门"><DeptSelect allowClear placeholder="全部（含下级）" /></Form.Item>
          <Form.Item name="role" label="角色"><RoleSelect /></Form.Item>
          <Form.Item name="status" label="状态">
            <Select allowClear placeholder="全部" style={{ width: 90 }} options={[{ value: 1, label: '启用' }, { value: 0, label: '停用' }]} />
          </Form.Item>
        </>
      }
      actions={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate(`/system/edituser/${EMPTY_ID}`)} data-testid="add-user">
          新增用户
        </Button>
      }
      export={{ fileName: '用户列表', run: (f) => systemApi.exportUsers(f) }}
    />
  );
}
