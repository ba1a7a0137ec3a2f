/** 角色管理 (role 1): the fixed role catalogue, the screens each role opens, and its members. */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Col, Collapse, Empty, List, Popconfirm, Row, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import type { RoleMember, RoleSummary } from '@zhyy/shared';
import { systemApi } from '../../api/system';
import { feedback } from '../../ui/feedback';
import { UserPicker } from './UserPicker';
import { StatusTag } from './widgets';
import './system.css';

function RoleMembers({ role }: { role: RoleSummary }) {
  const qc = useQueryClient();
  const members = useQuery({ queryKey: ['system', 'role-members', role.code], queryFn: () => systemApi.roleMembers(role.code) });
  const [picked, setPicked] = useState<string[]>([]);
  const changed = () => void qc.invalidateQueries({ queryKey: ['system'] });
  const add = async () => {
    const res = await systemApi.addRoleMembers(role.code, picked);
    void feedback().message.success(res.message ?? '已添加');
    setPicked([]);
    changed();
  };
  const remove = async (m: RoleMember) => {
    await systemApi.removeRoleMember(role.code, m.id);
    void feedback().message.success(`已将 ${m.name} 移出“${role.name}”`);
    changed();
  };
  return (
    <Card size="small" title={`成员（${members.data?.length ?? 0}）`}>
      <Space.Compact style={{ width: '100%', marginBottom: 8 }}>
        <UserPicker multiple value={picked} onChange={(v) => setPicked((v as string[] | undefined) ?? [])} placeholder="搜索用户后添加到该角色" />
        <Button type="primary" disabled={!picked.length} onClick={() => void add()}>添加</Button>
      </Space.Compact>
      <Table<RoleMember>
        rowKey="id"
        size="small"
        loading={members.isFetching}
        dataSource={members.data ?? []}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        locale={{ emptyText: <Empty description="该角色暂无成员" /> }}
        columns={[
          { title: '姓名', dataIndex: 'name', width: 90 },
          { title: '登录名', dataIndex: 'loginName', width: 110 },
          { title: '部门', dataIndex: 'deptName' },
          { title: '状态', dataIndex: 'status', width: 70, render: (s: number) => <StatusTag status={s} /> },
          {
            title: '操作',
            key: 'op',
            width: 70,
            render: (_: unknown, m) => (
              <Popconfirm title={`将 ${m.name} 移出“${role.name}”？`} onConfirm={() => remove(m)}>
                <Button type="link" danger size="small">移除</Button>
              </Popconfirm>
            ),
          },
        ]}
      />
    </Card>
  );
}

export default function RoleList() {
  const roles = useQuery({ queryKey: ['system', 'roles'], queryFn: systemApi.roles });
  const [current, setCurrent] = useState('1');
  const role = roles.data?.find((r) => r.code === current);
  const groups = new Map<string, string[]>();
  for (const p of role?.pages ?? []) groups.set(p.group, [...(groups.get(p.group) ?? []), p.title]);

  return (
    <Row gutter={12} data-testid="role-list">
      <Col xs={24} lg={9}>
        <Card title="角色目录" size="small" extra={<Typography.Text type="secondary">角色编码由规范固定，不可新增或删除</Typography.Text>}>
          <List<RoleSummary>
            loading={roles.isLoading}
            dataSource={roles.data ?? []}
            renderItem={(r) => (
              <List.Item onClick={() => setCurrent(r.code)} className={r.code === current ? 'role-item role-item-active' : 'role-item'} extra={<Tag>{r.memberCount} 人</Tag>}>
                <List.Item.Meta title={<Space><Tag color={r.code === '1' ? 'red' : 'blue'}>{r.code}</Tag>{r.name}</Space>} description={r.meaning} />
              </List.Item>
            )}
          />
        </Card>
      </Col>
      <Col xs={24} lg={15}>
        {role ? (
          <Space orientation="vertical" style={{ width: '100%' }} size={12}>
            <Card size="small" title={`角色 ${role.code} ${role.name}`}>
              <Typography.Paragraph>{role.meaning}</Typography.Paragraph>
              <Collapse
                size="small"
                items={[
                  {
                    key: 'pages',
                    label: `可打开的页面（${role.pages.length}）`,
                    children: [...groups.entries()].map(([g, titles]) => (
                      <div key={g} style={{ marginBottom: 8 }}>
                        <Typography.Text strong>{g}：</Typography.Text>
                        {titles.map((t) => <Tag key={t} style={{ marginBottom: 4 }}>{t}</Tag>)}
                      </div>
                    )),
                  },
                ]}
              />
            </Card>
            <RoleMembers key={role.code} role={role} />
          </Space>
        ) : (
          <Card><Empty description="请选择角色" /></Card>
        )}
      </Col>
    </Row>
  );
}
