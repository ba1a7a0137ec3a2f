/** 用户详情: profile, roles, recent sign-ins and recent operations. */
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Descriptions, Skeleton, Space, Table, Tag, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { OperationLogType, type OperationRecord, type SignInRecord } from '@zhyy/shared';
import { systemApi } from '../../api/system';
import { formatTime } from '../../components/download';
import { RecordNotFound, isRecordId } from '../../components/RecordNotFound';
import { useView } from '../../router/view';
import { RoleTags, StatusTag } from './widgets';

export default function UserDetail() {
  const { params } = useView();
  const id = params.id ?? '';
  const navigate = useNavigate();
  const valid = isRecordId(id);
  const q = useQuery({ queryKey: ['system', 'user', id], queryFn: () => systemApi.userDetail(id, { silent: true }), enabled: valid });

  if (q.isLoading) return <Card><Skeleton active /></Card>;
  if (!q.data) return <RecordNotFound what="用户" error={q.error} back="/system/userlist" backLabel="返回用户列表" />;
  const u = q.data;

  return (
    <Space orientation="vertical" style={{ width: '100%' }} size={12} data-testid="user-detail">
      <Card title={`${u.name}（${u.loginName}）`} extra={<Button type="primary" onClick={() => navigate(`/system/edituser/${u.id}`)}>编辑</Button>}>
        <Descriptions
          column={{ xs: 1, md: 2, xl: 3 }}
          size="small"
          items={[
            { key: 'login', label: '登录名', children: u.loginName },
            { key: 'name', label: '姓名', children: u.name },
            { key: 'status', label: '状态', children: <Space><StatusTag status={u.status} />{u.passwordIsInitial ? <Tag color="orange">尚未修改初始密码</Tag> : null}</Space> },
            { key: 'dept', label: '部门', children: u.deptPath || '—' },
            { key: 'position', label: '职务', children: u.position || '—' },
            { key: 'phone', label: '电话', children: u.phone || '—' },
            { key: 'email', label: '邮箱', children: u.email || '—' },
            { key: 'last', label: '最近登录', children: formatTime(u.lastLoginAt) || '从未登录' },
            { key: 'created', label: '创建时间', children: formatTime(u.createdAt) },
            { key: 'roles', label: '角色', span: 'filled', children: <RoleTags roles={u.roles} /> },
          ]}
        />
      </Card>
      <Card title="最近登录" size="small">
        <Table<SignInRecord>
          rowKey="id"
          size="small"
          pagination={false}
          dataSource={u.recentSignIns}
          locale={{ emptyText: '暂无登录记录' }}
          columns={[
            { title: '登录时间', dataIndex: 'signedInAt', render: formatTime, width: 160 },
            { title: 'IP', dataIndex: 'ip', width: 130 },
            { title: '登录地', dataIndex: 'location', width: 140 },
            { title: '浏览器', dataIndex: 'browser', width: 140 },
            { title: '最后活动', dataIndex: 'lastSeenAt', render: formatTime, width: 160 },
            { title: '结束', dataIndex: 'endReason', render: (v: string | null, r) => (v ? `${v}（${formatTime(r.endedAt)}）` : <Tag color="green">有效</Tag>) },
          ]}
        />
      </Card>
      <Card title="最近操作" size="small">
        <Table<OperationRecord>
          rowKey="id"
          size="small"
          pagination={false}
          dataSource={u.recentOperations}
          locale={{ emptyText: '暂无操作记录' }}
          columns={[
            { title: '时间', dataIndex: 'createdAt', render: formatTime, width: 160 },
            { title: '类型', dataIndex: 'type', render: (t: number) => <Tag>{OperationLogType.label(t)}</Tag>, width: 80 },
            { title: '内容', dataIndex: 'description', render: (v: string) => <Typography.Text>{v}</Typography.Text> },
            { title: 'IP', dataIndex: 'ip', width: 130 },
          ]}
        />
      </Card>
    </Space>
  );
}
