/**
 * 签收归档 dialog of 进项发票登记, 签收归档 and 部门签收: the chosen invoices are signed against one business
 * document (单据类型 报销单/合同/项目/其他, 单据号 unless 其他, 说明 for 其他 — the rules and messages of
 * SignBody), then each invoice's outcome is shown: its archive number GD… or why it failed, under the
 * summary 签收成功n张，失败m张 (，待核实k张 when the archive side did not answer: those stay 签收中 until the server settles them). A refusal of the whole call (no department, 权限不足 …) stays in the dialog in
 * the server's words. The call is a change, so the badge counts refresh at once (api.request → onChanged).
 */
import { Alert, Button, Form, Input, Modal, Select, Table, Tag, Typography } from 'antd';
import type { FormRule } from 'antd';
import { useState } from 'react';
import { IncomeSignDocType, IncomeSignState, SignBody, type IncomeSignDocTypeCode, type PoolRow, type SignAnswer } from '@zhyy/shared';
import { ApiError } from '../../../api/errors';
import { incomeEntryApi, type EntryScope } from '../../../api/incomeEntry';
import { Money } from '../../common/Money';
import { poolNumber } from '../pool/request';

interface SignForm {
  docType?: IncomeSignDocTypeCode;
  docNo?: string;
  note?: string;
}

/** The first SignBody message about `field`, for the form values and the chosen invoices; undefined when none. */
export function signIssue(ids: readonly string[], v: SignForm, field: keyof SignForm | 'invoiceIds'): string | undefined {
  const r = SignBody.safeParse({ invoiceIds: [...ids], docType: v.docType, docNo: v.docNo ?? '', note: v.note ?? '' });
  return r.success ? undefined : r.error.issues.find((i) => i.path[0] === field)?.message;
}

const DOC_NO_HINT: Record<string, string> = { reimbursement: '报销单号', contract: '合同编号', project: '项目编号，如 XM2026-001', other: '可不填' };

export interface SignDialogProps {
  scope: EntryScope;
  open: boolean;
  /** The invoices chosen on the list. */
  rows: readonly PoolRow[];
  onClose: () => void;
  /** The call answered: the lists reload and the selection clears. */
  onSigned?: (a: SignAnswer) => void;
}

export function SignDialog({ scope, open, rows, onClose, onSigned }: SignDialogProps) {
  const [form] = Form.useForm<SignForm>();
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState('');
  const [answer, setAnswer] = useState<{ a: SignAnswer; message: string; rows: readonly PoolRow[] } | null>(null);
  const docType = Form.useWatch('docType', form);
  const ids = rows.map((r) => r.id);
  const idIssue = signIssue(ids, { docType: 'other', note: '—' }, 'invoiceIds');
  const total = rows.reduce((s, r) => s + r.amountIncl, 0);

  const rule = (field: keyof SignForm): FormRule => ({ getFieldsValue }) => ({
    validator: async () => {
      const m = signIssue(ids, getFieldsValue() as SignForm, field);
      if (m) throw new Error(m);
    },
  });

  const close = () => {
    if (busy) return;
    setAnswer(null);
    setRefusal('');
    form.resetFields();
    onClose();
  };

  const submit = async (v: SignForm) => {
    setBusy(true);
    setRefusal('');
    try {
      const body = SignBody.parse({ invoiceIds: ids, docType: v.docType, docNo: v.docNo ?? '', note: v.note ?? '' });
      const res = await incomeEntryApi.sign(scope, body);
      const a = res.r as SignAnswer;
      setAnswer({ a, message: res.message || `签收成功${a.signed}张，失败${a.failed}张${a.pending ? `，待核实${a.pending}张` : ''}`, rows: [...rows] });
      onSigned?.(a);
    } catch (e) {
      // Every invoice refused (30000, issue 27 item 8): the answer beside the refusal lists each one's reason.
      const a = e instanceof ApiError ? (e.envelope?.r as SignAnswer | undefined) : undefined;
      if (a && Array.isArray(a.outcomes) && a.outcomes.length) {
        setAnswer({ a, message: e instanceof Error ? e.message : '签收失败', rows: [...rows] });
        onSigned?.(a);
      } else setRefusal(e instanceof Error && e.message ? e.message : '签收失败，请稍后重试');
    } finally {
      setBusy(false);
    }
  };

  if (answer) {
    const byId = new Map(answer.rows.map((r) => [r.id, r]));
    return (
      <Modal open={open} title="签收结果" width={1000} onCancel={close} destroyOnHidden footer={<Button type="primary" onClick={close} data-testid="sign-result-close">关闭</Button>}>
        <Alert
          type={answer.a.failed ? (answer.a.signed || answer.a.pending ? 'warning' : 'error') : answer.a.pending ? 'warning' : 'success'} showIcon style={{ marginBottom: 12 }}
          title={answer.message} data-testid="sign-summary"
        />
        <Table
          size="small" rowKey="invoiceId" pagination={answer.a.outcomes.length > 10 ? { pageSize: 10 } : false} dataSource={answer.a.outcomes} data-testid="sign-outcomes"
          scroll={{ x: 940 }}
          columns={[
            { title: '发票号码', key: 'no', width: 190, render: (_, o) => { const r = byId.get(o.invoiceId); return r ? poolNumber(r) || '—' : '—'; } },
            { title: '销方名称', key: 'seller', width: 170, ellipsis: true, render: (_, o) => byId.get(o.invoiceId)?.sellerName ?? '—' },
            { title: '价税合计', key: 'amount', width: 130, align: 'right', render: (_, o) => { const r = byId.get(o.invoiceId); return r ? <Money fen={r.amountIncl} /> : '—'; } },
            {
              title: '结果', key: 'state', width: 90,
              // 签收中: the archive side did not answer; the server settles it (待核实), it is not a failure.
              render: (_, o) =>
                o.signState === IncomeSignState.signed && o.archiveNo ? <Tag color="success">签收成功</Tag> : o.signState === IncomeSignState.applying ? <Tag color="processing">待核实</Tag> : <Tag color="error">签收失败</Tag>,
            },
            { title: '档案号', key: 'archiveNo', width: 150, render: (_, o) => (o.archiveNo ? <Typography.Text strong data-testid="sign-archive-no">{o.archiveNo}</Typography.Text> : '—') },
            // The reason is read whole: it wraps rather than being cut.
            { title: '说明', dataIndex: 'message', width: 220 },
          ]}
        />
      </Modal>
    );
  }

  return (
    <Modal
      open={open} title="签收归档" okText="签收" cancelText="取消" confirmLoading={busy} onOk={() => form.submit()} onCancel={close} destroyOnHidden
      okButtonProps={{ disabled: !!idIssue, ...{ 'data-testid': 'sign-submit' } }}
    >
      <div data-testid="sign-dialog">
        <Typography.Paragraph>
          已选择 <Typography.Text strong>{rows.length}</Typography.Text> 张发票，价税合计 <Money fen={total} strong /> 元
        </Typography.Paragraph>
        {idIssue ? <Alert type="warning" showIcon style={{ marginBottom: 12 }} title={idIssue} data-testid="sign-ids-issue" /> : null}
        {refusal ? <Alert type="error" showIcon style={{ marginBottom: 12 }} title={refusal} data-testid="sign-refusal" /> : null}
        <Form form={form} name="income-sign" layout="vertical" onFinish={(v) => void submit(v)} preserve={false}>
          <Form.Item name="docType" label="单据类型" rules={[{ required: true, message: '请选择单据类型' }]}>
            <Select placeholder="请选择" options={IncomeSignDocType.options.map((o) => ({ value: o.value, label: o.label }))} />
          </Form.Item>
          <Form.Item name="docNo" label="单据号" dependencies={['docType']} required={!!docType && docType !== 'other'} rules={[rule('docNo')]}>
            <Input maxLength={40} placeholder={docType ? DOC_NO_HINT[docType] : '请先选择单据类型'} />
          </Form.Item>
          <Form.Item name="note" label="说明" dependencies={['docType']} required={docType === 'other'} rules={[rule('note')]}>
            <Input.TextArea maxLength={200} showCount rows={2} placeholder={docType === 'other' ? '请说明签收依据' : '选填'} />
          </Form.Item>
        </Form>
      </div>
    </Modal>
  );
}
