/** An amount kept in 分 and typed in 元 with two decimals (the workflow forms, the reimbursement bills). */
import { InputNumber } from 'antd';

const fenToYuan = (fen: unknown) => (typeof fen === 'number' ? fen / 100 : undefined);
const yuanToFen = (yuan: unknown) => (typeof yuan === 'number' && Number.isFinite(yuan) ? Math.round(yuan * 100) : undefined);

/**
 * Money kept in 分, typed in 元 with two decimals. A negative amount is passed on as typed, never clamped to
 * 0 behind the clerk's back: the form's rule (the shared schema) answers it with its message, and a discount
 * line or a red invoice is negative by nature.
 */
export function MoneyInput(props: { value?: number | null; onChange?: (fen: number | undefined) => void; placeholder?: string; disabled?: boolean; id?: string }) {
  return (
    <InputNumber
      id={props.id}
      style={{ width: '100%' }}
      precision={2}
      step={100}
      prefix="¥"
      disabled={props.disabled}
      placeholder={props.placeholder ?? '金额（元）'}
      value={fenToYuan(props.value)}
      onChange={(v) => props.onChange?.(yuanToFen(v ?? undefined))}
    />
  );
}
