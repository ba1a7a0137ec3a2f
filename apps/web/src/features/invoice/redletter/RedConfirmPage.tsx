/** 数电红字: confirmations we applied for and those buyers entered; new ones against a blue 数电 invoice; refresh from the bureau. */
import { PlusOutlined, SyncOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Modal, Select, Table, Tabs, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { RedConfirmState, RedReason, formatFen, type RedConfirmRow } from '@zhyy/shared';
import { invoiceApi, type BlueCandidate } from '../../../api/invoice';
import { formatTime } from '../../../components/download';
import { ListPage } from '../../../components/ListPage';
import { feedback } from '../../../ui/feedback';
import { INVOICE_KEY, Money, RedStateTag, confirmAction, redSettling } from '../widgets';

function NewDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const navigate = useNavigate();
  const [keyword, setKeyword] = useState('');
  const q = useQuery({ queryKey: [...INVOICE_KEY, 'blue', keyword], queryFn: () => invoiceApi.blueCandidates({ pageIndex: 1, pageSize: 50, keyword: keyword || undefined }), enabled: open });
  const create = async (b: BlueCandidate) => {
    // Nothing is saved before the user agrees: the draft is created only on 确定.
    const go = await confirmAction('申请红冲', `将为蓝字发票 ${b.digitalNo || b.invoiceNo}（${b.buyerName}，价税合计 ${formatFen(b.amountIncl)} 元）新建红字确认单（待提交），确定吗？`);
    if (!go) return;
    try {
      const a = await invoiceApi.redCreate(b.id);
      onClose();
      navigate(`/invoice/nuonuo/red-confirm-apply/edit/${a.r!.id}`);
    } catch { /* shown by the request layer */ }
  };
  return (
    <Modal open={open} onCancel={onClose} footer={null} width={860} title="选择蓝字数电发票" destroyOnHidden>
      <Input.Search placeholder="购买方或发票号码" allowClear onSearch={setKeyword} style={{ marginBottom: 8, width: 300 }} />
      <Table<BlueCandidate> rowKey="id" size="small" loading={q.isFetching} dataSource={q.data?.items ?? []} pagination={false} scroll={{ y: 360 }} columns={[
        { title: '发票号码', dataIndex: 'digitalNo', width: 200 },
        { title: '购买方', dataIndex: 'buyerName', ellipsis: true },
        { title: '价税合计', dataIndex: 'amountIncl', align: 'right', width: 130, render: (v: number) => <Money fen={v} /> },
        { title: '开票时间', dataIndex: 'issuedAt', width: 160, render: formatTime },
        { title: '', key: 'op', width: 90, render: (_: unknown, r) => <a onClick={() => void create(r)}>申请红冲</a> },
      ]} />
    </Modal>
  );
}

export default function RedConfirmPage() {
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [direction, setDirection] = useState<'seller' | 'buyer'>('seller');
  const [creating, setCreating] = useState(false);
  const columns: TableColumnsType<RedConfirmRow> = [
    { title: '编号', dataIndex: 'id', width: 70, render: (id: number) => <a onClick={() => navigate(`/invoice/nuonuo/red-confirm-apply/edit/${id}`)}>{id}</a> },
    { title: '蓝字发票号码', dataIndex: 'blueInvoiceNo', width: 200 },
    { title: '购买方', dataIndex: 'buyerName', ellipsis: true },
    { title: '红冲原因', dataIndex: 'redReason', width: 100, render: (v: number) => RedReason.label(v) },
    { title: '红冲金额', dataIndex: 'amountIncl', key: 'amountIncl', sorter: true, align: 'right', width: 130, render: (v: number) => <Money fen={v} /> },
    { title: '状态', dataIndex: 'state', key: 'state', width: 170, render: (s: string) => <RedStateTag state={s} /> },
    { title: '红字发票', dataIndex: 'redInvoiceNo', width: 200, render: (v: string, r) => v || (r.redInvoiceId ? '开具中' : '—') },
    { title: '更新时间', dataIndex: 'updatedAt', key: 'updatedAt', sorter: true, width: 160, render: formatTime },
    { title: '操作', key: 'op', width: 80, render: (_: unknown, r) => <a onClick={() => navigate(`/invoice/nuonuo/red-confirm-apply/edit/${r.id}`)}>{r.state === '00' || r.state === '16' || r.state === '03' ? '处理' : '查看'}</a> },
  ];
  return (
    <>
      <Tabs activeKey={direction} onChange={(k) => setDirection(k as 'seller')} items={[{ key: 'seller', label: '我方申请' }, { key: 'buyer', label: '购方申请（待我方确认）' }]} />
      <ListPage<RedConfirmRow>
        key={direction}
        testId="red-confirm"
        queryKey={[...INVOICE_KEY, 'red', direction]}
        fetch={(p) => invoiceApi.redList({ ...p, direction })}
        columns={columns}
        rowKey="id"
        emptyText="暂无红字确认单"
        refetchWhile={(page) => page.items.some(redSettling)}
        actions={
          <>
            {direction === 'seller' ? <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>新建红字确认单</Button> : null}
            <Button icon={<SyncOutlined />} onClick={async () => {
              try {
                const a = await invoiceApi.redRefresh();
                void feedback().message.success(a.message ?? '已刷新');
                void qc.invalidateQueries({ queryKey: INVOICE_KEY });
              } catch { /* shown by the request layer */ }
            }}>从税务端刷新</Button>
          </>
        }
        filters={
          <>
            <Form.Item name="keyword" label="关键字"><Input allowClear placeholder="购买方、发票号码" style={{ width: 200 }} maxLength={100} /></Form.Item>
            <Form.Item name="state" label="状态"><Select allowClear placeholder="全部" style={{ width: 200 }} options={RedConfirmState.options.map((o) => ({ value: o.value, label: `${o.value} ${o.label}` }))} /></Form.Item>
          </>
        }
      />
      <NewDialog open={creating} onClose={() => setCreating(false)} />
    </>
  );
}
