/** The tender's rule a performance check applies: its deadline, the window in years, the least amount (typed in 元, kept in 分). Defaults from 投标设置. */
import { DatePicker, Form, Input, InputNumber } from 'antd';
import dayjs from 'dayjs';
import { formatFen, readAmountInput } from '@zhyy/shared';
import type { PerformanceRuleParams } from './exportLogic';

export const todayDay = () => dayjs().format('YYYY-MM-DD');

/** The rule as typed → the rule sent, or the reason it cannot be. */
export function readRule(v: { deadline: string | null; years: number | null; threshold: string }): { ok: true; rule: PerformanceRuleParams } | { ok: false; error: string } {
  if (!v.deadline) return { ok: false, error: '请选择投标截止日' };
  if (!v.years || v.years < 1 || v.years > 10) return { ok: false, error: '业绩年限须在1到10年之间' };
  const t = readAmountInput(v.threshold, { label: '最低合同金额' });
  if (!t.ok) return { ok: false, error: t.error };
  return { ok: true, rule: { deadline: v.deadline, years: v.years, thresholdFen: t.fen } };
}

export function RuleFields(props: { value: { deadline: string | null; years: number | null; threshold: string }; onChange: (v: { deadline: string | null; years: number | null; threshold: string }) => void }) {
  const v = props.value;
  return (
    <Form layout="inline" style={{ rowGap: 12 }}>
      <Form.Item label="投标截止日" required>
        <DatePicker value={v.deadline ? dayjs(v.deadline) : null} onChange={(d) => props.onChange({ ...v, deadline: d ? d.format('YYYY-MM-DD') : null })} allowClear={false} aria-label="投标截止日" />
      </Form.Item>
      <Form.Item label="近几年竣工" required>
        <InputNumber min={1} max={10} precision={0} value={v.years} onChange={(n) => props.onChange({ ...v, years: n })} addonAfter="年" style={{ width: 120 }} aria-label="业绩年限" />
      </Form.Item>
      <Form.Item label="最低合同金额">
        <Input value={v.threshold} onChange={(e) => props.onChange({ ...v, threshold: e.target.value })} suffix="元" style={{ width: 160 }} aria-label="最低合同金额" placeholder="0 为不限" />
      </Form.Item>
    </Form>
  );
}

