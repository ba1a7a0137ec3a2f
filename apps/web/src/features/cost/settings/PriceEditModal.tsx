/**
 * 新增 / 编辑 / 调价 of a price window: item, spec, unit, the unit price excluding tax (a decimal string of
 * up to 8 places, never a float), the tax rate and the validity window (长期有效: no end). A window that
 * order lines use keeps its price and rate (only its dates may change, and the server checks they still
 * cover those orders' months). An overlap with another window of the item is the server's refusal.
 */
import { Alert, Checkbox, DatePicker, Form, Input, Modal, Select, Space } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { COST_TAX_RATES, CostItemCode, CostUnitPrice, type CostPriceRow } from '@zhyy/shared';
import { costPriceApi } from '../../../api/cost';
import { zodRule } from '../../../components/zodRule';
import { feedback } from '../../../ui/feedback';
import { COST_CATEGORY_OPTIONS, formatRate } from '../common';

export interface PriceFormValues {
  itemCode: string;
  itemName: string;
  category?: string;
  spec?: string;
  unit: string;
  unitPrice: string;
  taxRate?: string;
  validFrom?: Dayjs | null;
  validTo?: Dayjs | null;
  openEnd: boolean;
}

/** What the window opens with: a row to edit, a row to add the next window of (调价), or nothing (新增). */
export type PriceEditing = { mode: 'new' } | { mode: 'edit'; row: CostPriceRow } | { mode: 'next'; row: CostPriceRow };

/** The body of /cost-price/save (CostPriceBody's input). */
type PriceBody = Parameters<typeof costPriceApi.save>[0];

const day = (d: Dayjs | null | undefined) => (d ? d.format('YYYY-MM-DD') : '');

export function toPriceBody(v: PriceFormValues, id?: string): PriceBody {
  return {
    ...(id ? { id } : {}),
    itemCode: v.itemCode.trim(),
    itemName: v.itemName.trim(),
    category: v.category ?? '',
    spec: (v.spec ?? '').trim(),
    unit: v.unit.trim(),
    unitPrice: v.unitPrice.trim(),
    taxRate: v.taxRate ?? '',
    validFrom: day(v.validFrom),
    validTo: v.openEnd || !v.validTo ? null : day(v.validTo),
  };
}

export function initialPriceValues(e: PriceEditing): Partial<PriceFormValues> {
  if (e.mode === 'new') return { spec: '', openEnd: true, validFrom: dayjs().startOf('month') };
  const r = e.row;
  const base = { itemCode: r.itemCode, itemName: r.itemName, category: r.category, spec: r.spec, unit: r.unit, taxRate: r.taxRate };
  if (e.mode === 'edit') return { ...base, unitPrice: r.unitPrice, validFrom: dayjs(r.validFrom), validTo: r.validTo ? dayjs(r.validTo) : null, openEnd: !r.validTo };
  // 调价: the next window starts the day after this one ends (or on the first of next month for an open one, which the user closes first).
  const from = r.validTo ? dayjs(r.validTo).add(1, 'day') : dayjs().add(1, 'month').startOf('month');
  return { ...base, unitPrice: '', validFrom: from, validTo: null, openEnd: true };
}

export function PriceEditModal({ editing, onClose, onSaved }: { editing: PriceEditing | null; onClose: () => void; onSaved: () => void }) {
  const [form] = Form.useForm<PriceFormValues>();
  const [saving, setSaving] = useState(false);
  const openEnd = Form.useWatch('openEnd', form);
  const row = editing && editing.mode !== 'new' ? editing.row : null;
  const locked = editing?.mode === 'edit' && editing.row.usedCount > 0;
  useEffect(() => {
    if (!editing) return;
    form.resetFields();
    form.setFieldsValue(initialPriceValues(editing));
  }, [editing, form]);

  const save = async (v: PriceFormValues) => {
    setSaving(true);
    try {
      await costPriceApi.save(toPriceBody(v, editing?.mode === 'edit' ? editing.row.id : undefined));
      void feedback().message.success('保存成功');
      onSaved();
    } catch {
      // The API client has shown the refusal (an overlapping window, a used window's price …).
    } finally {
      setSaving(false);
    }
  };
  const title = editing?.mode === 'edit' ? `编辑价格：${row!.itemCode} ${row!.itemName}` : editing?.mode === 'next' ? `调价：${row!.itemCode} ${row!.itemName}` : '新增价格';
  const keyFixed = editing?.mode === 'next' || (editing?.mode === 'edit' && locked);
  return (
    <Modal open={!!editing} title={title} okText="保存" cancelText="取消" onOk={() => form.submit()} onCancel={onClose} okButtonProps={{ loading: saving }} forceRender width={640} data-testid="price-modal">
      {locked ? <Alert type="info" showIcon style={{ marginBottom: 12 }} title={`已有 ${row!.usedCount} 行成本明细使用此价格：单价和税率不能修改，有效期须仍覆盖这些成本单的月份。调整价格请缩短有效期后「调价」新增区间。`} /> : null}
      {editing?.mode === 'next' && !row!.validTo ? <Alert type="warning" showIcon style={{ marginBottom: 12 }} title="当前价格长期有效：请先编辑它设置失效日期，否则新区间将与之重叠。" /> : null}
      <Form<PriceFormValues> form={form} layout="vertical" name="cost-price" onFinish={(v) => void save(v)}>
        <Space size={12} align="start" wrap>
          <Form.Item name="itemCode" label="成本项编码" rules={[{ required: true, message: '请填写成本项编码' }, zodRule(CostItemCode, '成本项编码')]}>
            <Input maxLength={30} disabled={keyFixed} style={{ width: 180 }} />
          </Form.Item>
          <Form.Item name="itemName" label="成本项名称" rules={[{ required: true, whitespace: true, message: '请填写成本项名称' }, { max: 50, message: '成本项名称不能超过50个字符' }]}>
            <Input maxLength={50} style={{ width: 220 }} />
          </Form.Item>
          <Form.Item name="category" label="费用类别" rules={[{ required: true, message: '请选择费用类别' }]}>
            <Select options={COST_CATEGORY_OPTIONS} style={{ width: 150 }} placeholder="请选择" aria-label="费用类别" />
          </Form.Item>
        </Space>
        <Space size={12} align="start" wrap>
          <Form.Item name="spec" label="规格" rules={[{ max: 50, message: '规格不能超过50个字符' }]}>
            <Input maxLength={50} disabled={keyFixed} style={{ width: 220 }} placeholder="无规格可不填" />
          </Form.Item>
          <Form.Item name="unit" label="单位" rules={[{ required: true, whitespace: true, message: '请填写单位' }, { max: 10, message: '单位不能超过10个字符' }]}>
            <Input maxLength={10} disabled={keyFixed} style={{ width: 120 }} />
          </Form.Item>
        </Space>
        <Space size={12} align="start" wrap>
          <Form.Item name="unitPrice" label="不含税单价（元）" extra="最多8位小数" rules={[{ required: true, message: '请填写不含税单价' }, zodRule(CostUnitPrice, '不含税单价')]}>
            <Input maxLength={20} disabled={locked} style={{ width: 200 }} inputMode="decimal" placeholder="如 350.00 或 0.12345678" />
          </Form.Item>
          <Form.Item name="taxRate" label="税率" rules={[{ required: true, message: '请选择税率' }]}>
            <Select disabled={locked} style={{ width: 120 }} options={COST_TAX_RATES.map((r) => ({ value: r, label: formatRate(r) }))} placeholder="请选择" aria-label="税率" />
          </Form.Item>
        </Space>
        <Space size={12} align="start" wrap>
          <Form.Item name="validFrom" label="生效日期" rules={[{ required: true, message: '请选择生效日期' }]}>
            <DatePicker style={{ width: 160 }} />
          </Form.Item>
          <Form.Item
            name="validTo"
            label="失效日期"
            dependencies={['validFrom', 'openEnd']}
            rules={[
              ({ getFieldValue }) => ({
                validator: async (_r, to: Dayjs | null | undefined) => {
                  if (getFieldValue('openEnd')) return;
                  if (!to) throw new Error('请选择失效日期，或勾选长期有效');
                  const from = getFieldValue('validFrom') as Dayjs | null | undefined;
                  if (from && to.isBefore(from, 'day')) throw new Error('失效日期不能早于生效日期');
                },
              }),
            ]}
          >
            <DatePicker style={{ width: 160 }} disabled={!!openEnd} />
          </Form.Item>
          <Form.Item name="openEnd" label=" " valuePropName="checked">
            <Checkbox onChange={(e) => e.target.checked && form.setFieldValue('validTo', null)}>长期有效</Checkbox>
          </Form.Item>
        </Space>
      </Form>
    </Modal>
  );
}
