/** Small pieces the invoice screens share: status and kind tags, money, a reason prompt, the file opener. */
import { Form, Input, Tag, type FormInstance } from 'antd';
import { INVOICE_STATUS_COLOURS, InvoiceColour, InvoiceKind, InvoiceStatus, RED_ISSUED_STATES, RedConfirmState, type BatchAnswer, type InvoiceFileRow } from '@zhyy/shared';
import { ApiError } from '../../api/errors';
import { invoiceApi } from '../../api/invoice';
import { openSignedFile } from '../common/fileView';
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

/** Money lives in the shared figure widgets (never wrapped, never cut). */
export { Money } from '../common/Money';

/**
 * Asks for a reason before a destructive action; resolves to the reason or null when cancelled. The
 * reason is a required field of a form in the dialog: left empty, the field is marked with 请填写…
 * and the dialog stays open. onOk takes `close`, so antd neither closes the dialog nor sees a
 * rejected promise (which it would rethrow as an uncaught error, reported to the server's log).
 */
export function askReason(title: string, label: string, okText = '确定'): Promise<string | null> {
  return new Promise((resolve) => {
    let form: FormInstance<{ reason?: string }> | null = null;
    function Body() {
      const [f] = Form.useForm<{ reason?: string }>();
      form = f;
      return (
        <Form form={f} layout="vertical" name="ask-reason" style={{ marginTop: 12 }}>
          <Form.Item name="reason" label={label} rules={[{ required: true, whitespace: true, message: `请填写${label}` }, { max: 200, message: `${label}不能超过200个字` }]}>
            <Input.TextArea aria-label={label} placeholder={`请填写${label}`} maxLength={200} showCount rows={3} />
          </Form.Item>
        </Form>
      );
    }
    feedback().modal.confirm({
      title,
      content: <Body />,
      okText,
      cancelText: '取消',
      onOk: (close: () => void) => {
        void form?.validateFields().then(
          (v) => {
            resolve((v.reason ?? '').trim());
            close();
          },
          () => undefined, // the field shows what is missing
        );
      },
      onCancel: () => resolve(null),
    });
  });
}

/** Opens an invoice file in the public viewer through a short-lived signed link. */
export function openFile(f: InvoiceFileRow): Promise<void> {
  return openSignedFile(() => invoiceApi.fileLink(f.id));
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

/**
 * A batch of which nothing was done is refused (30000, issue 27 item 8): the request layer shows the message;
 * when the answer beside it names several items, each one is listed with its reason as well.
 */
export function showRefusedBatch(e: unknown): boolean {
  const r = e instanceof ApiError ? (e.envelope?.r as BatchAnswer | undefined) : undefined;
  if (!r || !Array.isArray(r.results) || r.results.length < 2) return false;
  showBatch((e as ApiError).message, r.results);
  return true;
}

/** A 红字确认单 still settling at the tax service: 申请中, or issued with the red invoice not known yet. */
export function redSettling(r: { state: string; redInvoiceNo?: string | null }): boolean {
  return r.state === RedConfirmState.applying || (RED_ISSUED_STATES.includes(r.state) && !r.redInvoiceNo);
}
