/**
 * The worklist's dialogs (issue 14): each shows the case, asks what the action needs, confirms, and shows
 * the server's answer — a refusal in the dialog in the server's own Chinese words. 进项转出: the reason
 * (1–8) and the amount (元, default the effective tax, at most it); 更正: the field, the new value and a
 * note; 驳回: a note of 2–200 characters; 确认无误 and 撤销勾选: a confirmation; 确认转出建议 (issue 32): the status
 * re-check's proposal (amount, reason, period, how it was computed) confirmed into the voucher. 进项转出 opens with the proposal's
 * reason and amount when there is one.
 */
import { Alert, Descriptions, Form, Input, InputNumber, Modal, Select } from 'antd';
import { useMemo, useState } from 'react';
import { ABNORMAL_NOTE_MESSAGE, AbnormalCorrectField, formatFen, IncomeAbnormalFlag, TransferOutReason, type AbnormalActionAnswer, type AbnormalCaseRow } from '@zhyy/shared';
import { Money } from '../../common/Money';
import { abnormalApi } from './api';
import { ACTION_LABELS, type CaseAction } from './actions';

export interface CaseDialogProps {
  action: CaseAction;
  row: AbnormalCaseRow;
  onClose(): void;
  /** Called with the server's answer when the action succeeded. */
  onDone(a: AbnormalActionAnswer): void;
}

interface Values {
  reason?: number;
  amountYuan?: number;
  field?: string;
  value?: string;
  note?: string;
}

const newKey = () => (globalThis.crypto?.randomUUID ? globalThis.crypto.randomUUID() : `k${Date.now()}${Math.random().toString(16).slice(2)}`);
/** 'YYYYMM' as 2026年11月. */
export const periodText = (p: string) => (/^\d{6}$/.test(p) ? `${p.slice(0, 4)}年${Number(p.slice(4))}月` : '—');
const errorText = (e: unknown) => (e instanceof Error ? e.message : '操作失败，请稍后重试');

export function CaseDialog({ action, row, onClose, onDone }: CaseDialogProps) {
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  // One key per opened dialog: pressing 确定 again after a lost answer repeats the same request.
  const key = useMemo(newKey, []);
  const eff = row.effectiveTax ?? 0;

  const run = async (v: Values) => {
    switch (action) {
      case 'acceptProposal':
        return abnormalApi.acceptProposal({ caseId: row.id, idempotencyKey: key });
      case 'transferOut':
        return abnormalApi.transferOut({ caseId: row.id, reason: v.reason!, amount: Math.round((v.amountYuan ?? 0) * 100), idempotencyKey: key });
      case 'correct':
        return abnormalApi.correct({ caseId: row.id, field: v.field!, value: (v.value ?? '').trim(), note: (v.note ?? '').trim() });
      case 'reject':
        return abnormalApi.reject(row.id, (v.note ?? '').trim());
      case 'untick':
        return abnormalApi.untick(row.id);
      default:
        return abnormalApi.confirm(row.id, (v.note ?? '').trim());
    }
  };
  const submit = async () => {
    // An invalid form shows its messages under the fields; nothing is sent.
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    setBusy(true);
    setError('');
    try {
      onDone(await run(v));
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  const noteRule = { validator: (_: unknown, x?: string) => { const n = (x ?? '').trim().length; return n >= 2 && n <= 200 ? Promise.resolve() : Promise.reject(new Error(ABNORMAL_NOTE_MESSAGE)); } };
  return (
    <Modal open title={`${ACTION_LABELS[action]}：发票 ${row.invoiceNumber}`} okText="确定" cancelText="取消" onOk={() => void submit()} onCancel={onClose} confirmLoading={busy} destroyOnHidden maskClosable={false} data-testid={`case-dialog-${action}`}>
      <Descriptions size="small" column={2} style={{ marginBottom: 12 }}>
        <Descriptions.Item label="销方">{row.sellerName}</Descriptions.Item>
        <Descriptions.Item label="异常">{IncomeAbnormalFlag.label(row.flag)}</Descriptions.Item>
        <Descriptions.Item label="税额"><Money fen={row.tax} /></Descriptions.Item>
        <Descriptions.Item label="有效税额">{row.effectiveTax === null ? '未勾选' : <Money fen={eff} />}</Descriptions.Item>
      </Descriptions>
      <Form form={form} layout="vertical" name={`abnormal-${action}`} initialValues={{ amountYuan: (row.proposal?.amount ?? eff) / 100, reason: row.proposal?.reason ?? undefined, field: row.flag === 'buyerNotOurs' ? 'buyerName' : undefined }}>
        {action === 'acceptProposal' && row.proposal && (
          <>
            <Descriptions size="small" column={1} bordered data-testid="proposal">
              <Descriptions.Item label="建议转出税额"><Money fen={row.proposal.amount ?? 0} /></Descriptions.Item>
              <Descriptions.Item label="转出原因">{row.proposal.reason ? TransferOutReason.label(row.proposal.reason) : '—'}</Descriptions.Item>
              <Descriptions.Item label="所属期">{periodText(row.proposal.period)}</Descriptions.Item>
              <Descriptions.Item label="计算依据">{row.proposal.note}</Descriptions.Item>
            </Descriptions>
            <Alert type="info" showIcon style={{ marginTop: 12 }} title="确定后按建议生成进项转出凭证并推送会计系统，不能撤回。如需调整金额或原因，请使用「进项转出」。" />
          </>
        )}
        {action === 'transferOut' && (
          <>
            <Form.Item name="reason" label="转出原因" rules={[{ required: true, message: '请选择转出原因' }]}>
              <Select placeholder="请选择" options={TransferOutReason.options.map((o) => ({ value: o.value, label: `${o.value} ${o.label}` }))} data-testid="transfer-reason" />
            </Form.Item>
            <Form.Item
              name="amountYuan" label="转出税额（元）" extra={`不超过有效税额 ${formatFen(eff)} 元`}
              rules={[{ validator: (_, x?: number) => (x !== undefined && x !== null && x > 0 && Math.round(x * 100) <= eff ? Promise.resolve() : Promise.reject(new Error(`转出税额须大于0且不超过有效税额${formatFen(eff)}元`))) }]}
            >
              <InputNumber<number> min={0} precision={2} style={{ width: 200 }} data-testid="transfer-amount" formatter={(v, { userTyping, input }) => (userTyping ? input : v === undefined || `${v}` === '' ? '' : formatFen(Math.round(Number(v) * 100)))} parser={(v) => Number((v ?? '').replaceAll(',', ''))} />
            </Form.Item>
            <Alert type="info" showIcon title="确定后生成进项转出凭证并推送会计系统，不能撤回。" />
          </>
        )}
        {action === 'correct' && (
          <>
            <Form.Item name="field" label="更正字段" rules={[{ required: true, message: '请选择更正字段' }]}>
              <Select options={AbnormalCorrectField.options.map((o) => ({ value: o.value, label: o.label }))} />
            </Form.Item>
            <Form.Item name="value" label="更正后的值" rules={[{ max: 200, message: '更正后的值不能超过200个字符' }]}><Input maxLength={200} /></Form.Item>
            <Form.Item name="note" label="说明" rules={[noteRule]}><Input.TextArea rows={3} maxLength={200} showCount /></Form.Item>
          </>
        )}
        {action === 'reject' && (
          <Form.Item name="note" label="驳回说明" rules={[noteRule]}><Input.TextArea rows={3} maxLength={200} showCount placeholder="2至200个字符" /></Form.Item>
        )}
        {action === 'confirm' && (
          <Form.Item name="note" label="说明（可选）"><Input.TextArea rows={2} maxLength={200} showCount /></Form.Item>
        )}
        {action === 'untick' && <Alert type="warning" showIcon title="确定撤销该发票的勾选吗？撤销后本期不再抵扣。" />}
      </Form>
      {error && <Alert type="error" showIcon title={error} style={{ marginTop: 12 }} data-testid="case-dialog-error" />}
    </Modal>
  );
}
