/** 同步日志: every exchange with the tax service, by invoice (order number), method, status and time; bodies readable. */
import type { InvoiceSyncLogDetail, InvoiceSyncLogRow } from '@zhyy/shared';
import { invoiceApi } from '../../../api/invoice';
import { SyncExchangeLog } from '../../common/SyncExchangeLog';
import { INVOICE_KEY } from '../widgets';

export default function SyncLogPage() {
  return (
    <SyncExchangeLog<InvoiceSyncLogRow, InvoiceSyncLogDetail>
      testId="invoice-synclog"
      queryKey={[...INVOICE_KEY, 'synclog']}
      fetch={invoiceApi.syncLogs}
      fetchDetail={invoiceApi.syncLogDetail}
      keyFilter={{ name: 'orderNo', label: '订单号', placeholder: '发票订单号' }}
      methodPlaceholder="如 requestBillingNew"
      detailKey={{ label: '订单号', value: (d) => d.orderNo }}
      requestTestId="invoice-sync-request"
    />
  );
}
