/** 购方详情 (buyerdetail/:id). */
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Descriptions, Skeleton, Space } from 'antd';
import { useNavigate } from 'react-router';
import { InvoiceKind } from '@zhyy/shared';
import { invoiceApi } from '../../../api/invoice';
import { formatTime } from '../../../components/download';
import { RecordNotFound, isRecordId } from '../../../components/RecordNotFound';
import { useView } from '../../../router/view';
import { INVOICE_KEY } from '../widgets';

export default function BuyerDetail() {
  const { params } = useView();
  const navigate = useNavigate();
  const valid = isRecordId(params.id);
  const q = useQuery({ queryKey: [...INVOICE_KEY, 'buyer', params.id], queryFn: () => invoiceApi.buyer(params.id!, { silent: true }), enabled: valid });
  if (q.isLoading) return <Card><Skeleton active /></Card>;
  const b = q.data;
  if (!b) return <RecordNotFound what="购方" error={q.error} back="/invoice/invoicesetting/buyerlist" backLabel="返回购方列表" />;
  return (
    <Card title={`购方详情：${b.name}`} data-testid="buyer-detail" extra={<Space><Button type="primary" onClick={() => navigate(`/invoice/invoicesetting/buyeredit/${b.id}`)}>编辑</Button><Button onClick={() => navigate('/invoice/invoicesetting/buyerlist')}>返回</Button></Space>}>
      <Descriptions bordered size="small" column={2} items={[
        { key: 'n', label: '购方名称', children: b.name },
        { key: 't', label: '税号', children: b.taxNo || '—' },
        { key: 'k', label: '默认发票种类', children: InvoiceKind.label(b.defaultKind) },
        { key: 'c', label: '开票次数', children: b.invoiceCount },
        { key: 'a', label: '地址', children: b.address || '—' },
        { key: 'p', label: '电话', children: b.phone || '—' },
        { key: 'bk', label: '开户行', children: b.bank || '—' },
        { key: 'ac', label: '账号', children: b.account || '—' },
        { key: 'e', label: '交付邮箱', children: b.email || '—' },
        { key: 'm', label: '交付手机', children: b.mobile || '—' },
        { key: 'r', label: '备注', span: 2, children: b.remark || '—' },
        { key: 'at', label: '创建时间', children: formatTime(b.createdAt) },
        { key: 'up', label: '更新时间', children: formatTime(b.updatedAt) },
      ]} />
    </Card>
  );
}
