/**
 * The bill behind an FY01 work item, in the approval drawer of 我的待办 (the drawer's content: the bill's
 * header, lines and attachments stand for the workflow form): its lines with the checks and invoices in
 * columns that fit the drawer without scrolling sideways, a 合计 row, the 核定合计 beside what was claimed
 * and what was cut (issue 31 #6), and for the current handler the 核定 inputs (reduce a line's approved
 * amount with an opinion, never above the claim).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Input, Popover, Space, Table, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { formatFen, type ReimbLineView } from '@zhyy/shared';
import { reimbApi } from '../../../api/reimbursement';
import { feedback } from '../../../ui/feedback';
import { Money } from '../../common/Money';
import { MoneyInput } from '../../common/MoneyInput';
import { approvedColumn, Attachments, BillHeader } from './BillView';
import { CheckTags, InvoiceCell, REIMB_KEY } from './common';
import { DuplicateMatches, needsAttention } from './DuplicateMatches';

function ApproveLine({ line, onDone }: { line: ReimbLineView; onDone: () => void }) {
  const [open, setOpen] = useState(false);
  const [amount, setAmount] = useState<number | undefined>(line.approvedAmount ?? line.amount);
  const [note, setNote] = useState(line.approveNote);
  const [busy, setBusy] = useState(false);
  const save = async () => {
    if (amount === undefined) return void feedback().message.error('请输入核定金额');
    if (amount < 0) return void feedback().message.error('核定金额不能小于0');
    if (amount > line.amount) return void feedback().message.error(`核定金额不能高于报销金额 ${formatFen(line.amount)} 元`);
    if (!note.trim()) return void feedback().message.error('请填写核定意见');
    setBusy(true);
    try {
      const a = await reimbApi.approveLine(line.id, amount, note.trim());
      if (a.code !== 20000) return void feedback().message.error(a.message ?? '核定失败');
      void feedback().message.success(a.message ?? '核定金额已保存');
      setOpen(false);
      onDone();
    } finally {
      setBusy(false);
    }
  };
  return (
    <Popover
      open={open}
      onOpenChange={setOpen}
      trigger="click"
      title={`核定第${line.lineNo}行（报销 ${formatFen(line.amount)} 元）`}
      content={
        <Space direction="vertical" style={{ width: 260 }}>
          <MoneyInput value={amount} onChange={setAmount} placeholder="核定金额（元）" />
          <Input.TextArea value={note} onChange={(e) => setNote(e.target.value)} maxLength={200} rows={2} placeholder="核定意见（必填）" />
          <Button type="primary" size="small" loading={busy} onClick={() => void save()}>
            保存核定
          </Button>
        </Space>
      }
    >
      <Button size="small" data-testid={`approve-line-${line.lineNo}`}>
        核定
      </Button>
    </Popover>
  );
}

/** The lines as the drawer shows them (880 px): no tax columns (the header sums them), category and date in one. */
function drawerColumns(extra: TableColumnsType<ReimbLineView>): TableColumnsType<ReimbLineView> {
  return [
    { title: '行', dataIndex: 'lineNo', width: 36, align: 'center' },
    {
      title: '类别 / 日期', dataIndex: 'categoryName', width: 96,
      render: (v: string, r) => (
        <Space direction="vertical" size={0}>
          {v}
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {r.expenseDate}
          </Typography.Text>
        </Space>
      ),
    },
    { title: '说明', dataIndex: 'description', ellipsis: true, render: (v: string, r) => [v, r.city, r.seatClass].filter(Boolean).join(' ') || '—' },
    { title: '报销金额', dataIndex: 'amount', width: 100, align: 'right', render: (v: number) => <Money fen={v} strong /> },
    { ...approvedColumn, width: 124 },
    { title: '发票', dataIndex: 'invoiceNumber', width: 172, render: (_: string, r) => <InvoiceCell invoice={r.invoice} number={r.invoiceNumber} /> },
    { title: '检查', dataIndex: 'checks', width: 96, render: (_: unknown, r) => <CheckTags checks={r.checks} /> },
    ...extra,
  ];
}

export default function BillApprovalPanel({ billId, version }: { billId: string; version?: number }) {
  const qc = useQueryClient();
  const q = useQuery({ queryKey: [...REIMB_KEY, 'bill', billId, version], queryFn: () => reimbApi.get(billId), retry: false });
  const b = q.data;
  if (q.isError) return <Alert type="warning" showIcon title={`无法读取报销单：${(q.error as Error).message}`} />;
  if (!b) return null;
  const blocks = b.lines.filter((l) => l.checks.some((c) => c.level === 'block')).length;
  // An accepted duplicate claim needs no more attention (issue 32 #4).
  const warns = b.lines.filter(needsAttention).length;
  const refresh = () => {
    void q.refetch();
    void qc.invalidateQueries({ queryKey: REIMB_KEY });
  };
  const extra = b.can.approve ? [{ title: '操作', key: 'op', width: 64, render: (_: unknown, r: ReimbLineView) => <ApproveLine line={r} onDone={refresh} /> }] : [];
  const cut = b.amount - b.approvedAmount;
  return (
    <Card size="small" title={`报销单 ${b.billNo}`} data-testid="bill-approval-panel" extra={
        <Typography.Text data-testid="bill-approved-total">
          核定合计 <Money fen={b.approvedAmount} strong />
          {cut ? (
            <Typography.Text type="secondary">
              （报销 <Money fen={b.amount} />，核减 <Money fen={cut} />）
            </Typography.Text>
          ) : (
            <Typography.Text type="secondary">（与报销金额相同）</Typography.Text>
          )}
        </Typography.Text>
      }
    >
      <Space direction="vertical" size={8} style={{ width: '100%' }}>
        <BillHeader b={b} compact />
        {blocks || warns ? (
          <Alert type={blocks ? 'error' : 'warning'} showIcon title={`检查发现：${blocks ? `${blocks} 行不符合报销要求；` : ''}${warns ? `${warns} 行需要关注（超标准、超期或疑似重复）` : ''}`} />
        ) : null}
        <Table<ReimbLineView>
          rowKey="id"
          size="small"
          tableLayout="fixed"
          pagination={false}
          columns={drawerColumns(extra)}
          dataSource={b.lines}
          data-testid="bill-approval-lines"
          summary={() => (
            <Table.Summary.Row>
              <Table.Summary.Cell index={0} colSpan={3}>
                合计（{b.lineCount} 行）
              </Table.Summary.Cell>
              <Table.Summary.Cell index={3} align="right">
                <Money fen={b.amount} strong />
              </Table.Summary.Cell>
              <Table.Summary.Cell index={4} align="right">
                <Money fen={b.approvedAmount} strong />
              </Table.Summary.Cell>
              <Table.Summary.Cell index={5} colSpan={2 + extra.length} />
            </Table.Summary.Row>
          )}
        />
        <DuplicateMatches billId={b.id} lines={b.lines} canAccept={b.can.approve} onDone={refresh} />
        <Attachments b={b} />
      </Space>
    </Card>
  );
}
