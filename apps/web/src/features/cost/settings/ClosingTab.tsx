/**
 * 月结: a month (the last one by default) and every department with its state, orders and orders still
 * awaiting audit; 结账 after a confirmation (offered only when the month has ended and nothing awaits
 * audit — the shared closeProblem, which the server applies too), 反结账 with a required reason; below,
 * the log of closings and reopenings. A closed month's orders cannot change. Issue 32 item 5: each close
 * stores a digest of the month (shown shortened); closing a month again opens what changed since the
 * previous close (orders added, removed, changed, with the amounts), which stays at hand as 与上次结账比较.
 */
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, DatePicker, Form, Input, Modal, Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { closeProblem, monthLabel, shiftMonth, type CostClosingLog, type CostClosingView } from '@zhyy/shared';
import { CloseDiffView, diffIsEmpty } from '../CloseDiff';
import { costSettingApi } from '../../../api/cost';
import { formatDateTime } from '../../../components/format';
import { tableLocale, tablePagination } from '../../../components/listTable';
import { feedback } from '../../../ui/feedback';
import { Figure } from '../../common/Money';
import { COST_KEY, currentMonth, fromMonth } from '../common';

export const CLOSING_KEY = [...COST_KEY, 'closings'] as const;

export function ClosingTab() {
  const qc = useQueryClient();
  const [month, setMonth] = useState(() => shiftMonth(currentMonth(), -1));
  const [reopening, setReopening] = useState<CostClosingView | null>(null);
  const [busy, setBusy] = useState(false);
  /** The department whose changes since the previous close are shown. */
  const [diffOf, setDiffOf] = useState<CostClosingView | null>(null);
  const [reasonForm] = Form.useForm<{ reason: string }>();
  const [logPage, setLogPage] = useState({ pageIndex: 1, pageSize: 10 });
  const q = useQuery({ queryKey: [...CLOSING_KEY, month], queryFn: () => costSettingApi.closings({ month }) });
  const logs = useQuery({ queryKey: [...CLOSING_KEY, 'logs', logPage], queryFn: () => costSettingApi.closingLogs(logPage), placeholderData: keepPreviousData });
  /** The answer is the month's departments now; the orders' closed flags and the log change too. */
  const after = (rows: CostClosingView[] | undefined) => {
    if (rows) qc.setQueryData([...CLOSING_KEY, month], rows);
    void qc.invalidateQueries({ queryKey: [...CLOSING_KEY, 'logs'] });
    void qc.invalidateQueries({ predicate: (x) => x.queryKey[0] === COST_KEY[0] && x.queryKey[1] !== 'closings' });
  };
  const close = (r: CostClosingView) => {
    feedback().modal.confirm({
      title: `确认结账：${r.deptName} ${monthLabel(month)}？`,
      content: `结账后该部门该月的 ${r.orders} 张成本单不能再修改、审核或作废，也不能再录入该月成本单；如需修改须先反结账。`,
      okText: '结账',
      cancelText: '取消',
      onOk: async () => {
        try {
          const a = await costSettingApi.close({ deptId: r.deptId, month });
          after(a.r);
          void feedback().message.success(`${r.deptName} ${monthLabel(month)}已结账`);
          // Closed again: show what changed since the previous close.
          const closed = a.r?.find((x) => x.deptId === r.deptId);
          if (closed?.changes) setDiffOf(closed);
        } catch {
          // Shown by the API client.
        }
      },
    });
  };
  const reopen = async ({ reason }: { reason: string }) => {
    if (!reopening) return;
    setBusy(true);
    try {
      const a = await costSettingApi.reopen({ deptId: reopening.deptId, month, reason: reason.trim() });
      after(a.r);
      void feedback().message.success(`${reopening.deptName} ${monthLabel(month)}已反结账`);
      setReopening(null);
    } catch {
      // Shown by the API client; the window stays open.
    } finally {
      setBusy(false);
    }
  };
  const now = new Date();
  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }} data-testid="closing-tab">
      <Space>
        <span>月份</span>
        <DatePicker picker="month" allowClear={false} value={fromMonth(month)} onChange={(d: Dayjs | null) => d && setMonth(d.format('YYYY-MM'))} data-testid="closing-month" />
        <Typography.Text type="secondary">月份结束且没有待审核成本单的部门方可结账。</Typography.Text>
      </Space>
      <Table<CostClosingView>
        rowKey="deptId"
        size="small"
        loading={q.isFetching}
        dataSource={q.data ?? []}
        pagination={false}
        locale={tableLocale(q.isError, '没有部门')}
        columns={[
          { title: '部门', dataIndex: 'deptName' },
          { title: '状态', key: 'closed', width: 90, render: (_, r) => (r.closed ? <Tag color="green">已结账</Tag> : <Tag>未结账</Tag>) },
          { title: '成本单', key: 'orders', width: 80, align: 'right', render: (_, r) => <Figure>{r.orders}</Figure> },
          { title: '待审核', key: 'toAudit', width: 80, align: 'right', render: (_, r) => (r.toAudit ? <Typography.Text type="danger" strong>{r.toAudit}</Typography.Text> : <Figure>0</Figure>) },
          { title: '结账人', dataIndex: 'closedBy', width: 100, render: (v: string, r) => (r.closed ? v : '') },
          { title: '结账时间', key: 'closedAt', width: 170, render: (_, r) => (r.closed ? formatDateTime(r.closedAt) : '') },
          {
            title: '结账摘要', key: 'digest', width: 230,
            render: (_, r) => {
              if (!r.closed) return '';
              return (
                <Space size={4}>
                  {r.digest ? <Tooltip title={`SHA-256 ${r.digest}`}><Typography.Text code>{r.digest.slice(0, 12)}</Typography.Text></Tooltip> : <Typography.Text type="secondary">无摘要</Typography.Text>}
                  {r.changes ? (
                    <Button type="link" size="small" onClick={() => setDiffOf(r)} data-testid={`changes-${r.deptId}`}>
                      {diffIsEmpty(r.changes) ? '与上次结账相同' : '与上次结账比较'}
                    </Button>
                  ) : null}
                </Space>
              );
            },
          },
          {
            title: '操作', key: 'op', width: 110,
            render: (_, r) => {
              if (r.closed) return <Button type="link" size="small" danger onClick={() => { reasonForm.resetFields(); setReopening(r); }} data-testid={`reopen-${r.deptId}`}>反结账</Button>;
              const problem = closeProblem(month, now, r.toAudit, r.closed);
              const button = <Button type="link" size="small" disabled={!!problem} onClick={() => close(r)} data-testid={`close-${r.deptId}`}>结账</Button>;
              return problem ? <Tooltip title={problem}>{button}</Tooltip> : button;
            },
          },
        ]}
      />
      <Typography.Title level={5} style={{ margin: 0 }}>结账记录</Typography.Title>
      <Table<CostClosingLog>
        rowKey={(r) => `${r.createdAt}|${r.deptName}|${r.month}|${r.action}`}
        size="small"
        loading={logs.isFetching}
        dataSource={logs.data?.items ?? []}
        locale={tableLocale(logs.isError, '暂无结账记录')}
        pagination={tablePagination(logPage, logs.data?.total ?? 0, '条')}
        onChange={(p) => setLogPage({ pageIndex: p.current ?? 1, pageSize: p.pageSize ?? 10 })}
        columns={[
          { title: '时间', key: 'createdAt', width: 170, render: (_, r) => formatDateTime(r.createdAt) },
          { title: '部门', dataIndex: 'deptName', width: 140 },
          { title: '月份', key: 'month', width: 100, render: (_, r) => monthLabel(r.month) },
          { title: '操作', key: 'action', width: 80, render: (_, r) => (r.action === 'close' ? <Tag color="green">结账</Tag> : <Tag color="orange">反结账</Tag>) },
          { title: '原因', dataIndex: 'reason', render: (v: string) => v || '—' },
          { title: '操作人', dataIndex: 'userName', width: 100 },
        ]}
        data-testid="closing-logs"
      />
      <Modal
        open={!!diffOf}
        title={diffOf ? `${diffOf.deptName} ${monthLabel(diffOf.month)}：与上次结账相比` : '与上次结账相比'}
        width={960}
        footer={null}
        onCancel={() => setDiffOf(null)}
        destroyOnHidden
      >
        {diffOf?.changes ? <CloseDiffView diff={diffOf.changes} beforeLabel="上次结账" afterLabel="本次结账" testId="close-changes" /> : null}
      </Modal>
      <Modal
        open={!!reopening}
        title={reopening ? `反结账：${reopening.deptName} ${monthLabel(month)}` : '反结账'}
        okText="反结账"
        okButtonProps={{ danger: true, loading: busy }}
        cancelText="取消"
        onOk={() => reasonForm.submit()}
        onCancel={() => setReopening(null)}
        forceRender
      >
        <Typography.Paragraph type="secondary">反结账后该部门该月的成本单可再修改、审核和作废，原因记入结账记录。</Typography.Paragraph>
        <Form form={reasonForm} layout="vertical" name="cost-reopen" onFinish={(v) => void reopen(v)}>
          <Form.Item name="reason" label="反结账原因" rules={[{ required: true, whitespace: true, message: '请填写反结账原因' }, { max: 200, message: '反结账原因不能超过200个字符' }]}>
            <Input.TextArea rows={3} maxLength={200} showCount />
          </Form.Item>
        </Form>
      </Modal>
    </Space>
  );
}
