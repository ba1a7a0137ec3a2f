/** 在线用户 (role 1): sessions with a heartbeat in the last 2 minutes; force a session out. */
import { useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Popconfirm, Tag, Typography, type TableColumnsType } from 'antd';
import { relativeTime, type OnlineSession } from '@zhyy/shared';
import { systemApi } from '../../api/system';
import { formatTime } from '../../components/download';
import { ListPage } from '../../components/ListPage';
import { feedback } from '../../ui/feedback';

export default function OnlineUsers() {
  const qc = useQueryClient();
  const kick = async (s: OnlineSession) => {
    const res = await systemApi.forceLogout(s.sessionId);
    void feedback().message.success(res.message ?? '已强制下线');
    void qc.invalidateQueries({ queryKey: ['system', 'online'] });
  };
  const columns: TableColumnsType<OnlineSession> = [
    { title: '姓名', dataIndex: 'name', width: 130, render: (v: string, s) => <>{v}{s.isSelf ? <Tag color="blue" style={{ marginLeft: 4 }}>当前</Tag> : null}</> },
    { title: '登录名', dataIndex: 'loginName', width: 110 },
    { title: '部门', dataIndex: 'deptName', width: 120 },
    { title: 'IP', dataIndex: 'ip', width: 130 },
    { title: '登录地', dataIndex: 'location', width: 130 },
    { title: '浏览器', dataIndex: 'browser', width: 150, render: (v: string, s) => <>{v}<Typography.Text type="secondary">{s.os ? ` · ${s.os}` : ''}</Typography.Text></> },
    { title: '登录时间', dataIndex: 'signedInAt', width: 160, render: formatTime },
    { title: '最后心跳', dataIndex: 'lastSeenAt', width: 110, render: (v: string) => <span title={formatTime(v)}>{relativeTime(v)}</span> },
    {
      title: '操作',
      key: 'op',
      width: 100,
      fixed: 'right',
      render: (_: unknown, s) =>
        s.isSelf ? null : (
          <Popconfirm title={`强制 ${s.name} 下线？`} description="该会话的令牌立即失效，对方需重新登录。" onConfirm={() => kick(s)}>
            <Button type="link" danger data-testid={`kick-${s.loginName}`}>强制下线</Button>
          </Popconfirm>
        ),
    },
  ];
  return (
    <ListPage<OnlineSession>
      testId="online-users"
      queryKey={['system', 'online']}
      fetch={systemApi.online}
      columns={columns}
      rowKey="sessionId"
      scrollX={1100}
      emptyText="当前没有在线用户"
      filters={<Form.Item name="keyword" label="搜索"><Input allowClear placeholder="姓名、登录名或IP" style={{ width: 180 }} maxLength={64} /></Form.Item>}
      header={(d) => (d ? <Typography.Text type="secondary">2分钟内有心跳的会话视为在线，当前 {d.total} 个会话在线。</Typography.Text> : null)}
    />
  );
}
