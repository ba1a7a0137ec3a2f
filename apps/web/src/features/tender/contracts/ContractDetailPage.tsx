/**
 * 合同详情 (/tender/contract/detail/:contractType/:id, the /tender group): the contract's fields, its pages
 * with a completeness mark per required page, for a frame contract its orders, what was invoiced on it
 * (invoices in force), and its history (who changed what and when, from the operation log).
 */
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Descriptions, Space, Spin, Table, Timeline } from 'antd';
import { Link, useNavigate, useParams } from 'react-router';
import { ContractType, type TenderContractRow } from '@zhyy/shared';
import { tenderContractApi } from '../../../api/tender-contracts';
import { formatDateTime } from '../../../components/format';
import { RecordNotFound } from '../../../components/RecordNotFound';
import { CONTRACT_LIST, Money, PagesTag, TENDER_CONTRACT_KEY, contractDetailPath, contractEditPath, useCanEditContract } from './common';
import { ContractPages } from './ContractPages';

export default function ContractDetailPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const canEdit = useCanEditContract();
  const q = useQuery({ queryKey: [...TENDER_CONTRACT_KEY, 'detail', id], queryFn: () => tenderContractApi.detail(id) });
  if (q.isLoading) return <Spin tip="加载中…" />;
  if (q.isError || !q.data) return <RecordNotFound what="合同" error={q.error} back={CONTRACT_LIST} backLabel="返回合同台账" />;
  const d = q.data;
  const orderAmount = d.orders.reduce((s, o) => s + o.amount, 0);
  return (
    <Space orientation="vertical" style={{ width: '100%' }} size={12} data-testid="tender-contract-detail">
      <Card
        size="small"
        title={`${ContractType.label(d.contractType)} ${d.code}`}
        extra={
          <Space>
            {canEdit ? (
              <Button type="primary" onClick={() => navigate(contractEditPath(d.contractType, d.id))}>
                编辑
              </Button>
            ) : null}
            <Button onClick={() => navigate(CONTRACT_LIST)}>返回合同台账</Button>
          </Space>
        }
      >
        <Descriptions size="small" column={3} bordered>
          <Descriptions.Item label="合同名称" span={2}>{d.name}</Descriptions.Item>
          <Descriptions.Item label="附件完整性"><PagesTag missing={d.missingPages} /></Descriptions.Item>
          <Descriptions.Item label="客户" span={2}>{d.customer}</Descriptions.Item>
          <Descriptions.Item label="合同金额（元）"><Money fen={d.amount} /></Descriptions.Item>
          <Descriptions.Item label="项目" span={2}>{d.projectCode ? `${d.projectCode} ${d.projectName}` : '—'}</Descriptions.Item>
          <Descriptions.Item label="已开票（元）"><Money fen={d.invoiced} /></Descriptions.Item>
          <Descriptions.Item label="框架合同" span={2}>{d.frameId ? <Link to={contractDetailPath(ContractType.frame, d.frameId)}>{`${d.frameCode} ${d.frameName}`}</Link> : '—'}</Descriptions.Item>
          <Descriptions.Item label="合同负责人">{d.managerName || '—'}</Descriptions.Item>
          <Descriptions.Item label="签订日期">{d.signedOn ?? '—'}</Descriptions.Item>
          <Descriptions.Item label="工期">{d.workFrom || d.workTo ? `${d.workFrom ?? '—'} 至 ${d.workTo ?? '—'}` : '—'}</Descriptions.Item>
          <Descriptions.Item label="竣工验收日期">{d.acceptedOn ?? '—'}</Descriptions.Item>
          <Descriptions.Item label="备注" span={3}>{d.remark || '—'}</Descriptions.Item>
        </Descriptions>
      </Card>
      <ContractPages contract={d} editable={false} />
      {d.contractType === ContractType.frame ? (
        <Card size="small" title={`订单合同（${d.orders.length} 个，合计 ${(orderAmount / 100).toLocaleString('zh-CN', { minimumFractionDigits: 2 })} 元）`}>
          <Table<TenderContractRow>
            size="small"
            rowKey="id"
            dataSource={d.orders}
            pagination={d.orders.length > 10 ? { pageSize: 10 } : false}
            locale={{ emptyText: '该框架合同下还没有订单合同' }}
            scroll={{ x: 760 }}
            columns={[
              { title: '订单编号', key: 'code', width: 170, render: (_, r) => <Link to={contractDetailPath(r.contractType, r.id)}>{r.code}</Link> },
              { title: '名称', dataIndex: 'name', key: 'name', ellipsis: true },
              { title: '金额（元）', key: 'amount', width: 150, align: 'right', render: (_, r) => <Money fen={r.amount} /> },
              { title: '签订日期', dataIndex: 'signedOn', key: 'signedOn', width: 110, render: (v: string | null) => v ?? '—' },
              { title: '附件', key: 'pages', width: 90, render: (_, r) => <PagesTag missing={r.missingPages} /> },
            ]}
          />
        </Card>
      ) : null}
      <Card size="small" title="修改记录">
        {d.history.length ? (
          <Timeline
            data-testid="contract-history"
            items={d.history.map((h) => ({ key: h.id, children: `${formatDateTime(h.createdAt)} ${h.userName || h.loginName}：${h.description}` }))}
          />
        ) : (
          <span>暂无记录</span>
        )}
      </Card>
    </Space>
  );
}
