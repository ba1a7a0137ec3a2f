/** 发票详情 (ledger): header, buyer and seller, lines, files (opened in /file/view), related invoices and history, re-send. */
import { FilePdfOutlined, PaperClipOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Empty, List, Skeleton, Space, Table, Tag, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { AttachmentType, InvoiceStatus, RedReason, SourceKind, SpecialFactor, TaxPolicy, rateLabel, unitPriceText, type InvoiceLineRow } from '@zhyy/shared';
import { invoiceApi } from '../../../api/invoice';
import { ledgerApi } from '../../../api/invoiceLedger';
import { formatTime } from '../../../components/download';
import { RecordNotFound, isRecordId } from '../../../components/RecordNotFound';
import { useView } from '../../../router/view';
import { KindTag, Money, StatusTag, openFile } from '../widgets';
import { DetailApportionment } from './DetailApportionment';
import { DetailHistory } from './DetailHistory';
import { SendDialog } from './SendDialog';
import { fileTypeLabel, LEDGER_KEY, uploadPath } from './request';
import '../../common/ledger.css';

const lineColumns = [
  { title: '序号', dataIndex: 'lineNo', width: 56 },
  { title: '货物或应税劳务名称', dataIndex: 'goodsName', ellipsis: true },
  { title: '税收分类编码', dataIndex: 'taxCode', width: 170 },
  { title: '单位', dataIndex: 'unit', width: 60 },
  { title: '数量', dataIndex: 'quantity', width: 80, align: 'right' as const },
  { title: '单价', key: 'unitPrice', width: 130, align: 'right' as const, render: (_: unknown, l: InvoiceLineRow) => unitPriceText(l) },
  { title: '税率', key: 'rate', width: 110, render: (_: unknown, l: InvoiceLineRow) => `${rateLabel(l.taxRate)}${l.policy ? `（${TaxPolicy.label(l.policy)}）` : ''}` },
  { title: '金额', key: 'ex', width: 120, align: 'right' as const, render: (_: unknown, l: InvoiceLineRow) => <Money fen={l.amountExcl} /> },
  { title: '税额', key: 'tax', width: 110, align: 'right' as const, render: (_: unknown, l: InvoiceLineRow) => <Money fen={l.tax} /> },
];

export default function LedgerDetail() {
  const { params } = useView();
  const id = params.id ?? '';
  const navigate = useNavigate();
  const valid = isRecordId(id);
  // A malformed id is not sent; the record loads silently (the page says what went wrong) and once.
  const q = useQuery({ queryKey: [...LEDGER_KEY, 'detail', id], queryFn: () => invoiceApi.detail(id, { silent: true }), enabled: valid });
  const h = useQuery({ queryKey: [...LEDGER_KEY, 'history', id], queryFn: () => ledgerApi.history(id), enabled: !!q.data });
  if (q.isLoading) return <Card><Skeleton active /></Card>;
  const d = q.data;
  if (!d) return <RecordNotFound what="发票" error={q.error} back="/invoice/invoiceaccount/invoice-list" backLabel="返回台账" />;
  const canChange = h.data?.canChange ?? false;
  const pdf = d.files.find((f) => f.format === 'pdf');
  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }} data-testid="ledger-detail">
      <Card
        title={<Space>{d.digitalNo || d.invoiceNo || d.orderNo}<KindTag kind={d.kind} colour={d.colour} /><StatusTag status={d.status} /></Space>}
        extra={
          <Space wrap>
            {pdf ? <Button type="primary" icon={<FilePdfOutlined />} onClick={() => void openFile(pdf)} data-testid="open-pdf">查看PDF</Button> : null}
            {canChange && d.source === SourceKind.history ? <Button icon={<PaperClipOutlined />} onClick={() => navigate(uploadPath(d.id))}>上传文件</Button> : null}
            {canChange ? <SendDialog id={d.id} email={d.buyerEmail} mobile={d.buyerMobile} disabled={d.status !== InvoiceStatus.created} /> : null}
            <Button onClick={() => navigate('/invoice/invoiceaccount/invoice-list')}>返回台账</Button>
          </Space>
        }
      >
        {d.status === InvoiceStatus.cancelled ? <Alert type="warning" showIcon style={{ marginBottom: 12 }} title="该发票已作废" /> : null}
        <Descriptions
          size="small" column={{ xs: 1, md: 2, xl: 3 }}
          items={[
            { key: 'no', label: '发票号码', children: d.invoiceNo || '—' },
            { key: 'dn', label: '数电号码', children: d.digitalNo || '—' },
            { key: 'order', label: '订单号', children: d.orderNo },
            { key: 'at', label: '开票时间', children: formatTime(d.issuedAt) || '—' },
            { key: 'src', label: '来源', children: SourceKind.label(d.source) },
            { key: 'by', label: '创建人', children: d.createdByName || '—' },
            { key: 'buyer', label: '购方名称', children: d.buyerName },
            { key: 'btax', label: '购方税号', children: d.buyerTaxNo || '—' },
            { key: 'baddr', label: '购方地址电话', children: `${d.buyerAddress} ${d.buyerPhone}`.trim() || '—' },
            { key: 'bbank', label: '购方开户行及账号', children: `${d.buyerBank} ${d.buyerAccount}`.trim() || '—' },
            { key: 'seller', label: '销方名称', children: d.sellerName },
            { key: 'stax', label: '销方税号', children: d.sellerTaxNo },
            { key: 'proj', label: '项目', children: d.projectName || '—' },
            { key: 'contract', label: '合同', children: d.contractName || '—' },
            { key: 'sf', label: '特定业务', children: d.specialFactor ? `${SpecialFactor.label(d.specialFactor)} ${d.constructionProject} ${d.constructionSite}` : '无' },
            { key: 'rr', label: '红冲', children: d.redReason ? `${RedReason.label(d.redReason)}，蓝字发票 ${d.blueInvoiceNo}` : '—' },
            { key: 'people', label: '开票人/收款人/复核人', children: [d.clerk, d.payee, d.checker].map((x) => x || '—').join(' / ') },
            { key: 'remark', label: '备注', children: d.remark || '—' },
          ]}
        />
      </Card>
      <Card size="small" title="开票明细" className="ledger-section">
        <Table<InvoiceLineRow>
          size="small" rowKey="lineNo" pagination={d.lines.length > 20 ? { pageSize: 20 } : false} dataSource={d.lines} columns={lineColumns} scroll={{ x: 960 }}
          summary={() => (
            <Table.Summary.Row className="ledger-totals">
              <Table.Summary.Cell index={0} colSpan={7}>合计（大写）{d.capital}</Table.Summary.Cell>
              <Table.Summary.Cell index={7} align="right"><Money fen={d.amountExcl} strong /></Table.Summary.Cell>
              <Table.Summary.Cell index={8} align="right"><Money fen={d.tax} strong /></Table.Summary.Cell>
            </Table.Summary.Row>
          )}
        />
        <div style={{ textAlign: 'right', marginTop: 8 }}>价税合计：<Money fen={d.amountIncl} strong /></div>
      </Card>
      <Card size="small" title="发票文件" className="ledger-section">
        {d.files.length ? (
          <List
            size="small" dataSource={d.files}
            renderItem={(f) => (
              <List.Item actions={[<Button key="v" type="link" onClick={() => void openFile(f)}>查看</Button>]}>
                <Space><Tag>{f.format.toUpperCase()}</Tag><Typography.Text>{f.name}</Typography.Text><Typography.Text type="secondary">{fileTypeLabel(f.type, AttachmentType.label)} · {(f.size / 1024).toFixed(0)} KB · {formatTime(f.createdAt)}</Typography.Text></Space>
              </List.Item>
            )}
          />
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有文件" />
        )}
      </Card>
      <DetailApportionment id={d.id} />
      {h.data ? <DetailHistory d={d} h={h.data} /> : <Card><Skeleton active /></Card>}
    </Space>
  );
}
