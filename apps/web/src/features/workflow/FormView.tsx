/** A form's values as read-only data (never markup): descriptions, detail tables, attachments. */
import { Descriptions, Table, Typography } from 'antd';
import { formatFen, type AttachmentRef, type ColumnDef, type FieldDef } from '@zhyy/shared';
import { AttachmentList } from './AttachmentField';

function scalarText(f: ColumnDef | FieldDef, v: unknown): string {
  if (v === undefined || v === null || v === '') return '';
  if (f.type === 'money') return `¥${formatFen(Number(v))}`;
  if (f.type === 'dateRange' && Array.isArray(v)) return `${v[0]} 至 ${v[1]}`;
  if ((f.type === 'user' || f.type === 'dept') && typeof v === 'object') return String((v as { name?: unknown }).name ?? '');
  return String(v);
}

function value(f: FieldDef, v: unknown) {
  if (f.type === 'attachments') return <AttachmentList files={(v as AttachmentRef[] | undefined) ?? []} />;
  if (f.type === 'table') {
    const rows = (v as Array<Record<string, unknown>> | undefined) ?? [];
    return (
      <Table
        size="small"
        pagination={false}
        rowKey={(_, i) => String(i)}
        dataSource={rows}
        scroll={{ x: 'max-content' }}
        columns={(f.columns ?? []).map((c) => ({ title: c.label, key: c.key, align: c.type === 'money' || c.type === 'number' ? ('right' as const) : undefined, render: (_: unknown, r: Record<string, unknown>) => scalarText(c, r[c.key]) }))}
      />
    );
  }
  const text = scalarText(f, v);
  return text ? <span className={f.type === 'textarea' ? 'wf-multiline' : undefined}>{text}</span> : <Typography.Text type="secondary">未填写</Typography.Text>;
}

export function FormView({ fields, values }: { fields: readonly FieldDef[]; values: Record<string, unknown> }) {
  return (
    <Descriptions
      bordered
      size="small"
      column={{ xs: 1, md: 2 }}
      items={fields.map((f) => ({ key: f.key, label: f.label, span: f.span === 2 || f.type === 'table' || f.type === 'textarea' ? ('filled' as const) : 1, children: value(f, values[f.key]) }))}
    />
  );
}
