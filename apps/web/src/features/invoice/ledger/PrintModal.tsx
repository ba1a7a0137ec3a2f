/** 打印: the first rows of the filtered ledger with its totals, in a sheet that alone is printed (ledger.css). */
import { PrinterOutlined } from '@ant-design/icons';
import { Alert, Button, Modal, Spin } from 'antd';
import { useState } from 'react';
import { formatFen, InvoiceColour, InvoiceKind, InvoiceStatus, ledgerRowCount, type LedgerPrint } from '@zhyy/shared';
import { ledgerApi } from '../../../api/invoiceLedger';
import { formatTime } from '../../../components/download';
import '../../common/ledger.css';

export function PrintButton({ body, disabled }: { body: Record<string, unknown>; disabled?: boolean }) {
  const [open, setOpen] = useState(false);
  const [data, setData] = useState<LedgerPrint | null>(null);
  const load = async () => {
    setOpen(true);
    setData(null);
    try {
      setData(await ledgerApi.print(body));
    } catch {
      setOpen(false);
    }
  };
  return (
    <>
      <Button icon={<PrinterOutlined />} disabled={disabled} onClick={() => void load()} data-testid="print-button">
        打印
      </Button>
      <Modal
        open={open}
        width={1100}
        title="打印预览"
        onCancel={() => setOpen(false)}
        footer={[
          <Button key="close" onClick={() => setOpen(false)}>关闭</Button>,
          <Button key="print" type="primary" icon={<PrinterOutlined />} disabled={!data} onClick={() => window.print()}>打印</Button>,
        ]}
      >
        {!data ? (
          <div style={{ textAlign: 'center', padding: 48 }}><Spin /></div>
        ) : (
          <>
            {data.truncated ? <Alert type="info" showIcon style={{ marginBottom: 12 }} title={`筛选结果共 ${ledgerRowCount(data.totals)} 条，打印前 ${data.limit} 条；全部数据请导出Excel。合计为全部筛选结果的合计。`} /> : null}
            <div className="ledger-print" data-testid="ledger-print">
              <h2>销项发票台账</h2>
              <div className="ledger-print-meta">打印人：{data.printedBy}　打印时间：{formatTime(data.printedAt)}　共 {ledgerRowCount(data.totals)} 条</div>
              <table>
                <thead>
                  <tr>
                    <th>开票日期</th><th>发票号码</th><th>种类</th><th>状态</th><th>购方名称</th><th>项目</th><th>金额</th><th>税额</th><th>价税合计</th>
                  </tr>
                </thead>
                <tbody>
                  {data.rows.map((r) => (
                    <tr key={r.id}>
                      <td>{r.issueDate}</td>
                      <td>{r.digitalNo || r.invoiceNo}</td>
                      <td>{InvoiceKind.label(r.kind)}{r.colour === InvoiceColour.red ? '（红字）' : ''}</td>
                      <td>{InvoiceStatus.label(r.status)}</td>
                      <td>{r.buyerName}</td>
                      <td>{r.projectName}</td>
                      <td className="num">{formatFen(r.amountExcl)}</td>
                      <td className="num">{formatFen(r.tax)}</td>
                      <td className="num">{formatFen(r.amountIncl)}</td>
                    </tr>
                  ))}
                </tbody>
                <tfoot>
                  <tr>
                    <td colSpan={6}>合计（{data.totals.count} 条）</td>
                    <td className="num">{formatFen(data.totals.amountExcl)}</td>
                    <td className="num">{formatFen(data.totals.tax)}</td>
                    <td className="num">{formatFen(data.totals.amountIncl)}</td>
                  </tr>
                  {data.totals.voided.count > 0 ? (
                    <tr>
                      <td colSpan={6}>已作废（{data.totals.voided.count} 条，不计入合计）</td>
                      <td className="num">{formatFen(data.totals.voided.amountExcl)}</td>
                      <td className="num">{formatFen(data.totals.voided.tax)}</td>
                      <td className="num">{formatFen(data.totals.voided.amountIncl)}</td>
                    </tr>
                  ) : null}
                </tfoot>
              </table>
            </div>
          </>
        )}
      </Modal>
    </>
  );
}
