/** One invoice: header, buyer and seller, lines, files (opened in the file viewer), red invoices and cancellations. */
import { FilePdfOutlined, FileTextOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Drawer, Empty, List, Skeleton, Space, Table, Typography } from 'antd';
import { CancellationState, InvoiceStatus, LineProperty, RedReason, SourceKind, SpecialFactor, TaxPolicy, rateLabel, unitPriceText, type InvoiceLineRow } from '@zhyy/shared';
import { invoiceApi } from '../../api/invoice';
import { formatTime } from '../../components/download';
import { INVOICE_KEY, KindTag, Money, StatusTag, openFile } from './widgets';

const lineColumns = [
  { title: '序号', dataIndex: 'lineNo', width: 50 },
  { title: '货物或应税劳务名称', dataIndex: 'goodsName', ellipsis: true },
  { title: '税收分类编码', dataIndex: 'taxCode', width: 170 },
  { title: '数量', dataIndex: 'quantity', width: 80, align: 'right' as const },
  { title: '单价', key: 'unitPrice', width: 130, align: 'right' as const, render: (_: unknown, l: InvoiceLineRow) => unitPriceText(l) },
  { title: '税率', dataIndex: 'taxRate', width: 110, render: (v: string, l: InvoiceLineRow) => `${rateLabel(v)}${l.policy ? `（${TaxPolicy.label(l.policy)}）` : ''}` },
  { title: '金额', dataIndex: 'amountExcl', width: 110, align: 'right' as const, render: (v: number) => <Money fen={v} /> },
  { title: '税额', dataIndex: 'tax', width: 100, align: 'right' as const, render: (v: number) => <Money fen={v} /> },
  { title: '行性质', dataIndex: 'lineProperty', width: 80, render: (v: number) => LineProperty.label(v) },
];

export function InvoiceDrawer({ id, onClose }: { id: string | null; onClose: () => void }) {
  const q = useQuery({ queryKey: [...INVOICE_KEY, 'detail', id], queryFn: () => invoiceApi.detail(id!), enabled: !!id });
  const d = q.data;
  return (
    <Drawer open={!!id} onClose={onClose} size={960} title={d ? `发票详情：${d.orderNo}` : '发票详情'} destroyOnHidden>
      {!d ? <Skeleton active /> : (
        <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="invoice-drawer">
          {d.failureCause ? <Alert type="error" showIcon title={`${InvoiceStatus.label(d.status)}：${d.failureCause}`} /> : null}
          {d.invalid ? <Alert type="warning" showIcon title={`已置为无效：${d.invalidReason}`} /> : null}
          <Descriptions size="small" bordered column={3} items={[
            { key: 's', label: '状态', children: <StatusTag status={d.status} invalid={d.invalid} /> },
            { key: 'k', label: '发票种类', children: <KindTag kind={d.kind} colour={d.colour} /> },
            { key: 'src', label: '来源', children: `${SourceKind.label(d.source)}${d.requestWorkId ? `（开票申请 ${d.requestWorkId}）` : ''}` },
            { key: 'no', label: '发票号码', children: d.digitalNo || d.invoiceNo || '—' },
            { key: 'serial', label: '流水号', children: d.serialNo || '—' },
            { key: 'at', label: '开票时间', children: formatTime(d.issuedAt) || '—' },
            { key: 'b', label: '购买方', span: 2, children: `${d.buyerName}　${d.buyerTaxNo}` },
            { key: 'ba', label: '购方地址电话', children: `${d.buyerAddress} ${d.buyerPhone}`.trim() || '—' },
            { key: 'sl', label: '销售方', span: 2, children: `${d.sellerName}　${d.sellerTaxNo}` },
            { key: 'bk', label: '购方开户行账号', children: `${d.buyerBank} ${d.buyerAccount}`.trim() || '—' },
            { key: 'p', label: '项目', children: d.projectName || '—' },
            { key: 'c', label: '合同', children: d.contractName || '—' },
            { key: 'sf', label: '特定业务', children: d.specialFactor ? `${SpecialFactor.label(d.specialFactor)} ${d.constructionProject} ${d.constructionSite}` : '无' },
            { key: 'cl', label: '开票人 / 收款人 / 复核人', children: [d.clerk, d.payee, d.checker].map((x) => x || '—').join(' / ') },
            { key: 'rr', label: '红冲', children: d.redReason ? `${RedReason.label(d.redReason)}，蓝字发票 ${d.blueInvoiceNo}` : '—' },
            { key: 'rm', label: '备注', children: d.remark || '—' },
            { key: 't', label: '价税合计', span: 3, children: <Space><Money fen={d.amountIncl} strong /><Typography.Text type="secondary">（{d.capital}）　金额 <Money fen={d.amountExcl} />　税额 <Money fen={d.tax} /></Typography.Text></Space> },
          ]} />
          <Table<InvoiceLineRow> rowKey="lineNo" size="small" columns={lineColumns} dataSource={d.lines} pagination={false} scroll={{ x: 900 }} />
          <Typography.Title level={5} style={{ margin: 0 }}>发票文件</Typography.Title>
          {d.files.length ? (
            <List size="small" bordered dataSource={d.files} renderItem={(f) => (
              <List.Item actions={[<Button key="o" size="small" type="link" onClick={() => void openFile(f)}>查看</Button>]}>
                <Space>{f.format === 'pdf' ? <FilePdfOutlined /> : <FileTextOutlined />}<span data-testid="invoice-file">{f.name}</span><Typography.Text type="secondary">{(f.size / 1024).toFixed(1)} KB</Typography.Text></Space>
              </List.Item>
            )} />
          ) : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="开票成功后税务端返回版式文件" />}
          {d.reds.length ? (
            <>
              <Typography.Title level={5} style={{ margin: 0 }}>红字发票</Typography.Title>
              <List size="small" bordered dataSource={d.reds} renderItem={(r) => <List.Item>{r.digitalNo || r.invoiceNo || '开具中'}　<Money fen={r.amountIncl} />　<StatusTag status={r.status} />　{formatTime(r.issuedAt)}</List.Item>} />
            </>
          ) : null}
          {d.cancellations.length ? (
            <>
              <Typography.Title level={5} style={{ margin: 0 }}>作废记录</Typography.Title>
              <List size="small" bordered dataSource={d.cancellations} renderItem={(c) => <List.Item>{formatTime(c.createdAt)}　{c.userName}　{CancellationState.label(c.state)}　原因：{c.reason}{c.message ? `（${c.message}）` : ''}</List.Item>} />
            </>
          ) : null}
        </Space>
      )}
    </Drawer>
  );
}
