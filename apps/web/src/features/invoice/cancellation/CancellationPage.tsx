/** 税控作废: paper invoices of this month, created and not reversed; 数电 invoices are reversed by red invoices instead. */
import { StopOutlined, SyncOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button } from 'antd';
import { invoiceApi } from '../../../api/invoice';
import { feedback } from '../../../ui/feedback';
import { InvoiceList, issuedColumn, numberColumn } from '../InvoiceList';
import { INVOICE_KEY, InvalidateLink, askReason, showBatch, showRefusedBatch } from '../widgets';

export default function CancellationPage() {
  const qc = useQueryClient();
  const reload = () => void qc.invalidateQueries({ queryKey: INVOICE_KEY });
  return (
    <>
      <Alert type="info" showIcon style={{ marginBottom: 8 }} title="只能作废当月开具、未红冲的纸质（税控）发票；数电发票不能作废，请在「数电红字」开具红字发票冲销。" />
      <InvoiceList
        name="cancellation"
        testId="invoice-cancellation"
        tabs={[{ key: 'candidates', label: '可作废' }, { key: 'canceling', label: '作废中' }, { key: 'cancelled', label: '已作废' }]}
        fetch={invoiceApi.listForCancellation}
        selectable={(tab) => tab !== 'cancelled'}
        extraColumns={() => [numberColumn, issuedColumn]}
        actions={({ tab, selected, clear }) =>
          tab === 'candidates' ? (
            <Button danger icon={<StopOutlined />} disabled={!selected.length} onClick={async () => {
              const reason = await askReason(`作废所选 ${selected.length} 张发票`, '作废原因', '确定作废');
              if (!reason) return;
              try {
                const a = await invoiceApi.cancel(selected.map((r) => r.id), reason);
                showBatch(a.message, a.r?.results ?? []);
                clear();
                reload();
              } catch (e) {
                // The request layer has shown the refusal; a refused batch also lists each item's reason.
                if (showRefusedBatch(e)) reload();
              }
            }}>作废</Button>
          ) : tab === 'canceling' ? (
            <Button icon={<SyncOutlined />} onClick={async () => {
              try {
                const a = await invoiceApi.cancelRefresh(selected.map((r) => r.id));
                void feedback().message.success(a.message ?? '已刷新');
                reload();
              } catch { /* shown by the request layer */ }
            }}>刷新作废结果</Button>
          ) : null
        }
        rowActionTabs={['canceling']}
        rowActions={(r, tab) =>
          tab === 'canceling' ? (
            <InvalidateLink title={`放弃作废发票 ${r.invoiceNo}`} run={(reason) => invoiceApi.cancelInvalidate(r.id, reason)} done="已置为无效，发票恢复为开票成功" onDone={reload} />
          ) : null
        }
      />
    </>
  );
}
