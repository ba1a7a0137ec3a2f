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

/** Whether an outcome only says its batch failed because of another invoice (同批有…，本批均未…). */
const onlyTheBatch = (o: TickOutcomeRow) => o.message.startsWith('同批有');

/**
 * The answer of a refused batch lists every invoice (nothing was recorded): the invoices refused for a reason
 * of their own first, then those that only went down with the batch, then those already ticked exactly so
 * (无变化: left as they were).
 */
export function RefusalDialog({ title, outcomes, onClose }: { title: string; outcomes: TickOutcomeRow[] | null; onClose: () => void }) {
  const all = (outcomes ?? []).filter((o) => !o.ok);
  const own = all.filter((o) => !onlyTheBatch(o));
  const rows = [...own, ...all.filter(onlyTheBatch), ...(outcomes ?? []).filter((o) => o.ok)];
  return (
    <Modal open={!!outcomes} title={title} onCancel={onClose} onOk={onClose} okText="知道了" cancelButtonProps={{ style: { display: 'none' } }} width={680} destroyOnHidden>
      <div data-testid="tick-refusals">
        <Typography.Paragraph type="danger">
          {all.length ? `本批 ${all.length} 张发票均未处理（全部成功才记录）${own.length ? `，其中 ${own.length} 张被拒绝，原因见下表` : ''}。` : '所选发票均已按此勾选，未作任何更改。'}
        </Typography.Paragraph>
        <Table<TickOutcomeRow> rowKey="invoiceId" size="small" pagination={false} scroll={{ y: 360 }} columns={outcomeColumns} dataSource={rows} />
      </div>
    </Modal>
  );
}
