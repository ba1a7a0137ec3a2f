/** 开票重试: 22 is corrected and resubmitted under a new order number; 24 is re-issued on the same serial. */
import { useQueryClient } from '@tanstack/react-query';
import { Typography } from 'antd';
import { useState } from 'react';
import { InvoiceStatus, type InvoiceDetail, type InvoiceSaveBody } from '@zhyy/shared';
import { invoiceApi } from '../../../api/invoice';
import { feedback } from '../../../ui/feedback';
import { EntryDrawer } from './EntryDrawer';
import { InvoiceList, failureColumn } from '../InvoiceList';
import { INVOICE_KEY, InvalidateLink, confirmAction } from '../widgets';

export default function RetryPage() {
  const qc = useQueryClient();
  const [correct, setCorrect] = useState<InvoiceDetail | null>(null);
  const reload = () => void qc.invalidateQueries({ queryKey: INVOICE_KEY });
  const resubmit = async (body: InvoiceSaveBody) => {
    try {
      const a = await invoiceApi.retry(body.id, body);
      void feedback().message.success(a.message ?? '已重新提交');
      reload();
      return true;
    } catch {
      return false;
    }
  };
  return (
    <>
      <InvoiceList
        name="retry"
        testId="invoice-retry"
        tabs={[{ key: 'all', label: '全部' }, { key: 'creationFailed', label: '开票失败' }, { key: 'signFailed', label: '签章失败' }]}
        fetch={invoiceApi.listForRetry}
        selectable={() => false}
        extraColumns={() => [failureColumn, { title: '重试次数', dataIndex: 'retryCount', width: 80, align: 'right' }]}
        actions={() => <Typography.Text type="secondary">开票失败的须修改后以新订单号重新提交；签章失败的按原流水号重新开具（每个流水号每天最多20次）。</Typography.Text>}
        rowActions={(r) =>
          r.status === InvoiceStatus.signFailed ? (
            <a onClick={async () => {
              if (!(await confirmAction('重新开具', `按原流水号 ${r.serialNo} 重新开具发票？`))) return;
              try {
                const a = await invoiceApi.retry(r.id);
                void feedback().message.success(a.message ?? '已重新开具');
                reload();
              } catch { /* shown by the request layer */ }
            }}>重新开具</a>
          ) : (
            <>
              <a onClick={async () => setCorrect(await invoiceApi.detail(r.id))}>修改重开</a>
              <InvalidateLink title={`将 ${r.orderNo} 置为无效`} run={(reason) => invoiceApi.invalidate(r.id, reason)} onDone={reload} />
            </>
          )
        }
      />
      <EntryDrawer open={!!correct} initial={correct} title={`修改后重新提交：${correct?.orderNo ?? ''}`} onClose={() => setCorrect(null)} onSubmit={resubmit} />
    </>
  );
}
