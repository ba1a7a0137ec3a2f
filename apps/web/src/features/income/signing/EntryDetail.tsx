/**
 * 进项发票详情 (/invoice-entry/detail/:id): the face (with 签收状态 and 所属部门), lines and files (the
 * pool detail's sections), then the signings (state, document, archive number, failure reason, who and
 * when), the revocations, the project allocations and their changes, the uses and the history. A
 * malformed or unknown id: RecordNotFound, as 票池发票详情.
 */
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Empty, Skeleton, Space, Table, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { formatFen, type EntryDetail as Detail, type IncomeAllocationChangeRow, type IncomeAllocationRow, type RevokeRow, type SigningRow } from '@zhyy/shared';
import { incomeEntryApi } from '../../../api/incomeEntry';
import { formatTime } from '../../../components/download';
import { tableScrollX } from '../../../components/tableWidth';
import { RecordNotFound, isRecordId } from '../../../components/RecordNotFound';
import { useView } from '../../../router/view';
import { Money } from '../../common/Money';
import { PoolFace, PoolFiles, PoolHistory, PoolLines, PoolUses } from '../pool/PoolDetailSections';
import { SignTag } from '../pool/widgets';
import { docTypeLabel, signingColumns } from './SigningList';
import { ENTRY_KEY, ENTRY_LIST, entryDetailPath, entryEditPath } from './request';
import '../../common/ledger.css';

const SIGNING_COLUMNS = signingColumns(false);
const empty = (text: string) => ({ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={text} /> });
const paged = (n: number) => (n > 10 ? { pageSize: 10 } : false);
const CHANGE_ACTIONS: Record<string, string> = { set: '分摊', move: '变更' };
const split = (items: IncomeAllocationChangeRow['before']) => (items.length ? items.map((i) => `${i.name} ${formatFen(i.amountIncl)}元`).join('；') : '—');

export default function EntryDetail() {
  const { params } = useView();
  const id = params.id ?? '';
  const navigate = useNavigate();
  const valid = isRecordId(id);
  // A malformed id is not sent; the record loads silently (the page says what went wrong) and once.
  const q = useQuery({ queryKey: [...ENTRY_KEY, 'detail', id], queryFn: () => incomeEntryApi.detail(id), enabled: valid });
  if (q.isLoading) return <Card><Skeleton active /></Card>;
  const d: Detail | undefined = q.data;
  if (!d) return <RecordNotFound what="发票" error={q.error} back={ENTRY_LIST} backLabel="返回进项发票登记" />;
  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }} data-testid="entry-detail">
      <PoolFace
        d={d}
        linkPath={entryDetailPath}
        extra={<Space><Button onClick={() => navigate(entryEditPath(d.id))} data-testid="entry-add-files">补充文件</Button><Button onClick={() => navigate(ENTRY_LIST)}>返回列表</Button></Space>}
        more={[
          { key: 'sign', label: '签收状态', children: <SignTag state={d.signState} /> },
          { key: 'dept', label: '所属部门', children: <span data-testid="entry-dept-name">{d.deptName || '未登记'}</span> },
        ]}
      />
      <PoolLines d={d} />
      <PoolFiles d={d} />
      <Card size="small" title="签收记录" className="ledger-section" data-testid="entry-signings-of">
        <Table<SigningRow> size="small" rowKey="id" pagination={paged(d.signings.length)} dataSource={d.signings} columns={SIGNING_COLUMNS} scroll={{ x: tableScrollX(SIGNING_COLUMNS, 1000) }} locale={empty('尚未签收')} />
      </Card>
      <Card size="small" title="签收撤销" className="ledger-section" data-testid="entry-revokes">
        <Table<RevokeRow>
          size="small" rowKey="id" pagination={paged(d.revokes.length)} dataSource={d.revokes} locale={empty('没有撤销记录')} scroll={{ x: 900 }}
          columns={[
            { title: '撤销时间', key: 'at', width: 170, render: (_, r) => formatTime(r.createdAt) },
            { title: '档案号（已作废）', dataIndex: 'archiveNo', width: 160 },
            { title: '原签收单据', key: 'doc', width: 220, render: (_, r) => `${docTypeLabel(r.docType)} ${r.docNo}` },
            { title: '撤销原因', dataIndex: 'reason', ellipsis: true },
            { title: '撤销人', dataIndex: 'userName', width: 100 },
          ]}
        />
      </Card>
      <Card size="small" title="项目分摊" className="ledger-section" data-testid="entry-allocations">
        <Table<IncomeAllocationRow>
          size="small" rowKey="id" pagination={paged(d.allocations.length)} dataSource={d.allocations} locale={empty('尚未分摊到项目')} scroll={{ x: 900 }}
          columns={[
            { title: '项目', dataIndex: 'projectName', ellipsis: true },
            { title: '金额', key: 'ex', width: 140, align: 'right', render: (_, r) => <Money fen={r.amountExcl} /> },
            { title: '税额', key: 'tax', width: 130, align: 'right', render: (_, r) => <Money fen={r.tax} /> },
            { title: '价税合计', key: 'in', width: 150, align: 'right', render: (_, r) => <Money fen={r.amountIncl} strong /> },
            { title: '分摊人', dataIndex: 'createdByName', width: 100 },
            { title: '更新时间', key: 'at', width: 170, render: (_, r) => formatTime(r.updatedAt) },
          ]}
        />
      </Card>
      <Card size="small" title="分摊与变更记录" className="ledger-section" data-testid="entry-changes">
        <Table<IncomeAllocationChangeRow>
          size="small" rowKey="id" pagination={paged(d.changes.length)} dataSource={d.changes} locale={empty('没有分摊或变更记录')} scroll={{ x: 1200 }}
          columns={[
            { title: '时间', key: 'at', width: 170, render: (_, r) => formatTime(r.createdAt) },
            { title: '操作', key: 'action', width: 70, render: (_, r) => CHANGE_ACTIONS[r.action] ?? r.action },
            { title: '变更前', key: 'before', width: 240, render: (_, r) => <Typography.Text type="secondary">{split(r.before)}</Typography.Text> },
            { title: '变更后', key: 'after', width: 240, render: (_, r) => split(r.after) },
            { title: '原因', dataIndex: 'reason', ellipsis: true },
            { title: '操作人', dataIndex: 'userName', width: 100 },
          ]}
        />
      </Card>
      <PoolUses d={d} />
      <PoolHistory d={d} />
    </Space>
  );
}
