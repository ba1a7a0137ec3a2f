/** 红字确认单 (/invoice/nuonuo/red-confirm-apply/edit/:id): reason, VAT usage, whole or chosen lines; apply, confirm, refuse, cancel. */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Checkbox, Descriptions, Form, Input, Result, Select, Skeleton, Space, Table } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { RedReason, VatUsage, formatFen, readAmountInput, type InvoiceLineRow, type RedConfirmDetail } from '@zhyy/shared';
import { invoiceApi } from '../../../api/invoice';
import { formatTime } from '../../../components/download';
import { useView } from '../../../router/view';
import { feedback } from '../../../ui/feedback';
import { INVOICE_KEY, Money, RedStateTag, askReason, confirmAction, redSettling } from '../widgets';
import { refetchWhileSettling } from '../../../components/settlePoll';

export default function RedConfirmEdit() {
  const { params } = useView();
  const id = Number(params.id);
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [refetchInterval] = useState(() => refetchWhileSettling<RedConfirmDetail>(redSettling));
  const q = useQuery({ queryKey: [...INVOICE_KEY, 'red-detail', id], queryFn: () => invoiceApi.redDetail(id), enabled: Number.isInteger(id), refetchInterval });
  const d = q.data;
  const [form] = Form.useForm<{ redReason: number; vatUsage: number }>();
  const [chosen, setChosen] = useState<Record<number, number>>({});
  // What the user typed per line, kept as typed: a wrong amount is said beside it, never clamped or zeroed.
  const [typed, setTyped] = useState<Record<number, string>>({});
  useEffect(() => {
    if (!d) return;
    setTyped({});
    form.setFieldsValue({ redReason: d.redReason, vatUsage: d.vatUsage });
    setChosen(Object.fromEntries(d.lines.map((l) => [l.blueLineNo, -l.amountIncl])));
  }, [d, form]);
  if (q.isLoading) return <Card><Skeleton active /></Card>;
  if (!d) return <Card><Result status="warning" title="红字确认单不存在" extra={<Button onClick={() => navigate('/invoice/nuonuo/red-confirm-apply')}>返回列表</Button>} /></Card>;
  const reload = () => void qc.invalidateQueries({ queryKey: INVOICE_KEY });
  const run = async (fn: () => Promise<{ message?: string }>) => {
    try {
      const a = await fn();
      void feedback().message.success(a.message ?? '操作成功');
      reload();
    } catch { /* shown by the request layer */ }
  };
  const editable = d.can.save;
  const selectedTotal = Object.values(chosen).reduce((s, v) => s + v, 0);
  const readLine = (l: InvoiceLineRow, text: string) => readAmountInput(text, { label: '红冲金额', maxFen: Math.abs(l.amountIncl), maxLabel: '蓝字含税金额' });
  const lineError = (l: InvoiceLineRow) => {
    const text = typed[l.lineNo];
    if (text === undefined) return null;
    const r = readLine(l, text);
    return r.ok ? null : r.error;
  };
  const shownLines = d.blueLines.length ? d.blueLines : d.lines;
  const save = async () => {
    const v = await form.validateFields();
    if (shownLines.some((l) => lineError(l))) {
      void feedback().message.error('红冲金额有误，请按提示改正后再保存');
      return;
    }
    const whole = d.blueLines.every((l) => chosen[l.lineNo] === l.amountIncl);
    const lines = whole ? [] : Object.entries(chosen).filter(([, v2]) => v2 > 0).map(([lineNo, amt]) => ({ lineNo: Number(lineNo), amountIncl: -amt }));
    await run(() => invoiceApi.redSave({ id, redReason: v.redReason as 1, vatUsage: v.vatUsage as 1, lines }));
  };
  return (
    <Card title={`红字确认单 ${d.id}`} extra={<Button onClick={() => navigate('/invoice/nuonuo/red-confirm-apply')}>返回列表</Button>} data-testid="red-confirm-edit">
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        {d.state === '16' ? <Alert type="error" showIcon title={`申请失败：${d.message}`} /> : null}
        <Descriptions size="small" bordered column={3} items={[
          { key: 's', label: '状态', children: <RedStateTag state={d.state} /> },
          { key: 'dir', label: '申请方', children: d.direction === 'seller' ? '销方（我方）' : '购方' },
          { key: 'b', label: '蓝字发票', children: d.blueInvoiceNo },
          { key: 'buyer', label: '购买方', children: d.buyerName },
          { key: 'amt', label: '红冲金额', children: <Money fen={d.amountIncl} strong /> },
          { key: 'red', label: '红字发票', children: d.redInvoiceNo || (d.redInvoiceId ? '已开具，正在获取' : '—') },
          { key: 'by', label: '创建', children: `${d.createdByName} ${formatTime(d.createdAt)}` },
          { key: 'msg', label: '税务端说明', span: 2, children: d.message || '—' },
        ]} />
        <Form form={form} layout="inline" name="red-confirm" disabled={!editable}>
          <Form.Item name="redReason" label="红冲原因" rules={[{ required: true, message: '请选择红冲原因' }]}><Select style={{ width: 140 }} options={RedReason.options.map((o) => ({ value: o.value, label: o.label }))} /></Form.Item>
          <Form.Item name="vatUsage" label="增值税用途" rules={[{ required: true, message: '请选择增值税用途' }]}><Select style={{ width: 140 }} options={VatUsage.options.map((o) => ({ value: o.value, label: o.label }))} /></Form.Item>
        </Form>
        <Table<InvoiceLineRow> rowKey="lineNo" size="small" pagination={false} dataSource={shownLines} columns={[
          { title: '红冲', width: 60, render: (_: unknown, l) => <Checkbox disabled={!editable} checked={(chosen[l.lineNo] ?? 0) > 0} onChange={(e) => { setTyped(({ [l.lineNo]: _drop, ...rest }) => rest); setChosen((c) => ({ ...c, [l.lineNo]: e.target.checked ? l.amountIncl : 0 })); }} /> },
          { title: '序号', dataIndex: 'lineNo', width: 60 },
          { title: '货物或应税劳务名称', dataIndex: 'goodsName' },
          { title: '蓝字含税金额', dataIndex: 'amountIncl', align: 'right', width: 140, render: (v: number) => <Money fen={v} /> },
          { title: '红冲含税金额（元）', width: 240, render: (_: unknown, l) => {
            const error = lineError(l);
            return (
              <Form.Item validateStatus={error ? 'error' : undefined} help={error} style={{ margin: 0 }}>
                <Input
                  disabled={!editable}
                  aria-label={`第${l.lineNo}行红冲含税金额`}
                  inputMode="decimal"
                  value={typed[l.lineNo] ?? formatFen(chosen[l.lineNo] ?? 0)}
                  onChange={(e) => {
                    const text = e.target.value;
                    setTyped((t) => ({ ...t, [l.lineNo]: text }));
                    const r = readLine(l, text);
                    if (r.ok) setChosen((c) => ({ ...c, [l.lineNo]: r.fen }));
                  }}
                  style={{ width: 200, textAlign: 'right' }}
                />
              </Form.Item>
            );
          } },
        ]} />
        <span>本次红冲含税金额合计：{formatFen(-selectedTotal)} 元</span>
        <Space>
          {d.can.save ? <Button onClick={() => void save().catch(() => undefined)}>保存</Button> : null}
          {d.can.apply ? <Button type="primary" onClick={async () => { if (await confirmAction('提交红字确认单', '提交后将发送至税务端，确定提交吗？')) await run(() => invoiceApi.redApply(id)); }}>提交申请</Button> : null}
          {d.can.confirm ? <Button type="primary" onClick={async () => { if (await confirmAction('确认红字确认单', '确认后税务端将自动开具红字发票，确定吗？')) await run(() => invoiceApi.redConfirm(id)); }}>确认</Button> : null}
          {d.can.refuse ? <Button danger onClick={async () => { const r = await askReason('拒绝红字确认单', '拒绝原因'); if (r) await run(() => invoiceApi.redRefuse(id, r)); }}>拒绝</Button> : null}
          {d.can.cancel ? <Button danger onClick={async () => { if (await confirmAction('撤销红字确认单', '撤销后不可恢复，确定撤销吗？')) await run(() => invoiceApi.redCancel(id)); }}>撤销</Button> : null}
        </Space>
      </Space>
    </Card>
  );
}
