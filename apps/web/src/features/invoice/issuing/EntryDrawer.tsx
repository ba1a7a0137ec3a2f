/**
 * The entry form of role 5 (新增开票申请, 修改, and the correction of a failed request): buyer picked
 * from the buyer list, lines with the tax code lookup, amounts and totals computed live with the
 * shared rules (decimal arithmetic), and every DOMAIN.md check shown before saving.
 */
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Col, Drawer, Form, Input, Row, Select, Space, Switch, Table, Typography } from 'antd';
import type { Rule } from 'antd/es/form';
import { useEffect, useMemo, useState } from 'react';
import {
  EMPTY_ID, InvoiceColour, InvoiceKind, InvoiceSaveBody, SPEC_MAX, SpecialFactor, TAX_RATES, TaxPolicy, UNIT_MAX, capitalAmount, checkInvoice, computeLine, fenToYuan, formatFen,
  isDecimalText, sumLines, yuanToFen, type InvoiceDetail, type InvoiceLineRow,
} from '@zhyy/shared';
import { invoiceApi } from '../../../api/invoice';
import { zodRule } from '../../../components/zodRule';
import { INVOICE_KEY, Money } from '../widgets';

const H = InvoiceSaveBody.shape;

/** One row of the line table as typed: `amount` (元) counts when quantity and unit price are not both given. */
export interface LineForm { taxCode?: string; goodsName?: string; spec?: string; unit?: string; quantity?: string; unitPrice?: string; amount?: string; taxRate?: string; policy?: number }
/** The header decides whether the unit prices and amounts typed include tax (含税) for every line. */
type HeaderForm = Omit<InvoiceSaveBody, 'lines' | 'id'> & { priceIncludesTax: boolean; lines: LineForm[] };

const AMOUNT_RE = /^-?\d{1,11}(\.\d{1,2})?$/;
const NEW_LINE: LineForm = { taxRate: '0.09', policy: 0, quantity: '1' };

/** Whether a line's amount comes from quantity × unit price (else from the amount typed). */
export function pricedLine(l: LineForm): boolean {
  const quantity = (l.quantity ?? '').trim();
  const unitPrice = (l.unitPrice ?? '').trim();
  return !!quantity && !!unitPrice && isDecimalText(quantity) && isDecimalText(unitPrice);
}

/** The lines to save, computed with the shared rules; a line without quantity × unit price keeps its amount. */
export function toLines(lines: LineForm[] = [], priceIncludesTax = true): InvoiceSaveBody['lines'] {
  return lines.map((l) => {
    const quantity = (l.quantity ?? '').trim();
    const unitPrice = (l.unitPrice ?? '').trim();
    const amount = (l.amount ?? '').trim();
    const taxRate = l.taxRate ?? '0.09';
    const a = pricedLine(l)
      ? computeLine({ quantity, unitPrice, priceIncludesTax, taxRate })
      : AMOUNT_RE.test(amount)
        ? computeLine({ quantity: isDecimalText(quantity) ? quantity : '', priceIncludesTax, taxRate, amount: yuanToFen(amount) })
        : { amountExcl: 0, tax: 0, amountIncl: 0 };
    return {
      goodsName: l.goodsName ?? '', taxCode: l.taxCode ?? '', spec: (l.spec ?? '').trim(), unit: (l.unit ?? '').trim(), quantity, unitPrice, priceIncludesTax, taxRate,
      policy: (l.policy ?? 0) as 0, lineProperty: 0, amountExcl: a.amountExcl, tax: a.tax, amountIncl: a.amountIncl,
    };
  });
}

/** The form rows of saved lines: each keeps its amount (含税 or 不含税 as the header says) for lines without a unit price. */
export function toLineForms(lines: readonly InvoiceLineRow[]): { priceIncludesTax: boolean; lines: LineForm[] } {
  const priceIncludesTax = lines[0]?.priceIncludesTax ?? true;
  return {
    priceIncludesTax,
    lines: lines.map((l) => ({
      taxCode: l.taxCode, goodsName: l.goodsName, spec: l.spec, unit: l.unit, quantity: l.quantity, unitPrice: l.unitPrice,
      amount: fenToYuan(priceIncludesTax ? l.amountIncl : l.amountExcl), taxRate: l.taxRate, policy: l.policy,
    })),
  };
}

/** Problems of what was typed that the shared checks cannot see (an amount that is not money). */
export function amountProblems(lines: LineForm[] = []): string[] {
  return lines.flatMap((l, i) => (!pricedLine(l) && (l.amount ?? '').trim() && !AMOUNT_RE.test((l.amount ?? '').trim()) ? [`第${i + 1}行：金额须为数字，最多2位小数`] : []));
}

/**
 * The drawer's width: wide enough for the lines table without sideways scrolling, and never wider
 * than the window less a margin (1366 px and 1440 px screens show every column whole).
 */
const ENTRY_DRAWER_WIDTH = 'min(1240px, calc(100vw - 48px))';

export function EntryDrawer(props: { open: boolean; initial?: InvoiceDetail | null; title: string; onClose: () => void; onSubmit: (body: InvoiceSaveBody) => Promise<boolean> }) {
  const [form] = Form.useForm<HeaderForm>();
  const [saving, setSaving] = useState(false);
  // The list of problems waits for the first 保存 (a new request starts empty: nothing is wrong yet);
  // a request being corrected shows its problems at once.
  const [attempted, setAttempted] = useState(false);
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
    setAttempted(false);
    form.resetFields();
    if (d) form.setFieldsValue({ ...d, ...toLineForms(d.lines) } as never);
    else form.setFieldsValue({ kind: InvoiceKind.bs, specialFactor: 0, priceIncludesTax: true, lines: [{ ...NEW_LINE }] } as never);
  }, [props.open, props.initial, form]);
  // The default kind of the settings, once they arrive, without wiping what was typed meanwhile.
  const defaultKind = setting.data?.defaultKind;
  useEffect(() => {
    if (props.open && !props.initial && defaultKind !== undefined && !form.isFieldTouched('kind')) form.setFieldValue('kind', defaultKind);
  }, [props.open, props.initial, defaultKind, form]);

  const withTax = watched?.priceIncludesTax ?? true;
  const lines = useMemo(() => toLines(watched?.lines, withTax), [watched?.lines, withTax]);
  const totals = sumLines(lines);
  const showProblems = attempted || !!props.initial;
  const problems = watched ? [...amountProblems(watched.lines), ...checkInvoice({ kind: watched.kind ?? 9, colour: InvoiceColour.blue, buyerName: watched.buyerName ?? '', buyerTaxNo: watched.buyerTaxNo ?? '', buyerAddress: watched.buyerAddress ?? '', buyerPhone: watched.buyerPhone ?? '', buyerBank: watched.buyerBank ?? '', buyerAccount: watched.buyerAccount ?? '', specialFactor: watched.specialFactor ?? 0, constructionSite: watched.constructionSite, constructionProject: watched.constructionProject }, lines)] : [];

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
    setAttempted(true);
    const { priceIncludesTax: _withTax, lines: _typed, ...v } = await form.validateFields();
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

  const col = (label: string, name: keyof HeaderForm, node: React.ReactNode, span = 8, required = false, rules: Rule[] = []) => (
    <Col span={span}><Form.Item name={name} label={label} rules={required ? [{ required: true, message: `请填写${label}` }, ...rules] : rules.length ? rules : undefined}>{node}</Form.Item></Col>
  );
  const priceLabel = withTax ? '含税单价' : '不含税单价';
  const amountLabel = withTax ? '含税金额' : '不含税金额';

  return (
    <Drawer open={props.open} onClose={props.onClose} size={ENTRY_DRAWER_WIDTH} title={props.title} destroyOnHidden rootClassName="invoice-entry-drawer"
      extra={<Space><Button onClick={props.onClose}>取消</Button><Button type="primary" loading={saving} disabled={showProblems && problems.length > 0} onClick={() => void submit().catch(() => undefined)}>保存</Button></Space>}>
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
          {col('购买方税号', 'buyerTaxNo', <Input maxLength={20} />, 12, false, [zodRule(H.buyerTaxNo, '购买方税号')])}
          {col('地址', 'buyerAddress', <Input maxLength={100} />, 12)}
          {col('电话', 'buyerPhone', <Input maxLength={30} />, 12, false, [zodRule(H.buyerPhone, '电话')])}
          {col('开户行', 'buyerBank', <Input maxLength={100} />, 12)}
          {col('账号', 'buyerAccount', <Input maxLength={50} />, 12, false, [zodRule(H.buyerAccount, '账号')])}
          {col('交付手机', 'buyerMobile', <Input maxLength={11} />, 8, false, [zodRule(H.buyerMobile, '交付手机')])}
          {col('交付邮箱', 'buyerEmail', <Input maxLength={100} />, 8, false, [zodRule(H.buyerEmail, '交付邮箱')])}
          {col('特定业务', 'specialFactor', <Select options={SpecialFactor.options.map((o) => ({ value: o.value, label: o.label }))} />)}
          {watched?.specialFactor === SpecialFactor.construction ? (
            <>
              {col('建筑服务发生地', 'constructionSite', <Input maxLength={100} />, 12)}
              {col('建筑项目名称', 'constructionProject', <Input maxLength={100} />, 12)}
            </>
          ) : null}
          {col('项目', 'projectId', <Select allowClear showSearch={{ filterOption: false, onSearch: setRefSearch }} placeholder="选择项目" options={(projects.data ?? []).map((p) => ({ value: p.id, label: `${p.code} ${p.name}` }))} />, 12)}
          {col('合同', 'contractId', <Select allowClear showSearch={{ filterOption: false, onSearch: setRefSearch }} placeholder="选择合同" options={(contracts.data ?? []).map((c) => ({ value: c.id, label: `${c.code} ${c.name}` }))} />, 12)}
          {col('备注', 'remark', <Input maxLength={200} />, 16)}
          <Col span={8}>
            <Form.Item name="priceIncludesTax" label="单价和金额" valuePropName="checked" tooltip="明细的单价和金额是否含税，合计和保存的明细按此计算">
              <Switch checkedChildren="含税" unCheckedChildren="不含税" aria-label="单价和金额含税" />
            </Form.Item>
          </Col>
        </Row>
        <Typography.Title level={5}>开票明细</Typography.Title>
        <Form.List name="lines">
          {(fields, { add, remove }) => (
            <>
              <Table size="small" pagination={false} rowKey="key" dataSource={fields} tableLayout="fixed" data-testid="entry-lines" columns={[
                { title: '税收分类编码', width: 160, render: (_: unknown, f) => <Form.Item name={[f.name, 'taxCode']} noStyle><Select showSearch={{ optionFilterProp: 'label' }} placeholder="查找编码" style={{ width: '100%' }} popupMatchSelectWidth={360} onChange={(v: string) => pickCode(f.name, v)} options={codes.map((c) => ({ value: c.code, label: `${c.shortName}-${c.name} ${c.code}` }))} /></Form.Item> },
                { title: '货物或应税劳务名称', minWidth: 160, render: (_: unknown, f) => <Form.Item name={[f.name, 'goodsName']} noStyle><Input maxLength={100} aria-label="货物名称" /></Form.Item> },
                { title: '规格型号', width: 90, render: (_: unknown, f) => <Form.Item name={[f.name, 'spec']} noStyle><Input maxLength={SPEC_MAX} aria-label="规格型号" /></Form.Item> },
                { title: '单位', width: 56, render: (_: unknown, f) => <Form.Item name={[f.name, 'unit']} noStyle><Input maxLength={UNIT_MAX} aria-label="单位" /></Form.Item> },
                { title: '数量', width: 76, render: (_: unknown, f) => <Form.Item name={[f.name, 'quantity']} noStyle><Input aria-label="数量" /></Form.Item> },
                { title: priceLabel, width: 104, render: (_: unknown, f) => <Form.Item name={[f.name, 'unitPrice']} noStyle><Input aria-label={priceLabel} /></Form.Item> },
                { title: amountLabel, width: 116, align: 'right', render: (_: unknown, f) => pricedLine(watched?.lines?.[f.name] ?? {})
                  ? <Money fen={(withTax ? lines[f.name]?.amountIncl : lines[f.name]?.amountExcl) ?? 0} />
                  : <Form.Item name={[f.name, 'amount']} noStyle><Input aria-label={amountLabel} /></Form.Item> },
                { title: '税率', width: 96, render: (_: unknown, f) => <Form.Item name={[f.name, 'taxRate']} noStyle><Select style={{ width: '100%' }} popupMatchSelectWidth={150} options={TAX_RATES.map((r) => ({ value: r.value, label: r.label }))} /></Form.Item> },
                { title: '优惠政策', width: 100, render: (_: unknown, f) => <Form.Item name={[f.name, 'policy']} noStyle><Select style={{ width: '100%' }} popupMatchSelectWidth={120} options={TaxPolicy.options.map((o) => ({ value: o.value, label: o.label }))} /></Form.Item> },
                { title: '税额', width: 104, align: 'right', render: (_: unknown, f) => <Money fen={lines[f.name]?.tax ?? 0} /> },
                { title: '', key: 'remove', width: 36, render: (_: unknown, f) => <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label="删除明细" disabled={fields.length <= 1} onClick={() => remove(f.name)} /> },
              ]} />
              <Button type="dashed" icon={<PlusOutlined />} style={{ marginTop: 8 }} onClick={() => add({ ...NEW_LINE })}>添加明细</Button>
            </>
          )}
        </Form.List>
        <Space style={{ marginTop: 12 }} size="large" data-testid="entry-totals">
          <span>合计金额 <Money fen={totals.amountExcl} /></span>
          <span>合计税额 <Money fen={totals.tax} /></span>
          <span>价税合计 <Money fen={totals.amountIncl} strong />（{capitalAmount(totals.amountIncl)}）</span>
        </Space>
        {showProblems && problems.length ? <Alert data-testid="entry-problems" style={{ marginTop: 12 }} type="warning" showIcon title="请修改以下内容后保存" description={<ul style={{ margin: 0, paddingLeft: 18 }}>{problems.slice(0, 8).map((p) => <li key={p}>{p}</li>)}</ul>} /> : null}
        <Typography.Text type="secondary" style={{ display: 'block', marginTop: 8 }}>销售方：{setting.data?.sellerName}（{setting.data?.sellerTaxNo}），开票人 {setting.data?.clerk}；合计 {formatFen(totals.amountIncl)} 元</Typography.Text>
      </Form>
    </Drawer>
  );
}
