/**
 * 项目详情 (/tender/project/detail/:id, roles 1 and 4): the project, its contracts, its outgoing invoices
 * (issued on it or on its contracts; 已开票 counts those in force), the certificates in use (its manager's:
 * no link of people to projects exists yet; expired in red, within 90 days in orange), its manager exceptions
 * (注册建造师执业管理办法（试行）第九条, ManagerExceptions.tsx) and its history.
 */
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Descriptions, Space, Spin, Table, Tag, Timeline } from 'antd';
import { Link, useNavigate, useParams } from 'react-router';
import { ContractType, InvoiceStatus, type CertificateRow, type TenderContractRow, type TenderProjectInvoiceRow } from '@zhyy/shared';
import { tenderProjectApi } from '../../../api/tender-contracts';
import { formatDateTime } from '../../../components/format';
import { RecordNotFound } from '../../../components/RecordNotFound';
import { Money, PROJECT_LIST, PagesTag, TENDER_PROJECT_KEY, contractDetailPath, projectModifyPath, useCanSeeProjects } from '../contracts/common';
import { ManagerExceptions } from './ManagerExceptions';
import { ProjectStateTag } from './ProjectListPage';
import { CertStateTag, DaysLeft } from '../people/common';

export default function ProjectDetailPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  // Exceptions are recorded by whoever edits projects (项目管理, roles 1 and 4).
  const canEdit = useCanSeeProjects();
  const q = useQuery({ queryKey: [...TENDER_PROJECT_KEY, 'detail', id], queryFn: () => tenderProjectApi.detail(id) });
  if (q.isLoading) return <Spin tip="加载中…" />;
  if (q.isError || !q.data) return <RecordNotFound what="项目" error={q.error} back={PROJECT_LIST} backLabel="返回项目列表" />;
  const d = q.data;
  return (
    <Space orientation="vertical" style={{ width: '100%' }} size={12} data-testid="tender-project-detail">
      <Card
        size="small"
        title={`项目 ${d.code}`}
        extra={
          <Space>
            <Button type="primary" onClick={() => navigate(projectModifyPath(d.id))}>修改</Button>
            <Button onClick={() => navigate(PROJECT_LIST)}>返回项目列表</Button>
          </Space>
        }
      >
        <Descriptions size="small" column={3} bordered>
          <Descriptions.Item label="项目名称" span={2}>{d.name}</Descriptions.Item>
          <Descriptions.Item label="状态"><ProjectStateTag state={d.state} /></Descriptions.Item>
          <Descriptions.Item label="客户" span={2}>{d.customer || '—'}</Descriptions.Item>
          <Descriptions.Item label="项目金额（元）"><Money fen={d.amount} /></Descriptions.Item>
          <Descriptions.Item label="项目地点">{d.location || '—'}</Descriptions.Item>
          <Descriptions.Item label="工期">{d.startDate || d.endDate ? `${d.startDate ?? '—'} 至 ${d.endDate ?? '—'}` : '—'}</Descriptions.Item>
          <Descriptions.Item label="已开票（元）"><Money fen={d.invoiced} /></Descriptions.Item>
          <Descriptions.Item label="项目经理" span={3}>{d.managerName ? `${d.managerName}${d.managerRegistered ? '（注册建造师）' : ''}` : '—'}</Descriptions.Item>
        </Descriptions>
      </Card>
      <ManagerExceptions project={d} editable={canEdit} />
      <Card size="small" title={`合同（${d.contracts.length}）`}>
        <Table<TenderContractRow>
          size="small" rowKey="id" dataSource={d.contracts} pagination={d.contracts.length > 10 ? { pageSize: 10 } : false} locale={{ emptyText: '该项目还没有合同' }} scroll={{ x: 800 }}
          columns={[
            { title: '合同编号', key: 'code', width: 170, render: (_, r) => <Link to={contractDetailPath(r.contractType, r.id)}>{r.code}</Link> },
            { title: '名称', dataIndex: 'name', key: 'name', ellipsis: true },
            { title: '类型', key: 'type', width: 90, render: (_, r) => ContractType.label(r.contractType) },
            { title: '金额（元）', key: 'amount', width: 150, align: 'right', render: (_, r) => <Money fen={r.amount} /> },
            { title: '附件', key: 'pages', width: 90, render: (_, r) => <PagesTag missing={r.missingPages} /> },
          ]}
        />
      </Card>
      <Card size="small" title={`销项发票（${d.invoices.length}）`}>
        <Table<TenderProjectInvoiceRow>
          size="small" rowKey="id" dataSource={d.invoices} pagination={d.invoices.length > 10 ? { pageSize: 10 } : false} locale={{ emptyText: '该项目还没有销项发票' }} scroll={{ x: 700 }}
          columns={[
            { title: '发票号码', dataIndex: 'invoiceNo', key: 'invoiceNo', width: 200 },
            { title: '购买方', dataIndex: 'buyerName', key: 'buyerName', ellipsis: true },
            { title: '开票日期', dataIndex: 'issueDate', key: 'issueDate', width: 110, render: (v: string | null) => v ?? '—' },
            { title: '价税合计（元）', key: 'amountIncl', width: 150, align: 'right', render: (_, r) => <Money fen={r.amountIncl} /> },
            { title: '状态', key: 'status', width: 100, render: (_, r) => <Tag color={r.status === InvoiceStatus.created ? 'green' : undefined}>{InvoiceStatus.label(r.status)}</Tag> },
          ]}
        />
      </Card>
      <Card size="small" title={`在用证书（项目经理${d.managerName ? ` ${d.managerName}` : ''}，${d.certificates.length}）`} data-testid="project-certificates">
        <Table<CertificateRow>
          size="small" rowKey="id" dataSource={d.certificates} pagination={false} locale={{ emptyText: d.managerId ? '项目经理没有资格证书' : '未指定项目经理' }} scroll={{ x: 760 }}
          columns={[
            { title: '证书种类', dataIndex: 'kindName', key: 'kindName', width: 170, ellipsis: true },
            { title: '级别', key: 'level', width: 70, render: (_, r) => r.level || '—' },
            { title: '专业', key: 'speciality', width: 130, ellipsis: true, render: (_, r) => r.speciality || '—' },
            { title: '证书编号', dataIndex: 'certNo', key: 'certNo', width: 170, ellipsis: true },
            { title: '有效期至', key: 'validTo', width: 110, render: (_, r) => r.validTo ?? '长期' },
            { title: '状态', key: 'state', width: 90, render: (_, r) => <CertStateTag state={r.state} daysLeft={r.daysLeft} /> },
            { title: '剩余天数', key: 'daysLeft', width: 120, render: (_, r) => <DaysLeft cert={r} /> },
          ]}
        />
      </Card>
      <Card size="small" title="修改记录">
        {d.history.length ? <Timeline items={d.history.map((h) => ({ key: h.id, children: `${formatDateTime(h.createdAt)} ${h.userName || h.loginName}：${h.description}` }))} /> : <span>暂无记录</span>}
      </Card>
    </Space>
  );
}
