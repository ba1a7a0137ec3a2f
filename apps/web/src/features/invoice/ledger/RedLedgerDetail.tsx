/** 红字确认单台账详情: the confirmation, the lines it reverses against the blue invoice's lines, and the red invoice. */
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Descriptions, Result, Skeleton, Space, Table } from 'antd';
import { Link, useNavigate } from 'react-router';
import { RedReason, VatUsage, rateLabel, type InvoiceLineRow } from '@zhyy/shared';
import { ledgerApi } from '../../../api/invoiceLedger';
import { formatTime } from '../../../components/download';
import { useView } from '../../../router/view';
import { Money, RedStateTag } from '../widgets';
import { detailPath, LEDGER_KEY } from './request';

type Line = InvoiceLineRow & { blueAmountIncl: number };

export default function RedLedgerDetail() {
  const { params } = useView();
  const id = Number(params.id);
  const navigate = useNavigate();
  const q = useQuery({ queryKey: [...LEDGER_KEY, 'red', 'detail', id], queryFn: () => ledgerApi.redDetail(id), enabled: Number.isInteger(id) && id > 0 });
  if (q.isLoading) return <Card><Skeleton active /></Card>;
  const d = q.data;
  if (!d) return <Card><Result status="warning" title="红字确认单不存在" extra={<Button onClick={() => navigate('/invoice/invoiceaccount/digital-electric-red-ledger')}>返回台账</Button>} /></Card>;
  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }} data-testid="red-ledger-detail">
      <Card title={<Space>红字确认单 {d.billNo || `#${d.id}`}<RedStateTag state={d.state} /></Space>} extra={<Button onClick={() => navigate('/invoice/invoiceaccount/digital-electric-red-ledger')}>返回台账</Button>}>
        <Descriptions
          size="small" column={{ xs: 1, md: 2, xl: 3 }}
          items={[
            { key: 'dir', label: '录入方', children: d.direction === 'seller' ? '销方（我方）' : '购方' },
            { key: 'blue', label: '蓝字发票', children: d.blueInvoiceId ? <Link to={detailPath(d.blueInvoiceId)}>{d.blueInvoiceNo}</Link> : d.blueInvoiceNo },
            { key: 'red', label: '红字发票', children: d.redInvoiceId ? <Link to={detailPath(d.redInvoiceId)}>{d.redInvoiceNo || '开具中'}</Link> : '尚未开具' },
            { key: 'buyer', label: '购方名称', children: d.buyerName },
            { key: 'reason', label: '红冲原因', children: RedReason.label(d.redReason) },
            { key: 'usage', label: '增值税用途', children: VatUsage.label(d.vatUsage) },
            { key: 'ex', label: '金额', children: <Money fen={d.amountExcl} /> },
            { key: 'tax', label: '税额', children: <Money fen={d.tax} /> },
            { key: 'in', label: '价税合计', children: <Money fen={d.amountIncl} strong /> },
            { key: 'by', label: '申请人', children: d.createdByName || '—' },
            { key: 'at', label: '申请时间', children: formatTime(d.createdAt) },
            { key: 'up', label: '更新时间', children: formatTime(d.updatedAt) },
            { key: 'msg', label: '税务端说明', span: 'filled', children: d.message || '—' },
          ]}
        />
      </Card>
      <Card size="small" title="红冲明细">
        <Table<Line>
          size="small" rowKey="lineNo" pagination={false} dataSource={d.lines}
          columns={[
            { title: '序号', dataIndex: 'lineNo', width: 56 },
            { title: '货物或应税劳务名称', dataIndex: 'goodsName', ellipsis: true },
            { title: '税率', key: 'rate', width: 90, render: (_, l) => rateLabel(l.taxRate) },
            { title: '红冲金额', key: 'ex', width: 130, align: 'right', render: (_, l) => <Money fen={l.amountExcl} /> },
            { title: '红冲税额', key: 'tax', width: 120, align: 'right', render: (_, l) => <Money fen={l.tax} /> },
            { title: '红冲价税合计', key: 'in', width: 140, align: 'right', render: (_, l) => <Money fen={l.amountIncl} /> },
            { title: '蓝字价税合计', key: 'blue', width: 140, align: 'right', render: (_, l) => <Money fen={l.blueAmountIncl} /> },
          ]}
        />
      </Card>
    </Space>
  );
}
