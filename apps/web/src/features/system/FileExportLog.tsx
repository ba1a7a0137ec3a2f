/** The file export and download record with its statistic (by category, person or day). */
import { useQuery } from '@tanstack/react-query';
import { Card, Form, Input, Radio, Select, Table, Tag, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { FILE_EXPORT_KIND_LABELS, type FileExportLogRow, type FileExportStatRow } from '@zhyy/shared';
import { systemApi } from '../../api/system';
import { formatTime } from '../../components/download';
import { ListPage } from '../../components/ListPage';
import { RangeItem, withRange } from '../common/rangeFilters';

const columns: TableColumnsType<FileExportLogRow> = [
  { title: '时间', dataIndex: 'createdAt', width: 160, render: formatTime },
  { title: '类型', dataIndex: 'kind', width: 70, render: (k: string) => <Tag color={k === 'export' ? 'purple' : 'geekblue'}>{FILE_EXPORT_KIND_LABELS[k] ?? k}</Tag> },
  { title: '类别', dataIndex: 'category', width: 110 },
  { title: '内容', dataIndex: 'description' },
  { title: '文件', dataIndex: 'fileName', width: 200 },
  { title: '行数', dataIndex: 'rowCount', width: 70, align: 'right' },
  { title: '用户', dataIndex: 'userName', width: 130, render: (v: string, r) => `${v}（${r.loginName}）` },
  { title: '部门', dataIndex: 'deptName', width: 110 },
];

function Statistic() {
  const [groupBy, setGroupBy] = useState<'category' | 'user' | 'day'>('category');
  const q = useQuery({ queryKey: ['system', 'file-export-stat', groupBy], queryFn: () => systemApi.fileExportStatistic({ groupBy }) });
  const head = { category: '类别', user: '用户', day: '日期' }[groupBy];
  return (
    <Card size="small" title="导出与下载统计" extra={<Radio.Group optionType="button" size="small" value={groupBy} onChange={(e) => setGroupBy(e.target.value)} options={[{ value: 'category', label: '按类别' }, { value: 'user', label: '按用户' }, { value: 'day', label: '按日期' }]} />}>
      <Table<FileExportStatRow>
        rowKey="key"
        size="small"
        loading={q.isFetching}
        dataSource={q.data ?? []}
        pagination={{ pageSize: 8, hideOnSinglePage: true }}
        locale={{ emptyText: '还没有导出或下载记录' }}
        columns={[
          { title: head, dataIndex: 'label' },
          { title: '导出', dataIndex: 'exports', width: 80, align: 'right' },
          { title: '下载', dataIndex: 'downloads', width: 80, align: 'right' },
          { title: '合计', dataIndex: 'total', width: 80, align: 'right' },
          { title: '最近一次', dataIndex: 'lastAt', width: 160, render: formatTime },
        ]}
      />
    </Card>
  );
}

export function FileExportLog() {
  return (
    <ListPage<FileExportLogRow>
      testId="file-export-log"
      queryKey={['system', 'file-exports']}
      fetch={systemApi.fileExports}
      columns={columns}
      rowKey="id"
      scrollX={1100}
      toRequest={withRange}
      emptyText="还没有导出或下载记录"
      header={() => <Statistic />}
      filters={
        <>
          <Form.Item name="user" label="用户"><Input allowClear placeholder="姓名或登录名" style={{ width: 130 }} maxLength={64} /></Form.Item>
          <Form.Item name="kind" label="类型"><Select allowClear placeholder="全部" style={{ width: 90 }} options={[{ value: 'export', label: '导出' }, { value: 'download', label: '下载' }]} /></Form.Item>
          <RangeItem />
          <Form.Item name="text" label="内容"><Input allowClear placeholder="内容或文件名" style={{ width: 150 }} maxLength={100} /></Form.Item>
        </>
      }
    />
  );
}
