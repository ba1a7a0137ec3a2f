/** The 价税合计（元）最小 至 最大 filter of the invoice lists (fields amountMin, amountMax, in 元; the request sends 分). */
import { Form, InputNumber } from 'antd';

export function AmountRangeItem({ label = '价税合计（元）' }: { label?: string }) {
  return (
    <Form.Item label={label} style={{ marginBottom: 8 }}>
      <Form.Item name="amountMin" noStyle>
        <InputNumber placeholder="最小" precision={2} style={{ width: 120 }} />
      </Form.Item>
      <span style={{ padding: '0 6px' }}>至</span>
      <Form.Item name="amountMax" noStyle>
        <InputNumber placeholder="最大" precision={2} style={{ width: 120 }} />
      </Form.Item>
    </Form.Item>
  );
}
