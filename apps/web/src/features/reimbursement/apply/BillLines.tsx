/**
 * The bill editor's 费用明细: one row a line (category, date, the description with the travel details under
 * it, the amount typed in 元, tax rate and tax, the invoice from the pool, the line's checks), sized so that
 * every column up to 检查 shows at 1366×768 without scrolling sideways (issue 31 #6). A field's problem is
 * shown under the field.
 */
import { Button, Card, DatePicker, Form, Input, InputNumber, Select, Space, Table, Typography } from 'antd';
import dayjs from 'dayjs';
import { TAX_RATE_OPTIONS, reimbRateLabel, taxOfIncluded, type ReimbApplyOptions, type ReimbCheck, type ReimbInvoiceInfo } from '@zhyy/shared';
import { Money } from '../../common/Money';
import { amountFen, amountProblem, amountRule, amountText, SEATS, type LineValues } from './billForm';
import { CheckTags, InvoiceCell } from './common';

type Category = ReimbApplyOptions['categories'][number];
const cell = { marginBottom: 0 } as const;

export function BillLines(props: {
  lines: LineValues[];
  categories: Category[];
  invoices: Record<string, ReimbInvoiceInfo>;
  sums: { amount: number; tax: number };
  checksOf: (i: number) => ReimbCheck[];
  rateOf: (l: LineValues) => string;
  onPick: (line: number) => void;
  onUnpick: (line: number) => void;
}) {
  const { lines, invoices, checksOf, rateOf } = props;
  const cats = new Map(props.categories.map((c) => [c.code, c]));
  const form = Form.useFormInstance();
  return (
    <Card size="small" title="费用明细" extra={<Typography.Text>合计 <Money fen={props.sums.amount} strong />（税额 <Money fen={props.sums.tax} />）</Typography.Text>}>
      <Form.List name="lines">
        {(fields, { add, remove }) => (
          <>
            <Table
              rowKey="key"
              size="small"
              pagination={false}
              dataSource={fields}
              tableLayout="fixed"
              data-testid="bill-lines"
              locale={{ emptyText: '请添加费用明细' }}
              columns={[
                { title: '行', key: 'no', width: 36, render: (_: unknown, f) => f.name + 1 },
                {
                  title: '费用类别', key: 'cat', width: 116,
                  render: (_: unknown, f) => (
                    <Form.Item name={[f.name, 'categoryCode']} style={cell} rules={[{ required: true, message: '请选择费用类别' }]}>
                      <Select placeholder="请选择" style={{ width: '100%' }} options={props.categories.map((c) => ({ value: c.code, label: c.name }))} />
                    </Form.Item>
                  ),
                },
                {
                  title: '发生日期', key: 'date', width: 128,
                  render: (_: unknown, f) => (
                    <Form.Item name={[f.name, 'expenseDate']} style={cell} rules={[{ required: true, message: '请选择发生日期' }]}>
                      <DatePicker style={{ width: '100%' }} />
                    </Form.Item>
                  ),
                },
                {
                  title: '说明（城市 / 天数 / 座席）', key: 'desc',
                  render: (_: unknown, f) => {
                    const kind = cats.get(lines[f.name]?.categoryCode ?? '')?.travelKind ?? '';
                    return (
                      <Space direction="vertical" size={4} style={{ width: '100%' }}>
                        <Form.Item name={[f.name, 'description']} noStyle>
                          <Input maxLength={200} placeholder="说明" />
                        </Form.Item>
                        {lines[f.name]?.invoiceId ? null : (
                          // Without an invoice the 收款方 is what 疑似重复报销 matches on (issue 32 #4).
                          <Form.Item name={[f.name, 'sellerName']} noStyle>
                            <Input maxLength={100} placeholder="收款方（无发票时填写，如出租车公司、停车场）" data-testid="line-seller" />
                          </Form.Item>
                        )}
                        {kind ? (
                          <Space.Compact style={{ width: '100%' }}>
                            <Form.Item name={[f.name, 'city']} noStyle>
                              <Input placeholder="城市" style={{ width: '50%' }} />
                            </Form.Item>
                            {kind === 'transport' ? (
                              <Form.Item name={[f.name, 'seatClass']} noStyle>
                                <Select placeholder="座席" allowClear style={{ width: '50%' }} options={SEATS.map((x) => ({ value: x, label: x }))} />
                              </Form.Item>
                            ) : (
                              <Form.Item name={[f.name, 'nights']} noStyle>
                                <InputNumber min={1} max={366} precision={0} placeholder={kind === 'hotel' ? '晚数' : '天数'} style={{ width: '50%' }} />
                              </Form.Item>
                            )}
                          </Space.Compact>
                        ) : null}
                      </Space>
                    );
                  },
                },
                {
                  title: '金额（含税）', key: 'amount', width: 136,
                  render: (_: unknown, f) => (
                    <Form.Item name={[f.name, 'amount']} style={cell} rules={[amountRule]}>
                      <Input
                        prefix="¥"
                        placeholder="金额（元）"
                        inputMode="decimal"
                        data-testid="line-amount"
                        // A good figure is shown as every screen shows money (3,000.00); a bad one stays as typed.
                        onBlur={(e) => {
                          const text = e.target.value;
                          if (!amountProblem(text)) form.setFieldValue(['lines', f.name, 'amount'], amountText(amountFen(text)));
                        }}
                      />
                    </Form.Item>
                  ),
                },
                {
                  title: '税率', key: 'rate', width: 84,
                  render: (_: unknown, f) => (
                    <Form.Item name={[f.name, 'taxRate']} noStyle>
                      <Select allowClear style={{ width: '100%' }} placeholder={reimbRateLabel(cats.get(lines[f.name]?.categoryCode ?? '')?.defaultTaxRate ?? '0')} options={[...TAX_RATE_OPTIONS]} />
                    </Form.Item>
                  ),
                },
                { title: '税额', key: 'tax', width: 92, align: 'right', render: (_: unknown, f) => <Money fen={taxOfIncluded(amountFen(lines[f.name]?.amount), rateOf(lines[f.name] ?? {}))} /> },
                {
                  title: '发票', key: 'invoice', width: 184,
                  render: (_: unknown, f) => {
                    const invId = lines[f.name]?.invoiceId;
                    return (
                      <Space direction="vertical" size={2}>
                        {invId ? <InvoiceCell invoice={invoices[invId] ?? null} /> : null}
                        <Space size={4}>
                          <Button size="small" onClick={() => props.onPick(f.name)} data-testid="pick-line-invoice">
                            {invId ? '更换' : '选择发票'}
                          </Button>
                          {invId ? (
                            <Button size="small" type="link" onClick={() => props.onUnpick(f.name)}>
                              移除
                            </Button>
                          ) : null}
                        </Space>
                      </Space>
                    );
                  },
                },
                { title: '检查', key: 'checks', width: 112, render: (_: unknown, f) => <CheckTags checks={checksOf(f.name)} /> },
                {
                  title: '操作', key: 'op', width: 56,
                  render: (_: unknown, f) => (
                    <Button size="small" type="link" danger onClick={() => remove(f.name)}>
                      删除
                    </Button>
                  ),
                },
              ]}
            />
            <Button type="dashed" block style={{ marginTop: 8 }} onClick={() => add({ expenseDate: dayjs() })} data-testid="add-line">
              添加费用明细
            </Button>
          </>
        )}
      </Form.List>
    </Card>
  );
}
