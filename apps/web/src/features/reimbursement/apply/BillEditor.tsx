/**
 * The bill editor (草稿 / 已退回, by the applicant): header, the lines (BillLines.tsx: category, date, travel
 * details, amount, tax rate, the invoice from the pool, the checks per line — red blocks the submit, orange
 * warns the approvers), attachments; 保存草稿 / 提交 / 删除 with confirmation (提交 asks only once the
 * required fields are filled). The sums are the server's; the editor shows the same arithmetic while typing
 * (reimbursement-rules.ts); the form's values and the save body are billForm.ts's.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Checkbox, Col, DatePicker, Form, Input, Popconfirm, Row, Space, Typography, Upload } from 'antd';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { billSums, formatFen, lineChecks, taxOfIncluded, type ReimbBillDetail, type ReimbCandidate, type ReimbCheck, type ReimbInvoiceInfo } from '@zhyy/shared';
import { reimbApi } from '../../../api/reimbursement';
import { feedback } from '../../../ui/feedback';
import { amountFen, amountText, day, initialValues, isInBillMatch, toSaveBody, typedDuplicates, type LineValues, type Values } from './billForm';
import { BillLines } from './BillLines';
import { Attachments } from './BillView';
import { REIMB_KEY } from './common';
import { InvoicePicker } from './InvoicePicker';

export function BillEditor({ bill }: { bill?: ReimbBillDetail }) {
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [form] = Form.useForm<Values>();
  const options = useQuery({ queryKey: [...REIMB_KEY, 'options'], queryFn: () => reimbApi.options() });
  const [invoices, setInvoices] = useState<Record<string, ReimbInvoiceInfo>>(() => Object.fromEntries((bill?.lines ?? []).flatMap((l) => (l.invoice ? [[l.invoice.id, l.invoice]] : []))));
  const [picking, setPicking] = useState<number | null>(null);
  const [busy, setBusy] = useState<'' | 'save' | 'submit' | 'delete'>('');
  const [confirming, setConfirming] = useState(false);
  const watchedLines = Form.useWatch('lines', { form, preserve: true }) as LineValues[] | undefined;
  const cats = useMemo(() => new Map((options.data?.categories ?? []).map((c) => [c.code, c])), [options.data]);
  const saved = bill?.lines ?? [];
  const id = bill?.id;

  if (options.isPending) return <Card loading />;
  const lines = watchedLines ?? [];
  const rateOf = (l: LineValues) => l.taxRate || cats.get(l.categoryCode ?? '')?.defaultTaxRate || '0';
  const sums = billSums(lines.map((l) => ({ amount: amountFen(l.amount), approvedAmount: null, tax: taxOfIncluded(amountFen(l.amount), rateOf(l)), deductibleTax: 0 })));
  // The same receipt entered twice in this bill, while typing (issue 32 #4).
  const typedDupes = typedDuplicates(lines, (invoiceId) => invoices[invoiceId]?.sellerName ?? '');
  /** The line's findings now: the invoice checks and the matches within the bill while typing, the server's others from the last save. */
  const checksOf = (i: number): ReimbCheck[] => {
    const l = lines[i];
    if (!l) return [];
    const inv = l.invoiceId ? invoices[l.invoiceId] : undefined;
    const live = lineChecks({
      amount: amountFen(l.amount),
      travelKind: '',
      nights: null,
      seatClass: '',
      today: day(dayjs()),
      invoiceAgeDays: options.data?.invoiceAgeDays ?? 365,
      invoice: inv ? { number: inv.number, total: inv.amountIncl, issueDate: inv.issueDate, buyerMismatch: inv.buyerMismatch, deadState: [2, 3, 8].includes(inv.invoiceState) ? '状态异常' : '' } : null,
      duplicateClaims: typedDupes[i] ?? [],
    });
    // Other bills' matches stay the server's (from the last save); those within the bill are the typed ones above.
    const server = (saved[i]?.checks ?? []).filter((c) => (c.code === 'duplicateClaim' ? !isInBillMatch(c, id) : !live.some((x) => x.code === c.code)) && !['invoiceShort', 'buyerNotOurs', 'invoiceTooOld', 'invoiceDead'].includes(c.code));
    return [...live, ...server];
  };
  const blocked = lines.some((_, i) => checksOf(i).some((c) => c.level === 'block'));

  const save = async (then?: 'submit') => {
    let v: Values;
    try {
      await form.validateFields();
      // Every value, also those without a field of their own (a line's invoice).
      v = form.getFieldsValue(true) as Values;
    } catch {
      return;
    }
    setBusy(then ?? 'save');
    try {
      const a = await reimbApi.save(toSaveBody(v, id));
      if (a.code !== 20000 || !a.r) return void feedback().message.error(a.message ?? '保存失败');
      const billId = a.r.id;
      if (then === 'submit') {
        const s = await reimbApi.submit(billId);
        if (s.code !== 20000) {
          void feedback().message.error(s.message ?? '提交失败');
          void qc.invalidateQueries({ queryKey: REIMB_KEY });
          if (!id) navigate(`/my/reimbursement/detail/${billId}`, { replace: true });
          return;
        }
        void feedback().message.success(s.message ?? '已提交');
      } else void feedback().message.success(a.message ?? '已保存');
      await qc.invalidateQueries({ queryKey: REIMB_KEY });
      if (!id) navigate(`/my/reimbursement/detail/${billId}`, { replace: true });
    } finally {
      setBusy('');
    }
  };
  /** 提交 asks to confirm only once the bill is complete: required fields first, each problem on its field (issue 31 #7). */
  const askSubmit = async () => {
    try {
      await form.validateFields();
    } catch {
      return;
    }
    const v = form.getFieldsValue(true) as Values;
    if (!(v.lines ?? []).length) return void feedback().message.error('请至少填写一行费用明细');
    const missing = (['payeeName', 'payeeAccount'] as const).filter((k) => !v[k]?.trim());
    if (missing.length) return form.setFields(missing.map((k) => ({ name: k, errors: [k === 'payeeName' ? '提交前请填写收款人' : '提交前请填写收款账号'] })));
    setConfirming(true);
  };
  const remove = async () => {
    if (!id) return;
    setBusy('delete');
    try {
      const a = await reimbApi.remove(id);
      if (a.code !== 20000) return void feedback().message.error(a.message ?? '删除失败');
      void feedback().message.success(a.message ?? '已删除');
      await qc.invalidateQueries({ queryKey: REIMB_KEY });
      navigate('/reimbursement/my-reimbursement-list');
    } finally {
      setBusy('');
    }
  };
  const pick = (c: ReimbCandidate) => {
    if (picking === null) return;
    setInvoices((m) => ({ ...m, [c.id]: c }));
    const ls = [...(form.getFieldValue('lines') as LineValues[])];
    const l = { ...ls[picking], invoiceId: c.id };
    if (!amountFen(l.amount)) l.amount = amountText(c.amountIncl);
    ls[picking] = l;
    form.setFieldValue('lines', ls);
    setPicking(null);
  };
  const uploadAttachment = async (f: File) => {
    if (!id) return false;
    const content = await new Promise<string>((resolve, reject) => {
      const r = new FileReader();
      r.onload = () => resolve(String(r.result).replace(/^data:[^,]*,/, ''));
      r.onerror = () => reject(new Error('读取文件失败'));
      r.readAsDataURL(f);
    });
    const a = await reimbApi.uploadAttachment(id, f.name, content);
    if (a.code !== 20000) void feedback().message.error(a.message ?? '上传失败');
    else void feedback().message.success('上传成功');
    await qc.invalidateQueries({ queryKey: REIMB_KEY });
    return false;
  };

  const taken = lines.flatMap((l) => (l.invoiceId ? [l.invoiceId] : []));
  return (
    <Form form={form} layout="vertical" scrollToFirstError initialValues={initialValues(bill, options.data?.profile)} data-testid="bill-editor">
      <Space direction="vertical" size={12} style={{ width: '100%' }}>
        <Card
          size="small"
          title={bill ? `费用报销单 ${bill.billNo}（${bill.flowStateName}）` : '新建费用报销单'}
          extra={
            <Typography.Text type="secondary">
              申请人：{options.data?.applicantName}（{options.data?.deptName}） 职级：{options.data?.profile.gradeName}
            </Typography.Text>
          }
        >
          {bill?.flowState === 2 ? <Alert type="warning" showIcon title="报销单已退回，请根据审批意见修改后重新提交" style={{ marginBottom: 12 }} /> : null}
          <Row gutter={12}>
            <Col xs={24} md={8}>
              <Form.Item name="period" label="费用期间" rules={[{ required: true, message: '请选择费用期间' }]}>
                <DatePicker.RangePicker style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item name="projectName" label="所属项目">
                <Input maxLength={100} allowClear />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item name="contractNo" label="合同编号">
                <Input maxLength={64} allowClear />
              </Form.Item>
            </Col>
            <Col span={24}>
              <Form.Item name="reason" label="报销事由" rules={[{ required: true, whitespace: true, message: '请填写报销事由' }]}>
                <Input.TextArea maxLength={500} rows={2} showCount />
              </Form.Item>
            </Col>
            <Col xs={24} md={6}>
              <Form.Item name="payeeName" label="收款人">
                <Input maxLength={50} />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item name="payeeBank" label="开户行">
                <Input maxLength={100} />
              </Form.Item>
            </Col>
            <Col xs={24} md={6}>
              <Form.Item name="payeeAccount" label="收款账号" rules={[{ pattern: /^[0-9 ]*$/, message: '收款账号只能包含数字' }]}>
                <Input maxLength={40} />
              </Form.Item>
            </Col>
            <Col xs={24} md={4}>
              <Form.Item name="saveAsDefault" label=" " valuePropName="checked">
                <Checkbox>设为我的默认收款信息</Checkbox>
              </Form.Item>
            </Col>
          </Row>
        </Card>
        <BillLines
          lines={lines}
          categories={options.data?.categories ?? []}
          invoices={invoices}
          sums={sums}
          checksOf={checksOf}
          rateOf={rateOf}
          onPick={setPicking}
          onUnpick={(i) => form.setFieldValue(['lines', i, 'invoiceId'], null)}
        />
        {bill ? (
          <Attachments
            b={bill}
            extra={
              <Upload showUploadList={false} beforeUpload={(f) => { void uploadAttachment(f); return false; }}>
                <Button size="small">上传附件</Button>
              </Upload>
            }
          />
        ) : (
          <Typography.Text type="secondary">保存草稿后可上传附件（行程单、说明等）。</Typography.Text>
        )}
        {bill?.attachments.length ? (
          <Space wrap>
            {bill.attachments.map((a) => (
              <Popconfirm key={a.id} title={`删除附件「${a.name}」？`} onConfirm={() => void reimbApi.deleteAttachment(a.id).then(() => qc.invalidateQueries({ queryKey: REIMB_KEY }))}>
                <Button size="small" danger type="text">
                  删除 {a.name}
                </Button>
              </Popconfirm>
            ))}
          </Space>
        ) : null}
        {blocked ? <Alert type="error" showIcon title="有费用明细未通过检查（红色标记），请修改后再提交" /> : null}
        <Space>
          <Button onClick={() => void save()} loading={busy === 'save'} data-testid="save-bill">
            保存草稿
          </Button>
          <Popconfirm
            open={confirming}
            onOpenChange={(o) => (o ? undefined : setConfirming(false))}
            title={`提交报销单审批？报销金额 ${formatFen(sums.amount)} 元`}
            onConfirm={() => {
              setConfirming(false);
              void save('submit');
            }}
            disabled={blocked}
          >
            <Button type="primary" loading={busy === 'submit'} disabled={blocked} onClick={() => void askSubmit()} data-testid="submit-bill">
              提交
            </Button>
          </Popconfirm>
          {bill?.can.delete ? (
            <Popconfirm title="删除该报销单草稿？所选发票将释放" onConfirm={() => void remove()}>
              <Button danger loading={busy === 'delete'} data-testid="delete-bill">
                删除
              </Button>
            </Popconfirm>
          ) : null}
          <Button onClick={() => navigate('/reimbursement/my-reimbursement-list')}>返回</Button>
        </Space>
      </Space>
      <InvoicePicker open={picking !== null} billId={id} taken={taken} onPick={pick} onClose={() => setPicking(null)} />
    </Form>
  );
}
