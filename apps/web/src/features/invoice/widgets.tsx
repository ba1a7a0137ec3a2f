/** Small pieces the invoice screens share: status and kind tags, money, a reason prompt, the file opener. */
import { Input, Tag, Typography } from 'antd';
import { useState } from 'react';
import { formatFen, INVOICE_STATUS_COLOURS, InvoiceColour, InvoiceKind, InvoiceStatus, RedConfirmState, type InvoiceFileRow } from '@zhyy/shared';
import { invoiceApi } from '../../api/invoice';
import { encodeViewData } from '../common/fileView';
import { feedback } from '../../ui/feedback';

export const INVOICE_KEY = ['invoice'] as const;

export function StatusTag({ status, invalid }: { status: number; invalid?: boolean }) {
  if (invalid) return <Tag>已置无效</Tag>;
  return <Tag color={INVOICE_STATUS_COLOURS[status] ?? 'default'}>{InvoiceStatus.label(status)}</Tag>;
}

export function KindTag({ kind, colour }: { kind: number; colour?: number }) {
  return (
    <>
      <Tag color={kind === InvoiceKind.bs || kind === InvoiceKind.pc ? 'blue' : 'gold'}>{InvoiceKind.label(kind)}</Tag>
      {colour === InvoiceColour.red ? <Tag color="red">红字</Tag> : null}
    </>
  );
}

const RED_COLOURS: Record<string, string> = { '00': 'default', '01': 'success', '02': 'processing', '03': 'warning', '04': 'success', '15': 'processing', '16': 'error' };
export const RedStateTag = ({ state }: { state: string }) => <Tag color={RED_COLOURS[state] ?? 'default'}>{RedConfirmState.label(state)}</Tag>;

/** Money in 分 shown in 元 (red when negative); formatting happens only here. */
export function Money({ fen, strong }: { fen: number; strong?: boolean }) {
  return (
    <Typography.Text strong={strong} type={fen < 0 ? 'danger' : undefined} style={{ fontVariantNumeric: 'tabular-nums' }}>
      {formatFen(fen)}
    </Typography.Text>
  );
}

/** Asks for a reason before a destructive action; resolves to the reason or null when cancelled. */
export function askReason(title: string, label: string, okText = '确定'): Promise<string | null> {
  return new Promise((resolve) => {
    let value = '';
    function Body() {
      const [v, setV] = useState('');
      return <Input.TextArea aria-label={label} placeholder={`请填写${label}`} maxLength={200} showCount rows={3} style={{ marginBottom: 20 }} value={v} onChange={(e) => { setV(e.target.value); value = e.target.value; }} />;
    }
    feedback().modal.confirm({
      title,
      content: <Body />,
      okText,
      cancelText: '取消',
      onOk: () => {
        if (!value.trim()) {
          void feedback().message.warning(`请填写${label}`);
          return Promise.reject(new Error('empty'));
        }
        resolve(value.trim());
        return undefined;
      },
      onCancel: () => resolve(null),
    });
  });
}

/** Opens an invoice file in the public viewer through a short-lived signed link. */
export async function openFile(f: InvoiceFileRow): Promise<void> {
  try {
    const link = await invoiceApi.fileLink(f.id);
    window.open(`/file/view/${encodeViewData({ name: link.name, url: link.url, type: link.type })}`, '_blank', 'noopener');
  } catch {
    // The request layer shows the refusal.
  }
}

/** Asks before an action; through the App's modal, like askReason, so it carries the theme and locale. */
export function confirmAction(title: string, content: string): Promise<boolean> {
  return new Promise((resolve) => {
    feedback().modal.confirm({ title, content, okText: '确定', cancelText: '取消', onOk: () => resolve(true), onCancel: () => resolve(false) });
  });
}

/**
 * The 置为无效 row action of the working lists: asks for the reason, runs the call, says `done` and
 * reloads. A refusal is shown by the request layer.
 */
export function InvalidateLink({ title, run, done = '已置为无效', onDone }: { title: string; run: (reason: string) => Promise<unknown>; done?: string; onDone: () => void }) {
  return (
    <a
      onClick={async () => {
        const reason = await askReason(title, '原因');
        if (!reason) return;
        try {
          await run(reason);
          void feedback().message.success(done);
          onDone();
        } catch {
          /* shown by the request layer */
        }
      }}
    >
      置为无效
    </a>
  );
}

/** Shows the per-invoice outcome of a batch action. */
export function showBatch(message: string | undefined, results: Array<{ orderNo: string; ok: boolean; message: string }>): void {
  const failed = results.filter((r) => !r.ok);
  if (!failed.length) void feedback().message.success(message ?? '操作成功');
  else
    feedback().modal.warning({
      title: message ?? '部分未成功',
      content: (
        <ul style={{ paddingLeft: 18, margin: 0 }}>
          {failed.map((r) => (
            <li key={r.orderNo}>
              {r.orderNo}：{r.message}
            </li>
          ))}
        </ul>
      ),
    });
}
