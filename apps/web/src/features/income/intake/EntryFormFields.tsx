/**
 * The entry form of an incoming invoice (手工录入 in the pool list's drawer, 进项发票编辑 for paper invoices and
 * for correcting what an upload recognised): every field with the shared schema's rule (PoolEntryBody), the
 * numbers the kind asks for, optional lines, and the helpers both callers need — the face as the checks and
 * the body see it (money in 分), a recognised draft as the form holds it (money in 元), a file read as base64.
 */
import { DeleteOutlined, InboxOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Col, DatePicker, Form, Input, InputNumber, Row, Select, Table, Typography, Upload, type FormInstance, type UploadFile } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import type { ReactNode } from 'react';
import { IncomeKind, PoolEntryBody, PoolLineInput, TAX_RATES, fenToYuan, yuanToFen, type UploadRecognition } from '@zhyy/shared';
import { zodRule } from '../../../components/zodRule';
import { asksItineraryFigures, entryLabels, entryProblems, numberFields } from './entryChecks';

const S = PoolEntryBody.shape;
const L = PoolLineInput.shape;

/** One line as typed: money in 元. */
export interface LineForm { name?: string; spec?: string; unit?: string; quantity?: string; unitPrice?: string; amount?: number | null; taxRate?: string; tax?: number | null }

export interface EntryForm {
  kind?: string;
  invoiceCode?: string;
  invoiceNo?: string;
  digitalNo?: string;
  issueDate?: Dayjs | null;
  sellerName?: string;
  sellerTaxNo?: string;
  buyerName?: string;
  buyerTaxNo?: string;
  amountExcl?: number | null;
  tax?: number | null;
  amountIncl?: number | null;
  checkCode?: string;
  remark?: string;
  /** 对应蓝字发票号码 (a red invoice). */
  blueInvoiceNo?: string;
  /** A paper air itinerary's 票价, 燃油附加费 and 民航发展基金 (元). */
  fare?: number | null;
  fuelSurcharge?: number | null;
  developmentFund?: number | null;
  lines?: LineForm[];
}

export type EntryField = keyof EntryForm;

const fen = (v: number | null | undefined) => (v === null || v === undefined ? undefined : yuanToFen(v));
const yuan = (v: number | undefined) => (v === undefined ? undefined : Number(fenToYuan(v)));
const toLines = (lines: LineForm[] = []) => lines.map((l) => ({ ...l, amount: fen(l.amount) ?? 0, tax: fen(l.tax) ?? 0, taxRate: l.taxRate ?? '0' }));

/** The form's values as the checks and the body see them (money in 分). */
export const faceOf = (v: EntryForm) => {
  const itinerary = asksItineraryFigures(v.kind, v.digitalNo);
  return {
    ...v, issueDate: v.issueDate?.format('YYYY-MM-DD'), amountExcl: fen(v.amountExcl), tax: fen(v.tax), amountIncl: fen(v.amountIncl), lines: toLines(v.lines),
    // Only a paper itinerary sends them (a field left from another kind is not part of this face).
    fare: itinerary ? fen(v.fare) : undefined, fuelSurcharge: itinerary ? fen(v.fuelSurcharge) : undefined, developmentFund: itinerary ? fen(v.developmentFund) : undefined,
  };
};

/** A face with money in 分 (a recognised draft, a pool invoice) as the form holds it (元, the date a Dayjs). */
export function formOf(d: UploadRecognition['draft'] & { remark?: string }): EntryForm {
  const date = d.issueDate && /^\d{4}-\d{2}-\d{2}$/.test(d.issueDate) ? dayjs(d.issueDate) : null;
  return {
    kind: d.kind, invoiceCode: d.invoiceCode, invoiceNo: d.invoiceNo, digitalNo: d.digitalNo, issueDate: date?.isValid() ? date : null,
    sellerName: d.sellerName, sellerTaxNo: d.sellerTaxNo, buyerName: d.buyerName, buyerTaxNo: d.buyerTaxNo, checkCode: d.checkCode, remark: d.remark, blueInvoiceNo: d.blueInvoiceNo,
    amountExcl: yuan(d.amountExcl), tax: yuan(d.tax), amountIncl: yuan(d.amountIncl),
    lines: (d.lines ?? []).map((l) => ({ name: l.name, spec: l.spec, unit: l.unit, quantity: l.quantity, unitPrice: l.unitPrice, amount: yuan(l.amount), taxRate: l.taxRate, tax: yuan(l.tax) })),
  };
}

/** A chosen file as base64 (without the data: prefix), or its Chinese failure. */
export function readBase64(file: Blob & { name: string }): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result).replace(/^data:[^,]*,/, ''));
    r.onerror = () => reject(new Error(`文件「${file.name}」读取失败`));
    r.readAsDataURL(file);
  });
}

/**
 * Validates the form and the face checks: the face (money in 分) when it may be sent, else null (the
 * form's own messages show beside the fields, the face's in <EntryProblems>).
 */
export async function checkedFace(form: FormInstance<EntryForm>): Promise<ReturnType<typeof faceOf> | null> {
  const values = await form.validateFields().catch(() => null);
  if (!values) return null;
  const face = faceOf(values);
  return entryProblems(face).length ? null : face;
}

/** What the face checks find, once the user has tried to save (nothing before). */
export function useEntryProblems(form: FormInstance<EntryForm>, attempted: boolean): string[] {
  const v = (Form.useWatch([], form) ?? {}) as EntryForm;
  return attempted ? entryProblems(faceOf(v)) : [];
}

export function EntryProblems({ problems }: { problems: string[] }) {
  if (!problems.length) return null;
  return <Alert type="warning" showIcon style={{ marginBottom: 12 }} title="请先更正以下内容" description={<ul style={{ paddingLeft: 18, margin: 0 }}>{problems.map((p) => <li key={p}>{p}</li>)}</ul>} data-testid="entry-problems" />;
}

/**
 * The fields of one invoice. `name` makes the inputs' ids (`<name>_sellerName`); `marks` puts a note after a
 * field's label (where an upload's value came from); `children` follow the lines inside the same form.
 */
export function EntryFormFields({ form, name, marks = {}, initialValues, children }: {
  form: FormInstance<EntryForm>;
  name: string;
  marks?: Partial<Record<EntryField, ReactNode>>;
  initialValues?: EntryForm;
  children?: ReactNode;
}) {
  const kind = Form.useWatch('kind', form) as string | undefined;
  const digitalNo = Form.useWatch('digitalNo', form) as string | undefined;
  const show = numberFields(kind);
  const words = entryLabels(kind);
  const label = (field: EntryField, text: string) => (marks[field] ? <span>{text}{marks[field]}</span> : text);
  const col = (span: number, field: EntryField, text: string, node: ReactNode, rules: Parameters<typeof Form.Item>[0]['rules'] = []) => (
    <Col span={span}><Form.Item name={field} label={label(field, text)} rules={rules}>{node}</Form.Item></Col>
  );
  // Negative on a red invoice (红字发票); a discount line (折扣行) is a negative line under a positive face.
  const money = (field: 'amountExcl' | 'tax' | 'amountIncl', text: string) =>
    col(8, field, text, <InputNumber precision={2} style={{ width: '100%' }} placeholder="元（红字发票为负数）" />, [{ required: true, message: `请填写${text}` }]);
  return (
    <Form form={form} layout="vertical" name={name} size="small" initialValues={initialValues}>
      <Row gutter={12}>
        {col(12, 'kind', '发票种类', <Select options={IncomeKind.options.map((o) => ({ value: o.value, label: o.label }))} placeholder="请选择" />, [{ required: true, message: '请选择发票种类' }])}
        {col(12, 'issueDate', words.issueDate, <DatePicker style={{ width: '100%' }} />, [{ required: true, message: `请选择${words.issueDate}` }])}
        {show.digital ? col(12, 'digitalNo', '数电发票号码', <Input maxLength={20} />, [{ required: true, message: '请填写数电发票号码' }, zodRule(S.digitalNo, '数电发票号码')]) : null}
        {show.code ? col(12, 'invoiceCode', '发票代码', <Input maxLength={12} />, [zodRule(S.invoiceCode, '发票代码')]) : null}
        {show.number ? col(12, 'invoiceNo', words.invoiceNo, <Input maxLength={40} />, [zodRule(S.invoiceNo, words.invoiceNo)]) : null}
        {col(12, 'sellerName', words.sellerName, <Input maxLength={100} />, [{ required: true, whitespace: true, message: `请填写${words.sellerName}` }, zodRule(S.sellerName, words.sellerName)])}
        {col(12, 'sellerTaxNo', '销方税号', <Input maxLength={20} />, [zodRule(S.sellerTaxNo, '销方税号')])}
        {col(12, 'buyerName', '购方名称', <Input maxLength={100} />, [{ required: true, whitespace: true, message: '请填写购方名称' }, zodRule(S.buyerName, '购方名称')])}
        {col(12, 'buyerTaxNo', '购方税号', <Input maxLength={20} />, [zodRule(S.buyerTaxNo, '购方税号')])}
        {money('amountExcl', words.amountExcl)}
        {money('tax', words.tax)}
        {money('amountIncl', words.amountIncl)}
        {col(12, 'checkCode', '校验码', <Input maxLength={20} />, [zodRule(S.checkCode, '校验码')])}
        {col(12, 'remark', '备注', <Input maxLength={200} />, [zodRule(S.remark, '备注')])}
        {col(12, 'blueInvoiceNo', '对应蓝字发票号码（红字发票填写）', <Input maxLength={20} />, [zodRule(S.blueInvoiceNo, '对应蓝字发票号码')])}
        {asksItineraryFigures(kind, digitalNo) ? (
          <>
            <Col span={24}><Typography.Text type="secondary">纸质行程单：按票面填写票价、燃油附加费和民航发展基金；可抵扣的计算基数为票价与燃油附加费之和，不含民航发展基金。</Typography.Text></Col>
            {col(8, 'fare', '票价', <InputNumber precision={2} style={{ width: '100%' }} placeholder="元" />)}
            {col(8, 'fuelSurcharge', '燃油附加费', <InputNumber precision={2} style={{ width: '100%' }} placeholder="元" />)}
            {col(8, 'developmentFund', '民航发展基金', <InputNumber precision={2} style={{ width: '100%' }} placeholder="元" />)}
          </>
        ) : null}
      </Row>
      <Typography.Title level={5}>发票明细（可选；填写时合计须与票面一致；折扣行填负数，紧随被折扣行）</Typography.Title>
      <Form.List name="lines">
        {(fields, { add, remove }) => (
          <>
            <Table size="small" pagination={false} rowKey="key" dataSource={fields} tableLayout="fixed" data-testid="entry-lines" style={{ marginBottom: 8 }}
              locale={{ emptyText: '不填写明细' }}
              columns={[
                { title: '项目名称', render: (_: unknown, f) => <Form.Item name={[f.name, 'name']} noStyle rules={[{ required: true, whitespace: true, message: '请填写项目名称' }, zodRule(L.name, '项目名称')]}><Input maxLength={100} aria-label="项目名称" /></Form.Item> },
                { title: '规格型号', width: 90, render: (_: unknown, f) => <Form.Item name={[f.name, 'spec']} noStyle rules={[zodRule(L.spec, '规格型号')]}><Input maxLength={40} aria-label="规格型号" /></Form.Item> },
                { title: '单位', width: 60, render: (_: unknown, f) => <Form.Item name={[f.name, 'unit']} noStyle rules={[zodRule(L.unit, '单位')]}><Input maxLength={20} aria-label="单位" /></Form.Item> },
                { title: '数量', width: 70, render: (_: unknown, f) => <Form.Item name={[f.name, 'quantity']} noStyle rules={[zodRule(L.quantity, '数量')]}><Input maxLength={20} aria-label="数量" /></Form.Item> },
                { title: '单价', width: 80, render: (_: unknown, f) => <Form.Item name={[f.name, 'unitPrice']} noStyle rules={[zodRule(L.unitPrice, '单价')]}><Input maxLength={20} aria-label="单价" /></Form.Item> },
                { title: '金额（元）', width: 110, render: (_: unknown, f) => <Form.Item name={[f.name, 'amount']} noStyle rules={[{ required: true, message: '请填写明细金额' }]}><InputNumber precision={2} style={{ width: '100%' }} aria-label="明细金额" /></Form.Item> },
                { title: '税率', width: 80, render: (_: unknown, f) => <Form.Item name={[f.name, 'taxRate']} noStyle><Select style={{ width: '100%' }} popupMatchSelectWidth={160} options={TAX_RATES.map((r) => ({ value: r.value, label: r.label }))} /></Form.Item> },
                { title: '税额（元）', width: 100, render: (_: unknown, f) => <Form.Item name={[f.name, 'tax']} noStyle rules={[{ required: true, message: '请填写明细税额' }]}><InputNumber precision={2} style={{ width: '100%' }} aria-label="明细税额" /></Form.Item> },
                { title: '', width: 40, render: (_: unknown, f) => <Button type="text" size="small" icon={<DeleteOutlined />} aria-label="删除明细" onClick={() => remove(f.name)} /> },
              ]}
            />
            <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ taxRate: '0.13' })} disabled={fields.length >= 200} style={{ marginBottom: 16 }}>添加明细</Button>
          </>
        )}
      </Form.List>
      {children}
    </Form>
  );
}

/** The optional files of a manual entry (PDF, OFD, XML, JPG, PNG; up to five, 10 MB together, checked on saving). */
export function EntryFilesField({ files, onChange }: { files: UploadFile[]; onChange: (files: UploadFile[]) => void }) {
  return (
    <Form.Item label="发票文件（可选，PDF、OFD、XML、JPG或PNG，最多5个，合计10MB以内）">
      <Upload.Dragger multiple maxCount={5} accept=".pdf,.ofd,.xml,.jpg,.jpeg,.png" fileList={files} beforeUpload={() => false} onChange={({ fileList }) => onChange(fileList)}>
        <p className="ant-upload-drag-icon"><InboxOutlined /></p>
        <p className="ant-upload-text">点击或拖入发票文件</p>
      </Upload.Dragger>
    </Form.Item>
  );
}
