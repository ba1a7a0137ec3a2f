/** 开票设置: seller, default clerk / payee / checker, tax gateway (simulator or Nuonuo), tax classification codes. */
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Form, Input, InputNumber, Radio, Row, Select, Skeleton, Table, Typography } from 'antd';
import { useState } from 'react';
import { InvoiceKind, SettingSaveBody, TAX_RATES, TaxNo, TaxPolicy, type InvoiceSettingView } from '@zhyy/shared';
import { invoiceApi } from '../../../api/invoice';
import { formatTime } from '../../../components/download';
import { zodRule } from '../../../components/zodRule';
import { feedback } from '../../../ui/feedback';
import { INVOICE_KEY } from '../widgets';

type Values = Omit<InvoiceSettingView, 'appSecretSet' | 'updatedAt' | 'updatedBy'> & { appSecret?: string };

export default function SettingPage() {
  const qc = useQueryClient();
  const q = useQuery({ queryKey: [...INVOICE_KEY, 'setting'], queryFn: invoiceApi.setting });
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const mode = Form.useWatch('gatewayMode', form);
  if (!q.data) return <Card><Skeleton active /></Card>;
  const s = q.data;
  const submit = async (v: Values) => {
    setSaving(true);
    try {
      const body = SettingSaveBody.parse({ ...v, appSecret: v.appSecret ?? '', taxCodes: v.taxCodes ?? [] });
      await invoiceApi.saveSetting(body);
      void feedback().message.success('保存成功');
      form.setFieldValue('appSecret', '');
      void qc.invalidateQueries({ queryKey: INVOICE_KEY });
    } catch (e) {
      if (e instanceof Error && 'issues' in e) void feedback().message.error(`请检查：${(e as { issues: Array<{ message: string }> }).issues[0]?.message ?? ''}`);
    } finally {
      setSaving(false);
    }
  };
  const item = (name: keyof Values, label: string, node: React.ReactNode, extra: object = {}) => <Col span={8}><Form.Item name={name} label={label} {...extra}>{node}</Form.Item></Col>;
  return (
    <Card title="开票设置" data-testid="invoice-setting" extra={s.updatedAt ? <Typography.Text type="secondary">{s.updatedBy} 于 {formatTime(s.updatedAt)} 修改</Typography.Text> : null}>
      <Form<Values> form={form} name="invoice-setting" layout="vertical" initialValues={{ ...s, appSecret: '' }} onFinish={(v) => void submit(v)}>
        <Typography.Title level={5}>销售方</Typography.Title>
        <Row gutter={16}>
          {item('sellerName', '销方名称', <Input maxLength={100} />, { rules: [{ required: true, message: '请填写销方名称' }] })}
          {item('sellerTaxNo', '销方税号', <Input maxLength={20} />, { rules: [{ required: true, message: '请填写销方税号' }, zodRule(TaxNo)] })}
          {item('defaultKind', '默认发票种类', <Select options={InvoiceKind.options.map((o) => ({ value: o.value, label: o.label }))} />)}
          {item('sellerAddress', '地址', <Input maxLength={100} />)}
          {item('sellerPhone', '电话', <Input maxLength={30} />, { rules: [zodRule(SettingSaveBody.shape.sellerPhone, '电话')] })}
          {item('sellerBank', '开户行', <Input maxLength={100} />)}
          {item('sellerAccount', '账号', <Input maxLength={50} />, { rules: [zodRule(SettingSaveBody.shape.sellerAccount, '账号')] })}
          {item('clerk', '开票人', <Input maxLength={20} />, { rules: [{ required: true, message: '请填写开票人' }] })}
          {item('payee', '收款人', <Input maxLength={20} />)}
          {item('checker', '复核人', <Input maxLength={20} />)}
        </Row>
        <Typography.Title level={5}>税务接口</Typography.Title>
        <Form.Item name="gatewayMode"><Radio.Group options={[{ value: 'simulator', label: '模拟器（演示与测试）' }, { value: 'nuonuo', label: '诺税通开放平台' }]} /></Form.Item>
        {mode === 'nuonuo' ? (
          <Row gutter={16}>
            {item('appKey', 'appKey', <Input maxLength={100} autoComplete="off" />)}
            {item('appSecret', 'appSecret', <Input.Password maxLength={200} autoComplete="new-password" placeholder={s.appSecretSet ? '已设置，留空则不修改' : '请填写'} />)}
            {item('gatewayTaxNo', '接口税号', <Input maxLength={20} />)}
            <Col span={16}><Form.Item name="nuonuoUrl" label="接口地址（留空使用正式环境）"><Input maxLength={200} placeholder="https://sdk.nuonuo.com/open/v1/services" /></Form.Item></Col>
          </Row>
        ) : (
          <Row gutter={16}>
            {item('simulatorDelayMs', '模拟延迟（毫秒）', <InputNumber min={0} max={600000} step={500} style={{ width: '100%' }} />)}
            {item('simulatorFailureRate', '模拟失败率（0～1）', <InputNumber min={0} max={1} step={0.05} style={{ width: '100%' }} />)}
            <Col span={8}><Alert type="info" showIcon title="购方名称含「测试失败」时模拟器总是开票失败" /></Col>
          </Row>
        )}
        <Typography.Title level={5}>税收分类编码</Typography.Title>
        <Form.List name="taxCodes">
          {(fields, { add, remove }) => (
            <>
              <Table size="small" rowKey="key" dataSource={fields} pagination={false} scroll={{ y: 360 }} columns={[
                { title: '编码（19位）', width: 220, render: (_: unknown, f) => <Form.Item name={[f.name, 'code']} noStyle><Input maxLength={19} /></Form.Item> },
                { title: '简称', width: 160, render: (_: unknown, f) => <Form.Item name={[f.name, 'shortName']} noStyle><Input maxLength={40} /></Form.Item> },
                { title: '商品和服务名称', render: (_: unknown, f) => <Form.Item name={[f.name, 'name']} noStyle><Input maxLength={100} /></Form.Item> },
                { title: '税率', width: 150, render: (_: unknown, f) => <Form.Item name={[f.name, 'taxRate']} noStyle><Select style={{ width: 140 }} options={TAX_RATES.map((r) => ({ value: r.value, label: r.label }))} /></Form.Item> },
                { title: '优惠政策', width: 130, render: (_: unknown, f) => <Form.Item name={[f.name, 'policy']} noStyle><Select style={{ width: 120 }} options={TaxPolicy.options.map((o) => ({ value: o.value, label: o.label }))} /></Form.Item> },
                { title: '', width: 50, render: (_: unknown, f) => <Button type="text" danger size="small" icon={<DeleteOutlined />} aria-label="删除编码" onClick={() => remove(f.name)} /> },
              ]} />
              <Button type="dashed" icon={<PlusOutlined />} style={{ marginTop: 8 }} onClick={() => add({ taxRate: '0.09', policy: 0 })}>添加编码</Button>
            </>
          )}
        </Form.List>
        <Button type="primary" htmlType="submit" loading={saving} style={{ marginTop: 16 }}>保存设置</Button>
      </Form>
    </Card>
  );
}
