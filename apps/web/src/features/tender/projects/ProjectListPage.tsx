/**
 * 项目管理 (/tender/project, roles 1 and 4): projects with code, name, customer, location, dates, state and
 * manager (注册建造师 marked); filters by keyword, customer, state, manager and start date; Excel export.
 */
import { Button, DatePicker, Form, Input, Select, Space, Tag } from 'antd';
import type { TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { Link, useNavigate } from 'react-router';
import { ProjectState, type TenderProjectRow } from '@zhyy/shared';
import { tenderProjectApi } from '../../../api/tender-contracts';
import { ListPage } from '../../../components/ListPage';
import { Money, TENDER_PROJECT_KEY, UserSelect, dayOf, projectDetailPath, projectModifyPath } from '../contracts/common';

export const PROJECT_STATE_OPTIONS = ProjectState.options.map((o) => ({ value: o.value, label: o.label }));
const STATE_COLOUR: Record<number, string> = { [ProjectState.building]: 'blue', [ProjectState.suspended]: 'orange', [ProjectState.finished]: 'green' };
export const ProjectStateTag = ({ state }: { state: number }) => <Tag color={STATE_COLOUR[state]}>{ProjectState.label(state)}</Tag>;

export function projectRequest(v: Record<string, unknown>): Record<string, unknown> {
  const start = v.start as [Dayjs | null, Dayjs | null] | null | undefined;
  return { keyword: v.keyword, customer: v.customer, state: v.state, managerId: v.managerId, startFrom: dayOf(start?.[0]), startTo: dayOf(start?.[1]) };
}

export default function ProjectListPage() {
  const navigate = useNavigate();
  const columns: TableColumnsType<TenderProjectRow> = [
    { title: '项目编号', dataIndex: 'code', key: 'code', width: 150, fixed: 'left', sorter: true, render: (v: string, r) => <Link to={projectDetailPath(r.id)}>{v}</Link> },
    { title: '项目名称', dataIndex: 'name', key: 'name', width: 240, ellipsis: true, sorter: true },
    { title: '项目金额（元）', key: 'amount', width: 150, align: 'right', sorter: true, render: (_, r) => <Money fen={r.amount} /> },
    { title: '状态', key: 'state', width: 80, render: (_, r) => <ProjectStateTag state={r.state} /> },
    { title: '项目经理', key: 'manager', width: 150, render: (_, r) => (r.managerName ? <span>{r.managerName}{r.managerRegistered ? <Tag color="purple" style={{ marginLeft: 4 }}>注册建造师</Tag> : null}</span> : '—') },
    { title: '客户', dataIndex: 'customer', key: 'customer', width: 200, ellipsis: true },
    { title: '项目地点', dataIndex: 'location', key: 'location', width: 130, ellipsis: true },
    { title: '开工日期', dataIndex: 'startDate', key: 'startDate', width: 110, sorter: true, render: (v: string | null) => v ?? '—' },
    { title: '完工日期', dataIndex: 'endDate', key: 'endDate', width: 110, render: (v: string | null) => v ?? '—' },
    { title: '合同数', dataIndex: 'contractCount', key: 'contractCount', width: 70, align: 'right' },
    {
      title: '操作', key: 'actions', width: 100, fixed: 'right',
      render: (_, r) => (
        <Space size={4}>
          <Link to={projectDetailPath(r.id)}>详情</Link>
          <Link to={projectModifyPath(r.id)}>修改</Link>
        </Space>
      ),
    },
  ];
  return (
    <ListPage<TenderProjectRow>
      testId="tender-project-list"
      queryKey={[...TENDER_PROJECT_KEY, 'list']}
      fetch={(p) => tenderProjectApi.list(p)}
      columns={columns}
      rowKey="id"
      toRequest={projectRequest}
      emptyText="没有符合条件的项目"
      filters={
        <>
          <Form.Item name="keyword" label="关键字">
            <Input placeholder="项目编号、名称、地点" allowClear style={{ width: 170 }} />
          </Form.Item>
          <Form.Item name="customer" label="客户">
            <Input allowClear style={{ width: 150 }} />
          </Form.Item>
          <Form.Item name="state" label="状态">
            <Select options={PROJECT_STATE_OPTIONS} allowClear placeholder="全部" style={{ width: 100 }} />
          </Form.Item>
          <Form.Item name="managerId" label="项目经理">
            <UserSelect width={180} placeholder="全部" />
          </Form.Item>
          <Form.Item name="start" label="开工日期">
            <DatePicker.RangePicker style={{ width: 230 }} />
          </Form.Item>
        </>
      }
      actions={<Button type="primary" onClick={() => navigate('/tender/project/add')}>新增项目</Button>}
      export={{ fileName: '项目列表', run: (f) => tenderProjectApi.export(f) }}
    />
  );
}
