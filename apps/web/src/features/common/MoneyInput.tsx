/** An amount kept in 分 and typed in 元 with two decimals (the workflow forms, the reimbursement bills). */
import { InputNumber } from 'antd';

const fenToYuan = (fen: unknown) => (typeof fen === 'number' ? fen / 100 : undefined);
const yuanToFen = (yuan: unknown) => (typeof yuan === 'number' && Number.isFinite(yuan) ? Math.round(yuan * 100) : undefined);

/** Money kept in 分, typed in 元 with two decimals. */
export function MoneyInput(props: { value?: number | null; onChange?: (fen: number | undefined) => void; placeholder?: string; disabled?: boolean; id?: string }) {
  return (
    <InputNumber
      id={props.id}
      style={{ width: '100%' }}
      min={0}
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
