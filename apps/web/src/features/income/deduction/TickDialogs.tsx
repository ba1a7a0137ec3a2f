/**
 * The dialogs of a tick batch: the confirmation a batch with 疑点 or abnormal invoices is answered with
 * (resent with confirmed: true), and the refusals when nothing was ticked (all-or-nothing).
 */
import { Alert, Modal, Table, Typography } from 'antd';
import { TICK_CONFIRM_MESSAGE, type TickOutcomeRow } from '@zhyy/shared';

const outcomeColumns = [
  { title: '发票号码', dataIndex: 'invoiceNumber', key: 'invoiceNumber', width: 220 },
  { title: '说明', dataIndex: 'message', key: 'message' },
];

export function ConfirmDialog({ outcomes, busy, onOk, onCancel }: { outcomes: TickOutcomeRow[] | null; busy: boolean; onOk: () => void; onCancel: () => void }) {
  return (
    <Modal open={!!outcomes} title="请确认" okText="确认勾选" cancelText="取消" confirmLoading={busy} onOk={onOk} onCancel={onCancel} width={640} destroyOnHidden>
      <div data-testid="tick-confirm">
        <Alert type="warning" showIcon title={`${TICK_CONFIRM_MESSAGE}，是否继续勾选？`} style={{ marginBottom: 12 }} />
        <Table<TickOutcomeRow> rowKey="invoiceId" size="small" pagination={false} scroll={{ y: 300 }} columns={outcomeColumns} dataSource={outcomes ?? []} />
      </div>
    </Modal>
  );
}

export function RefusalDialog({ title, outcomes, onClose }: { title: string; outcomes: TickOutcomeRow[] | null; onClose: () => void }) {
  const all = outcomes ?? [];
  const refused = all.some((o) => !o.ok) ? all.filter((o) => !o.ok) : all;
  return (
    <Modal open={!!outcomes} title={title} onCancel={onClose} onOk={onClose} okText="知道了" cancelButtonProps={{ style: { display: 'none' } }} width={680} destroyOnHidden>
      <div data-testid="tick-refusals">
        <Typography.Paragraph type="danger">{refused.length} 张发票不能处理，本批均未处理（全部成功才记录）。</Typography.Paragraph>
        <Table<TickOutcomeRow> rowKey="invoiceId" size="small" pagination={false} scroll={{ y: 360 }} columns={outcomeColumns} dataSource={refused} />
      </div>
    </Modal>
  );
}
