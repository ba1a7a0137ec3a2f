/** 一键开票: requests ready to issue (approved 开票申请 and entered ones); select and issue; watch them become 开票成功. */
import { PlusOutlined, SendOutlined, SyncOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd';
import { useState } from 'react';
import type { InvoiceDetail, InvoiceSaveBody } from '@zhyy/shared';
import { invoiceApi } from '../../../api/invoice';
import { feedback } from '../../../ui/feedback';
import { EntryDrawer } from './EntryDrawer';
import { InvoiceList, issuedColumn, numberColumn } from '../InvoiceList';
import { INVOICE_KEY, InvalidateLink, confirmAction, showBatch, showRefusedBatch } from '../widgets';

export default function BillingPage() {
  const qc = useQueryClient();
  const [entry, setEntry] = useState<{ open: boolean; initial: InvoiceDetail | null }>({ open: false, initial: null });
  const reload = () => void qc.invalidateQueries({ queryKey: INVOICE_KEY });
  const save = async (body: InvoiceSaveBody) => {
    try {
      const a = await invoiceApi.save(body);
      void feedback().message.success(`${a.message ?? '保存成功'}（订单号 ${a.r?.orderNo ?? ''}）`);
      reload();
      return true;
    } catch {
      return false;
    }
  };
  return (
    <>
      <InvoiceList
        name="billing"
        testId="invoice-billing"
        tabs={[{ key: 'pending', label: '待开票' }, { key: 'issuing', label: '开票中' }, { key: 'created', label: '已开票' }, { key: 'invalid', label: '已置无效' }]}
        fetch={invoiceApi.listForCreation}
        selectable={(tab) => tab === 'pending' || tab === 'issuing'}
        extraColumns={(tab) => (tab === 'created' ? [numberColumn, issuedColumn] : [])}
        actions={({ tab, selected, clear }) => (
          <>
            {tab === 'pending' ? (
              <>
                <Button type="primary" icon={<SendOutlined />} disabled={!selected.length} onClick={async () => {
                  if (!(await confirmAction('一键开票', `将向税务端提交 ${selected.length} 张开票申请，确定开票吗？`))) return;
                  try {
                    const a = await invoiceApi.issue(selected.map((r) => r.id));
                    showBatch(a.message, a.r?.results ?? []);
                    clear();
                    reload();
                  } catch (e) {
                    // The request layer has shown the refusal; a refused batch also lists each item's reason.
                    if (showRefusedBatch(e)) reload();
                  }
                }}>一键开票</Button>
                <Button icon={<PlusOutlined />} onClick={() => setEntry({ open: true, initial: null })}>新增开票申请</Button>
              </>
            ) : null}
            {tab === 'issuing' ? (
              <Button icon={<SyncOutlined />} onClick={async () => {
                try {
                  const a = await invoiceApi.refresh(selected.map((r) => r.id));
                  void feedback().message.success(a.message ?? '已刷新');
                  reload();
                } catch { /* shown by the request layer */ }
              }}>刷新开票结果</Button>
            ) : null}
          </>
        )}
        rowActionTabs={['pending']}
        rowActions={(r, tab) =>
          tab === 'pending' ? (
            <>
              <a onClick={async () => setEntry({ open: true, initial: await invoiceApi.detail(r.id) })}>修改</a>
              <InvalidateLink title={`将 ${r.orderNo} 置为无效`} run={(reason) => invoiceApi.invalidate(r.id, reason)} onDone={reload} />
            </>
          ) : null
        }
      />
      <EntryDrawer open={entry.open} initial={entry.initial} title={entry.initial ? `修改开票申请：${entry.initial.orderNo}` : '新增开票申请'} onClose={() => setEntry({ open: false, initial: null })} onSubmit={save} />
    </>
  );
}
