/**
 * The entry form of role 5 (新增开票申请, 修改, and the correction of a failed request): buyer picked
 * from the buyer list, lines with the tax code lookup, amounts and totals computed live with the
 * shared rules (decimal arithmetic), and every DOMAIN.md check shown before saving.
 */
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Col, Drawer, Form, Input, Row, Select, Space, Table, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import {
  EMPTY_ID, InvoiceColour, InvoiceKind, SpecialFactor, TAX_RATES, TaxPolicy, capitalAmount, checkInvoice, computeLine, formatFen, isDecimalText, sumLines,
  type InvoiceDetail, type InvoiceSaveBody,
} from '@zhyy/shared';
import { invoiceApi } from '../../api/invoice';
import { INVOICE_KEY, Money } from './widgets';

interface LineForm { taxCode?: string; goodsName?: string; spec?: string; unit?: string; quantity?: string; unitPrice?: string; taxRate?: string; policy?: number }
type HeaderForm = Omit<InvoiceSaveBody, 'lines' | 'id'> & { lines: LineForm[] };

function toLines(lines: LineForm[] = []): InvoiceSaveBody['lines'] {
  return lines.map((l) => {
    const quantity = (l.quantity ?? '').trim();
    const unitPrice = (l.unitPrice ?? '').trim();
    const ok = quantity && unitPrice && isDecimalText(quantity) && isDecimalText(unitPrice);
    const a = ok ? computeLine({ quantity, unitPrice, priceIncludesTax: true, taxRate: l.taxRate ?? '0.09' }) : { amountExcl: 0, tax: 0, amountIncl: 0 };
    return { goodsName: l.goodsName ?? '', taxCode: l.taxCode ?? '', spec: l.spec ?? '', unit: l.unit ?? '', quantity, unitPrice, priceIncludesTax: true, taxRate: l.taxRate ?? '0.09', policy: (l.policy ?? 0) as 0, lineProperty: 0, amountExcl: a.amountExcl, tax: a.tax, amountIncl: a.amountIncl };
  });
}

export function EntryDrawer(props: { open: boolean; initial?: InvoiceDetail | null; title: string; onClose: () => void; onSubmit: (body: InvoiceSaveBody) => Promise<boolean> }) {
  const [form] = Form.useForm<HeaderForm>();
  const [saving, setSaving] = useState(false);
  const [buyerSearch, setBuyerSearch] = useState('');
  const [refSearch, setRefSearch] = useState('');
  const setting = useQuery({ queryKey: [...INVOICE_KEY, 'creation-setting'], queryFn: invoiceApi.creationSetting, enabled: props.open });
  const buyers = useQuery({ queryKey: [...INVOICE_KEY, 'buyers', buyerSearch], queryFn: () => invoiceApi.buyers({ pageIndex: 1, pageSize: 50, keyword: buyerSearch || undefined }), enabled: props.open });
  const projects = useQuery({ queryKey: [...INVOICE_KEY, 'projects', refSearch], queryFn: () => invoiceApi.projects(refSearch || undefined), enabled: props.open });
  const contracts = useQuery({ queryKey: [...INVOICE_KEY, 'contracts', refSearch], queryFn: () => invoiceApi.contracts(refSearch || undefined), enabled: props.open });
  const watched = Form.useWatch([], form) as HeaderForm | undefined;
  const codes = setting.data?.taxCodes ?? [];

  useEffect(() => {
    if (!props.open) return;
    const d = props.initial;
    form.resetFields();
    if (d) form.setFieldsValue({ ...d, lines: d.lines.map((l) => ({ ...l })) } as never);
    else form.setFieldsValue({ kind: (setting.data?.defaultKind ?? InvoiceKind.bs) as 9, specialFactor: 0, lines: [{ taxRate: '0.09', policy: 0, quantity: '1' }] } as never);
  }, [props.open, props.initial, setting.data?.defaultKind, form]);

  const lines = useMemo(() => toLines(watched?.lines), [watched?.lines]);
  const totals = sumLines(lines);
  const problems = watched ? checkInvoice({ kind: watched.kind ?? 9, colour: InvoiceColour.blue, buyerName: watched.buyerName ?? '', buyerTaxNo: watched.buyerTaxNo ?? '', buyerAddress: watched.buyerAddress ?? '', buyerPhone: watched.buyerPhone ?? '', buyerBank: watched.buyerBank ?? '', buyerAccount: watched.buyerAccount ?? '', specialFactor: watched.specialFactor ?? 0, constructionSite: watched.constructionSite, constructionProject: watched.constructionProject }, lines) : [];

  const pickBuyer = (id: string) => {
    const b = buyers.data?.items.find((x) => x.id === id);
    if (b) form.setFieldsValue({ buyerId: b.id, buyerName: b.name, buyerTaxNo: b.taxNo, buyerAddress: b.address, buyerPhone: b.phone, buyerBank: b.bank, buyerAccount: b.account, buyerEmail: b.email, buyerMobile: b.mobile, kind: b.defaultKind as 9 });
  };
  const pickCode = (index: number, code: string) => {
    const c = codes.find((x) => x.code === code);
    if (!c) return;
    const current = form.getFieldValue(['lines', index]) as LineForm;
    form.setFieldValue(['lines', index], { ...current, taxCode: c.code, goodsName: current.goodsName || `*${c.shortName}*${c.name}`, taxRate: c.taxRate, policy: c.policy });
  };

  const submit = async () => {
    const v = await form.validateFields();
    if (problems.length) return;
    setSaving(true);
    try {
      const body: InvoiceSaveBody = {
        ...v, id: props.initial?.id ?? EMPTY_ID, buyerId: v.buyerId ?? null, projectId: v.projectId ?? null, contractId: v.contractId ?? null,
        buyerTaxNo: v.buyerTaxNo ?? '', buyerAddress: v.buyerAddress ?? '', buyerPhone: v.buyerPhone ?? '', buyerBank: v.buyerBank ?? '', buyerAccount: v.buyerAccount ?? '',
        buyerEmail: v.buyerEmail ?? '', buyerMobile: v.buyerMobile ?? '', constructionSite: v.constructionSite ?? '', constructionProject: v.constructionProject ?? '',
        remark: v.remark ?? '', clerk: v.clerk ?? '', payee: v.payee ?? '', checker: v.checker ?? '', lines,
      };
      if (await props.onSubmit(body)) props.onClose();
    } finally {
      setSaving(false);
    }
  };

  const col = (label: string, name: keyof HeaderForm, node: React.ReactNode, span = 8, required = false) => (
    <Col span={span}><Form.Item name={name} label={label} rules={required ? [{ required: true, message: `请填写${label}` }] : undefined}>{node}</Form.Item></Col>
  );

  return (
    <Drawer open={props.open} onClose={props.onClose} size={1100} title={props.title} destroyOnHidden
      extra={<Space><Button onClick={props.onClose}>取消</Button><Button type="primary" loading={saving} disabled={problems.length > 0} onClick={() => void submit().catch(() => undefined)}>保存</Button></Space>}>
      <Form form={form} layout="vertical" name="invoice-entry" size="small">
        <Row gutter={12}>
          {col('发票种类', 'kind', <Select options={InvoiceKind.options.map((o) => ({ value: o.value, label: o.label }))} />, 8, true)}
          <Col span={16}>
            <Form.Item name="buyerId" label="选择购方">
              <Select showSearch={{ filterOption: false, onSearch: setBuyerSearch }} allowClear placeholder="输入名称或税号查找购方" onChange={(v: string) => v && pickBuyer(v)}
                options={(buyers.data?.items ?? []).map((b) => ({ value: b.id, label: `${b.name}　${b.taxNo}` }))} />
            </Form.Item>
          </Col>
          {col('购买方名称', 'buyerName', <Input maxLength={100} />, 12, true)}
          {col('购买方税号', 'buyerTaxNo', <Input maxLength={20} />, 12)}
          {col('地址', 'buyerAddress', <Input maxLength={100} />)}
          {col('电话', 'buyerPhone', <Input maxLength={30} />)}
          {col('交付邮箱', 'buyerEmail', <Input maxLength={100} />)}
          {col('开户行', 'buyerBank', <Input maxLength={100} />, 12)}
          {col('账号', 'buyerAccount', <Input maxLength={50} />, 12)}
          {col('项目', 'projectId', <Select allowClear showSearch={{ filterOption: false, onSearch: setRefSearch }} placeholder="选择项目" options={(projects.data ?? []).map((p) => ({ value: p.id, label: `${p.code} ${p.name}` }))} />, 12)}
          {col('合同', 'contractId', <Select allowClear showSearch={{ filterOption: false, onSearch: setRefSearch }} placeholder="选择合同" options={(contracts.data ?? []).map((c) => ({ value: c.id, label: `${c.code} ${c.name}` }))} />, 12)}
          {col('特定业务', 'specialFactor', <Select options={SpecialFactor.options.map((o) => ({ value: o.value, label: o.label }))} />)}
          {watched?.specialFactor === SpecialFactor.construction ? (
            <>
              {col('建筑服务发生地', 'constructionSite', <Input maxLength={100} />)}
              {col('建筑项目名称', 'constructionProject', <Input maxLength={100} />)}
            </>
          ) : null}
          {col('备注', 'remark', <Input maxLength={200} />, 24)}
        </Row>
        <Typography.Title level={5}>开票明细</Typography.Title>
        <Form.List name="lines">
          {(fields, { add, remove }) => (
            <>
              <Table size="small" pagination={false} rowKey="key" dataSource={fields} scroll={{ x: 1000 }} columns={[
                { title: '税收分类编码', width: 200, render: (_: unknown, f) => <Form.Item name={[f.name, 'taxCode']} noStyle><Select showSearch={{ optionFilterProp: 'label' }} placeholder="查找编码" style={{ width: 190 }} onChange={(v: string) => pickCode(f.name, v)} options={codes.map((c) => ({ value: c.code, label: `${c.shortName}-${c.name} ${c.code}` }))} /></Form.Item> },
                { title: '货物或应税劳务名称', render: (_: unknown, f) => <Form.Item name={[f.name, 'goodsName']} noStyle><Input maxLength={100} aria-label="货物名称" /></Form.Item> },
                { title: '单位', width: 70, render: (_: unknown, f) => <Form.Item name={[f.name, 'unit']} noStyle><Input maxLength={20} /></Form.Item> },
                { title: '数量', width: 90, render: (_: unknown, f) => <Form.Item name={[f.name, 'quantity']} noStyle><Input aria-label="数量" /></Form.Item> },
                { title: '含税单价', width: 110, render: (_: unknown, f) => <Form.Item name={[f.name, 'unitPrice']} noStyle><Input aria-label="含税单价" /></Form.Item> },
                { title: '税率', width: 120, render: (_: unknown, f) => <Form.Item name={[f.name, 'taxRate']} noStyle><Select style={{ width: 110 }} options={TAX_RATES.map((r) => ({ value: r.value, label: r.label }))} /></Form.Item> },
                { title: '优惠政策', width: 110, render: (_: unknown, f) => <Form.Item name={[f.name, 'policy']} noStyle><Select style={{ width: 100 }} options={TaxPolicy.options.map((o) => ({ value: o.value, label: o.label }))} /></Form.Item> },
                { title: '金额', width: 100, align: 'right', render: (_: unknown, f) => <Money fen={lines[f.name]?.amountExcl ?? 0} /> },
                { title: '税额', width: 90, align: 'right', render: (_: unknown, f) => <Money fen={lines[f.name]?.tax ?? 0} /> },
                { title: '', width: 40, render: (_: unknown, f) => <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label="删除明细" disabled={fields.length <= 1} onClick={() => remove(f.name)} /> },
              ]} />
              <Button type="dashed" icon={<PlusOutlined />} style={{ marginTop: 8 }} onClick={() => add({ taxRate: '0.09', policy: 0, quantity: '1' })}>添加明细</Button>
            </>
          )}
        </Form.List>
        <Space style={{ marginTop: 12 }} size="large" data-testid="entry-totals">
          <span>合计金额 <Money fen={totals.amountExcl} /></span>
          <span>合计税额 <Money fen={totals.tax} /></span>
          <span>价税合计 <Money fen={totals.amountIncl} strong />（{capitalAmount(totals.amountIncl)}）</span>
        </Space>
        {problems.length ? <Alert style={{ marginTop: 12 }} type="warning" showIcon title="请修改以下内容后保存" description={<ul style={{ margin: 0, paddingLeft: 18 }}>{problems.slice(0, 8).map((p) => <li key={p}>{p}</li>)}</ul>} /> : null}
        <Typography.Text type="secondary" style={{ display: 'block', marginTop: 8 }}>销售方：{setting.data?.sellerName}（{setting.data?.sellerTaxNo}），开票人 {setting.data?.clerk}；合计 {formatFen(totals.amountIncl)} 元</Typography.Text>
      </Form>
    </Drawer>
  );
}
