/** The performance check's findings per contract: amount, acceptance day, each required page (green present, red missing), the verdict. */
import { Space, Table, Tag, Typography } from 'antd';
import { AttachmentType, ContractType, requiredPages, type PerformanceCheckRow } from '@zhyy/shared';
import { Money } from '../contracts/common';
import { Verdict } from './pickParts';
import { exceptionSummary } from '../projects/ManagerExceptions';

export function PerformanceResults({ rows, loading }: { rows: PerformanceCheckRow[]; loading?: boolean }) {
  return (
    <Table<PerformanceCheckRow>
      rowKey="id"
      size="small"
      loading={loading}
      pagination={false}
      dataSource={rows}
      scroll={{ x: 1280 }}
      locale={{ emptyText: '请先选择合同并核查' }}
      data-testid="performance-results"
      columns={[
        { title: '合同编号', dataIndex: 'code', width: 170 },
        { title: '合同名称', dataIndex: 'name', ellipsis: true },
        { title: '类型', dataIndex: 'contractType', width: 90, render: (t: number) => ContractType.label(t) },
        { title: '客户', dataIndex: 'customer', width: 140, ellipsis: true },
        { title: '金额（元）', dataIndex: 'amount', width: 130, align: 'right', render: (f: number) => <Money fen={f} /> },
        { title: '竣工验收', dataIndex: 'acceptedOn', width: 110, render: (d: string | null) => d ?? <Typography.Text type="danger">未填写</Typography.Text> },
        {
          title: '必需附件页',
          key: 'pages',
          width: 260,
          render: (_, r) => (
            <Space size={[4, 4]} wrap>
              {requiredPages(r.contractType).map((p) => (
                <Tag key={p} color={r.missingPages.includes(p) ? 'red' : 'green'}>
                  {AttachmentType.label(p)}
                </Tag>
              ))}
            </Space>
          ),
        },
        {
          title: '项目经理例外',
          key: 'exceptions',
          width: 280,
          render: (_, r) =>
            r.managerExceptions.length ? (
              <Space orientation="vertical" size={2} data-testid="performance-exceptions">
                {r.managerExceptions.map((e) => (
                  <span key={e.id}>
                    <Tag color={e.problem ? 'red' : 'green'}>{e.problem ? '不可用' : '可用'}</Tag>
                    {exceptionSummary(e, r.projectCode === e.projectCode ? e.projectId : e.otherProjectId)}
                    {e.problem ? <Typography.Text type="danger">（{e.problem}）</Typography.Text> : null}
                  </span>
                ))}
              </Space>
            ) : (
              <Typography.Text type="secondary">{r.projectCode ? '无' : '未关联项目'}</Typography.Text>
            ),
        },
        {
          title: '核查结果',
          key: 'verdict',
          width: 260,
          render: (_, r) => <Verdict problems={r.problems} passed="通过" />,
        },
      ]}
    />
  );
}
