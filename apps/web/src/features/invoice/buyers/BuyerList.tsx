/** 购方管理: buyers with tax number, bank and delivery details; add, edit, delete. */
import { PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Popconfirm, Select, Space, Tag, type TableColumnsType } from 'antd';
import { useNavigate } from 'react-router';
import { InvoiceKind, type BuyerRow } from '@zhyy/shared';
import { invoiceApi } from '../../../api/invoice';
import { formatTime } from '../../../components/download';
import { ListPage } from '../../../components/ListPage';
import { feedback } from '../../../ui/feedback';
import { INVOICE_KEY } from '../widgets';

export default function BuyerList() {
  const navigate = useNavigate();
  const qc = useQueryClient();
  const columns: TableColumnsType<BuyerRow> = [
    { title: '购方名称', dataIndex: 'name', key: 'name', sorter: true, render: (v: string, r) => <a onClick={() => navigate(`/invoice/invoicesetting/buyerdetail/${r.id}`)}>{v}</a> },
    { title: '税号', dataIndex: 'taxNo', key: 'taxNo', sorter: true, width: 200, render: (v: string) => v || '—' },
    { title: '默认发票种类', dataIndex: 'defaultKind', width: 180, render: (k: number) => <Tag>{InvoiceKind.label(k)}</Tag> },
    { title: '开户行', dataIndex: 'bank', ellipsis: true },
    { title: '开票次数', dataIndex: 'invoiceCount', width: 90, align: 'right' },
    { title: '更新时间', dataIndex: 'updatedAt', key: 'updatedAt', sorter: true, width: 160, render: formatTime },
    {
      title: '操作', key: 'op', width: 120, render: (_: unknown, r) => (
        <Space size={4}>
          <a onClick={() => navigate(`/invoice/invoicesetting/buyeredit/${r.id}`)}>编辑</a>
          <Popconfirm title={`删除购方「${r.name}」？`} okText="删除" cancelText="取消" onConfirm={async () => {
            try {
              await invoiceApi.deleteBuyer(r.id);
              void feedback().message.success('已删除');
              void qc.invalidateQueries({ queryKey: INVOICE_KEY });
            } catch { /* shown by the request layer */ }
          }}><a>删除</a></Popconfirm>
        </Space>
      ),
    },
  ];
  return (
    <ListPage<BuyerRow>
      testId="buyer-list"
      queryKey={[...INVOICE_KEY, 'buyer-list']}
      fetch={invoiceApi.buyers}
      columns={columns}
      rowKey="id"
      emptyText="还没有购方，请新增"
      actions={<Button type="primary" icon={<PlusOutlined />} onClick={() => navigate('/invoice/invoicesetting/buyeradd')}>新增购方</Button>}
      filters={
        <>
          <Form.Item name="keyword" label="关键字"><Input allowClear placeholder="名称或税号" style={{ width: 220 }} maxLength={100} /></Form.Item>
          <Form.Item name="kind" label="默认发票种类"><Select allowClear placeholder="全部" style={{ width: 190 }} options={InvoiceKind.options.map((o) => ({ value: o.value, label: o.label }))} /></Form.Item>
        </>
      }
    />
  );
}
