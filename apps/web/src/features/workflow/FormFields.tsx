/**
 * A template's form rendered from its field definitions, inside an antd Form. Each field carries the
 * shared rules (the same zod schema and Chinese messages the server checks with).
 */
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Col, DatePicker, Form, Input, InputNumber, Row, Select, Table, type FormInstance } from 'antd';
import type { Rule } from 'antd/es/form';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useRef } from 'react';
import { derivedProblems, formValuesSchema, workdaysDerivation, type ColumnDef, type FieldDef } from '@zhyy/shared';
import { AttachmentField } from './AttachmentField';
import { DeptPicker, MoneyInput, UserPicker } from './widgets';

/** A single-field rule from the whole form's schema (so the messages are the server's). */
function ruleFor(f: FieldDef) {
  const schema = formValuesSchema([f]);
  return {
    validator: async (_: unknown, value: unknown) => {
      const r = schema.safeParse({ [f.key]: value });
      if (!r.success) throw new Error(r.error.issues[0]?.message ?? '输入不正确');
    },
  };
}

/** The rule of a value derived from another field (请假天数 from 请假时间): the shared contradiction check. */
function derivedRule(f: FieldDef, fields: readonly FieldDef[]): Rule {
  return ({ getFieldsValue }) => ({
    validator: async () => {
      const problem = derivedProblems(fields, getFieldsValue(true) as Record<string, unknown>)[f.key];
      if (problem) throw new Error(problem);
    },
  });
}

function ScalarInput({ f, value, onChange, id }: { f: ColumnDef | FieldDef; value?: unknown; onChange?: (v: unknown) => void; id?: string }) {
  switch (f.type) {
    case 'text':
      return <Input id={id} maxLength={f.maxLength ?? 100} value={value as string} onChange={(e) => onChange?.(e.target.value)} placeholder={`请输入${f.label}`} />;
    case 'textarea':
      return <Input.TextArea id={id} maxLength={f.maxLength ?? 2000} showCount autoSize={{ minRows: 3, maxRows: 8 }} value={value as string} onChange={(e) => onChange?.(e.target.value)} placeholder={`请输入${f.label}`} />;
    case 'number':
      return <InputNumber id={id} style={{ width: '100%' }} min={f.min} max={f.max} value={value as number} onChange={(v) => onChange?.(v ?? undefined)} />;
    case 'money':
      return <MoneyInput id={id} value={value as number} onChange={onChange} />;
    case 'date':
      return <DatePicker id={id} style={{ width: '100%' }} value={value ? dayjs(value as string) : null} onChange={(d: Dayjs | null) => onChange?.(d ? d.format('YYYY-MM-DD') : undefined)} />;
    case 'select':
      return <Select id={id} allowClear placeholder={`请选择${f.label}`} value={value as string} onChange={onChange} options={(f.options ?? []).map((o) => ({ value: o, label: o }))} />;
    default:
      return null;
  }
}

function DateRangeInput({ value, onChange, id }: { value?: [string, string]; onChange?: (v: [string, string] | undefined) => void; id?: string }) {
  return (
    <DatePicker.RangePicker
      id={id ? { start: id } : undefined}
      style={{ width: '100%' }}
      value={value ? [dayjs(value[0]), dayjs(value[1])] : null}
      onChange={(r) => onChange?.(r && r[0] && r[1] ? [r[0].format('YYYY-MM-DD'), r[1].format('YYYY-MM-DD')] : undefined)}
    />
  );
}

function TableInput({ f, value, onChange }: { f: FieldDef; value?: Array<Record<string, unknown>>; onChange?: (v: Array<Record<string, unknown>>) => void }) {
  const rows = value ?? [];
  const set = (i: number, key: string, v: unknown) => onChange?.(rows.map((r, j) => (j === i ? { ...r, [key]: v } : r)));
  return (
    <div className="wf-table-input">
      <Table
        size="small"
        pagination={false}
        rowKey={(_, i) => String(i)}
        dataSource={rows}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: `请添加${f.label}` }}
        columns={[
          ...(f.columns ?? []).map((c) => ({
            title: c.required ? <span className="wf-required">{c.label}</span> : c.label,
            key: c.key,
            width: c.type === 'text' ? 180 : 130,
            render: (_: unknown, r: Record<string, unknown>, i: number) => <ScalarInput f={c} value={r[c.key]} onChange={(v) => set(i, c.key, v)} />,
          })),
          { title: '', key: 'remove', width: 50, render: (_: unknown, __: unknown, i: number) => <Button type="text" danger icon={<DeleteOutlined />} aria-label="删除该行" onClick={() => onChange?.(rows.filter((_, j) => j !== i))} /> },
        ]}
      />
      <Button type="dashed" block icon={<PlusOutlined />} onClick={() => onChange?.([...rows, {}])} style={{ marginTop: 6 }}>
        添加一行
      </Button>
    </div>
  );
}

function FieldInput({ f, ...rest }: { f: FieldDef; value?: unknown; onChange?: (v: unknown) => void; id?: string }) {
  switch (f.type) {
    case 'dateRange':
      return <DateRangeInput {...(rest as object)} />;
    case 'user':
      return <UserPicker {...(rest as object)} />;
    case 'dept':
      return <DeptPicker {...(rest as object)} />;
    case 'attachments':
      return <AttachmentField {...(rest as object)} />;
    case 'table':
      return <TableInput f={f} {...(rest as object)} />;
    default:
      return <ScalarInput f={f} {...rest} />;
  }
}

/**
 * Keeps derived values equal to what they derive from: a money field to the sum of a detail table's
 * money column (开票总金额, 报销总金额), a day count to its date range's working days when the range
 * changes (the person may then take half a day off either end; a contradiction gets a message).
 */
function useSums(form: FormInstance, fields: readonly FieldDef[]) {
  const watched = Form.useWatch([], form) as Record<string, unknown> | undefined;
  const ranges = useRef<Record<string, string>>({});
  useEffect(() => {
    for (const f of fields) {
      if (!f.workdaysOf) continue;
      const range = watched?.[f.workdaysOf];
      const seen = JSON.stringify(range ?? null);
      if (ranges.current[f.key] === seen) continue;
      ranges.current[f.key] = seen;
      const d = workdaysDerivation(range, !!f.halfDays);
      if (!d || d.workdays === 0) continue;
      const current = form.getFieldValue(f.key) as unknown;
      // A value that agrees with the dates (a loaded draft's half day) stays; any other is recomputed.
      if (!(typeof current === 'number' && d.allowed.includes(current))) form.setFieldValue(f.key, d.workdays);
    }
    for (const f of fields) {
      if (f.type !== 'table' || !f.sumColumn || !f.sumInto) continue;
      const rows = (watched?.[f.key] as Array<Record<string, unknown>> | undefined) ?? [];
      const sum = rows.reduce((s, r) => s + (Number(r[f.sumColumn!]) || 0), 0);
      if (rows.length && form.getFieldValue(f.sumInto) !== sum) form.setFieldValue(f.sumInto, sum);
    }
  }, [watched, fields, form]);
}

export function FormFields({ fields, form }: { fields: readonly FieldDef[]; form: FormInstance }) {
  useSums(form, fields);
  const summed = new Set(fields.filter((f) => f.sumInto).map((f) => f.sumInto!));
  // A day count is checked against its range and the range against its working days, each when the other changes.
  const derived = new Map<string, string[]>();
  for (const f of fields) if (f.workdaysOf) { derived.set(f.key, [f.workdaysOf]); derived.set(f.workdaysOf, [f.key]); }
  const derivedFrom = new Set(derived.keys());
  return (
    <Row gutter={16}>
      {fields.map((f) => (
        <Col key={f.key} xs={24} md={f.span === 2 || f.type === 'table' ? 24 : 12}>
          <Form.Item name={f.key} label={f.label} required={f.required} rules={derivedFrom.has(f.key) ? [ruleFor(f), derivedRule(f, fields)] : [ruleFor(f)]}
            dependencies={derived.get(f.key)} extra={summed.has(f.key) ? '由明细自动合计' : f.help}>
            {summed.has(f.key) ? <MoneyInput disabled /> : <FieldInput f={f} />}
          </Form.Item>
        </Col>
      ))}
    </Row>
  );
}
