/** 操作日志 (role 1): every create, update, delete, import, upload, download, print and export; plus the file export and download record. */
import { Form, Input, Select, Tabs, Tag, type TableColumnsType } from 'antd';
import { OperationLogType, type OperationLogRow } from '@zhyy/shared';
import { systemApi } from '../../api/system';
import { formatTime } from '../../components/download';
import { ListPage } from '../../components/ListPage';
import { FileExportLog } from './FileExportLog';
import { RangeItem, withRange } from '../common/rangeFilters';
import { ClientReportedTag } from '../common/syncStatus';

const TYPE_COLOURS: Record<number, string> = { 1: 'green', 2: 'default', 40: 'blue', 50: 'cyan', 60: 'red', 80: 'purple', 74: 'geekblue', 90: 'orange' };

const columns: TableColumnsType<OperationLogRow> = [
  { title: '时间', dataIndex: 'createdAt', key: 'createdAt', sorter: true, defaultSortOrder: 'descend', width: 160, render: formatTime },
  { title: '用户', dataIndex: 'userName', width: 130, render: (v: string, o) => (o.loginName ? `${v}（${o.loginName}）` : v || '匿名') },
  { title: '类型', dataIndex: 'type', key: 'type', sorter: true, width: 80, render: (t: number) => <Tag color={TYPE_COLOURS[t]}>{OperationLogType.label(t)}</Tag> },
  { title: '内容', dataIndex: 'description', render: (v: string, o) => <>{o.clientReported ? <ClientReportedTag /> : null}{v}</> },
  { title: 'IP', dataIndex: 'ip', width: 130 },
];

function OperationLog() {
  return (
    <ListPage<OperationLogRow>
      testId="operation-log"
      queryKey={['system', 'oplog']}
      fetch={systemApi.operationLogs}
      columns={columns}
      rowKey="id"
      toRequest={withRange}
      emptyText="没有符合条件的日志"
      filters={
        <>
          <Form.Item name="user" label="用户"><Input allowClear placeholder="姓名或登录名" style={{ width: 130 }} maxLength={64} /></Form.Item>
          <Form.Item name="type" label="类型">
            <Select allowClear placeholder="全部" style={{ width: 100 }} options={OperationLogType.options.map((o) => ({ value: o.value, label: o.label }))} />
          </Form.Item>
          <RangeItem />
          <Form.Item name="text" label="内容"><Input allowClear placeholder="内容包含" style={{ width: 160 }} maxLength={100} /></Form.Item>
        </>
      }
      export={{ fileName: '操作日志', run: (f) => systemApi.exportOperationLogs(f) }}
    />
  );
}

export default function OperationLogList() {
  return (
    <Tabs
      items={[
        { key: 'ops', label: '操作日志', children: <OperationLog /> },
        { key: 'files', label: '文件导出与下载', children: <FileExportLog /> },
      ]}
    />
  );
}
