import { describe, expect, it } from 'vitest';
import { checkFormValues, evaluateCondition, formatFen, pickRoute, durationText, type FieldDef, type NodeDef } from '../src/index.js';

const fields: FieldDef[] = [
  { key: 'name', label: '名称', type: 'text', required: true, maxLength: 5 },
  { key: 'kind', label: '类型', type: 'select', required: true, options: ['甲', '乙'] },
  { key: 'days', label: '天数', type: 'number', required: true, min: 0.5 },
  { key: 'period', label: '期间', type: 'dateRange' },
  { key: 'who', label: '经办人', type: 'user', required: true },
  {
    key: 'lines',
    label: '明细',
    type: 'table',
    required: true,
    sumColumn: 'amount',
    sumInto: 'total',
    columns: [{ key: 'amount', label: '金额', type: 'money', required: true, min: 1 }],
  },
  { key: 'total', label: '合计', type: 'money', required: true },
];

describe('form values against a template', () => {
  it('names each missing field with the verb users expect', () => {
    const r = checkFormValues(fields, {});
    expect(r.ok).toBe(false);
    expect(r.errors).toMatchObject({ name: '请填写名称', kind: '请选择类型', days: '请填写天数', who: '请选择经办人', lines: '请至少填写一行明细', total: '请填写合计' });
  });

  it('checks lengths, options, ranges, date order, table cells and the table sum', () => {
    const bad = checkFormValues(fields, { name: '一二三四五六', kind: '丙', days: 0, period: ['2026-02-01', '2026-01-01'], who: { id: 'u', name: '张三' }, lines: [{ amount: 0 }], total: 5 });
    expect(bad.errors).toMatchObject({ name: '名称不能超过5个字', kind: '类型的选项无效', days: '天数不能小于0.5', period: '期间的结束日期不能早于开始日期', 'lines.0.amount': '明细的金额不能小于0.01' });
    const sum = checkFormValues(fields, { name: '甲', kind: '甲', days: 1, who: { id: 'u', name: '张三' }, lines: [{ amount: 100 }, { amount: 250 }], total: 300 });
    expect(sum.errors).toEqual({ total: '明细合计与总金额不一致' });
    const ok = checkFormValues(fields, { name: ' 甲 ', kind: '甲', days: 1, who: { id: 'u', name: '张三' }, lines: [{ amount: 100 }, { amount: 250 }], total: 350, extra: 'dropped' });
    expect(ok).toMatchObject({ ok: true, values: { name: '甲', total: 350 } });
    expect(ok.values).not.toHaveProperty('extra');
  });

  it('a draft may be incomplete but not malformed', () => {
    expect(checkFormValues(fields, { name: '甲' }, { draft: true }).ok).toBe(true);
    expect(checkFormValues(fields, { kind: '丙' }, { draft: true }).errors).toEqual({ kind: '类型的选项无效' });
  });
});

describe('conditions and routes', () => {
  const node: NodeDef = {
    id: 'mgr',
    name: '部门负责人审批',
    type: 'approval',
    next: [
      { to: 'gm', when: { all: [{ field: 'amount', op: 'gt', value: 5000000 }, { field: 'kind', op: 'in', value: ['合同'] }] } },
      { to: 'cfo', when: { any: [{ field: 'amount', op: 'gte', value: 1000000 }, { field: 'urgent', op: 'eq', value: '是' }] } },
      { to: 'end' },
    ],
  };
  it('takes the first route whose condition holds, else the default', () => {
    expect(pickRoute(node, { amount: 6000000, kind: '合同' })?.to).toBe('gm');
    expect(pickRoute(node, { amount: 6000000, kind: '采购' })?.to).toBe('cfo');
    expect(pickRoute(node, { amount: 10, urgent: '是' })?.to).toBe('cfo');
    expect(pickRoute(node, { amount: 10 })?.to).toBe('end');
  });
  it('a missing or non-numeric value fails a numeric comparison', () => {
    expect(evaluateCondition({ field: 'amount', op: 'lt', value: 10 }, {})).toBe(false);
    expect(evaluateCondition({ field: 'amount', op: 'lt', value: 10 }, { amount: 'abc' })).toBe(false);
    expect(evaluateCondition({ field: 'amount', op: 'ne', value: 1 }, {})).toBe(true);
  });
});

describe('display helpers', () => {
  it('formats 分 as 元 and durations in Chinese', () => {
    expect(formatFen(123456789)).toBe('1,234,567.89');
    expect(formatFen(-5)).toBe('-0.05');
    expect(durationText(0)).toBe('不足1分钟');
    expect(durationText(1501)).toBe('1天1小时1分钟');
  });
});
