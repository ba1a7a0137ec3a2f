/**
 * A filtered, server-paginated list of instances of one scope (待办, 在途, 草稿, 我发起的, 我参与的,
 * 全部). The filter bar applies on 查询; rows open the work item (drafts open the start form).
 */
import { ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, DatePicker, Empty, Form, Input, Select, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useState, type ReactNode } from 'react';
import { FlowState, type InstanceRow, type ListScope } from '@zhyy/shared';
import { tablePagination } from '../../components/listTable';
import { wfApi, type ListQuery } from '../../api/workflow';
import { formatTime } from '../common/workflowFormat';
import { StateTag, useDepts } from './widgets';
import '../../components/listPage.css';

interface Filters {
  title?: string;
  flowNo?: string;
  starter?: string;
  deptId?: string;
  state?: number;
  period?: [{ format(f: string): string }, { format(f: string): string }] | null;
}

export function useFlowOptions() {
  return useQuery({ queryKey: ['workflow', 'flowdata'], queryFn: wfApi.flowData, staleTime: 300_000 });
}

export function WorkList(props: {
  scope: ListScope;
  onOpen: (row: InstanceRow) => void;
  full?: boolean;
  extraColumns?: TableColumnsType<InstanceRow>;
  testId?: string;
  toolbar?: ReactNode;
}) {
  const [form] = Form.useForm<Filters>();
  const [filters, setFilters] = useState<Partial<ListQuery>>({});
  const [page, setPage] = useState({ pageIndex: 1, pageSize: 20 });
  const flows = useFlowOptions();
  const depts = useDepts();
  const q = useQuery({
    queryKey: ['workflow', 'list', props.scope, filters, page],
    queryFn: () => wfApi.list({ scope: props.scope, ...filters, ...page }),
    placeholderData: keepPreviousData,
  });
  const apply = (v: Filters) => {
    setFilters({
      title: v.title?.trim() || undefined,
      flowNo: v.flowNo,
      starter: v.starter?.trim() || undefined,
      deptId: v.deptId,
      state: v.state,
      from: v.period?.[0]?.format('YYYY-MM-DD'),
      to: v.period?.[1]?.format('YYYY-MM-DD'),
    });
    setPage((p) => ({ ...p, pageIndex: 1 }));
  };
  const todo = props.scope === 'todo';
  const columns: TableColumnsType<InstanceRow> = [
    { title: '流程号', dataIndex: 'WorkID', width: 80 },
    {
      title: '标题',
      dataIndex: 'Title',
      ellipsis: { showTitle: false },
      // The title ellipsizes itself (a cut flex row shows no "…"), keeps the 催办 tag whole, and is a focusable
      // button, so closing the drawer with Esc returns the focus to it rather than outlining the whole tab pane.
      render: (t: string, r) => (
        <span className="cell-line wf-title-cell">
          <Typography.Link
            ellipsis
            title={t}
            role="button"
            tabIndex={0}
            onClick={() => props.onOpen(r)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' || e.key === ' ') {
                e.preventDefault();
                props.onOpen(r);
              }
            }}
          >
            {t}
          </Typography.Link>
          {r.Pressed ? <Tag color="red">催办</Tag> : null}
        </span>
      ),
    },
    { title: '流程', dataIndex: 'FlowName', width: 110 },
    { title: '当前节点', dataIndex: 'NodeName', width: 130 },
    ...(todo ? [] : [{ title: '当前处理人', dataIndex: 'Handlers', width: 130, ellipsis: true }]),
    { title: '发起人', dataIndex: 'StarterName', width: 90 },
    { title: '部门', dataIndex: 'DeptName', width: 110, ellipsis: true },
    { title: '状态', dataIndex: 'State', width: 90, render: (s: number) => <StateTag state={s} /> },
    { title: todo ? '到达时间' : '更新时间', key: 'time', width: 140, render: (_: unknown, r) => formatTime(todo ? r.ArrivedAt : r.UpdatedAt) },
    ...(props.extraColumns ?? []),
  ];
  return (
    <div data-testid={props.testId}>
      <Form form={form} name={`wf-list-${props.scope}`} layout="inline" onFinish={apply} className="wf-filters">
        <Form.Item name="title">
          <Input placeholder="标题" allowClear style={{ width: 160 }} />
        </Form.Item>
        <Form.Item name="flowNo">
          <Select placeholder="流程" allowClear style={{ width: 140 }} options={(flows.data?.flows ?? []).map((f) => ({ value: f.flowNo, label: f.name }))} />
        </Form.Item>
        {props.full ? (
          <>
            <Form.Item name="starter">
              <Input placeholder="发起人" allowClear style={{ width: 110 }} />
            </Form.Item>
            <Form.Item name="deptId">
              <Select placeholder="部门" allowClear showSearch={{ optionFilterProp: 'label' }} style={{ width: 150 }} options={(depts.data ?? []).map((d) => ({ value: d.id, label: d.name }))} />
            </Form.Item>
            <Form.Item name="state">
              <Select placeholder="状态" allowClear style={{ width: 110 }} options={FlowState.options.filter((o) => o.value !== FlowState.draft).map((o) => ({ value: o.value, label: o.label }))} />
            </Form.Item>
          </>
        ) : null}
        <Form.Item name="period">
          <DatePicker.RangePicker placeholder={['发起开始', '发起结束']} style={{ width: 240 }} />
        </Form.Item>
        <Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
              查询
            </Button>
            <Button
              icon={<ReloadOutlined />}
              onClick={() => {
                form.resetFields();
                apply({});
              }}
            >
              重置
            </Button>
            {props.toolbar}
          </Space>
        </Form.Item>
      </Form>
      <Table
        rowKey="WorkID"
        size="small"
        loading={q.isFetching}
        columns={columns}
        dataSource={q.data?.items ?? []}
        scroll={{ x: 1000 }}
        locale={{ emptyText: q.isError ? <Empty description="加载失败，请稍后重试" /> : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无数据" /> }}
        pagination={{ ...tablePagination(page, q.data?.total ?? 0), onChange: (pageIndex, pageSize) => setPage({ pageIndex, pageSize }) }}
      />
    </div>
  );
}
