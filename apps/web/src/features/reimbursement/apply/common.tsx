/** Pieces the bill pages share: the state tag, the checks' tags, the invoice link, the query keys. */
import { Space, Tag, Tooltip, Typography } from 'antd';
import { ReimbCheckCode, ReimbFlowState, type ReimbCheck, type ReimbInvoiceInfo } from '@zhyy/shared';
import { reimbApi } from '../../../api/reimbursement';
import { saveBlob } from '../../../components/download';

export const REIMB_KEY = ['reimbursement'] as const;

const FLOW_COLORS: Record<number, string> = { 0: 'default', 1: 'processing', 2: 'warning', 3: 'success' };
export function FlowStateTag({ state }: { state: number }) {
  return <Tag color={FLOW_COLORS[state] ?? 'default'}>{ReimbFlowState.label(state)}</Tag>;
}

/** A line's findings: red blocks the submit, orange warns the approvers. */
export function CheckTags({ checks }: { checks: readonly ReimbCheck[] }) {
  if (!checks.length) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <Space size={[4, 4]} wrap data-testid="line-checks">
      {checks.map((c, i) => (
        <Tooltip key={`${c.code}-${i}`} title={c.message}>
          <Tag color={c.level === 'block' ? 'red' : 'orange'} data-level={c.level}>
            {ReimbCheckCode.label(c.code)}
          </Tag>
        </Tooltip>
      ))}
    </Space>
  );
}

export async function openInvoiceFile(file: { id: string; name: string }): Promise<void> {
  saveBlob(await reimbApi.invoiceFile(file.id), file.name);
}

/** The invoice behind a line: its number, and its files to open. */
export function InvoiceCell({ invoice, number }: { invoice: ReimbInvoiceInfo | null; number?: string }) {
  if (!invoice) return <Typography.Text type="secondary">{number || '无发票'}</Typography.Text>;
  return (
    <Space direction="vertical" size={0}>
      <Typography.Text>{invoice.number}</Typography.Text>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {invoice.sellerName || invoice.passengerName}
      </Typography.Text>
      {invoice.files.map((f) => (
        <Typography.Link key={f.id} style={{ fontSize: 12 }} onClick={() => void openInvoiceFile(f)}>
          {f.name}
        </Typography.Link>
      ))}
    </Space>
  );
}
