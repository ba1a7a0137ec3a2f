/** 发票期限 and 会计系统接口 tabs of 报销设置. The credential is never shown: the page says only whether one is set. */
import { Alert, Button, Form, Input, InputNumber, Radio, Space, Typography } from 'antd';
import { useState } from 'react';
import type { ReimbSettingView } from '@zhyy/shared';
import { reimbSettingApi } from '../../../api/reimbursementSettings';
import { feedback } from '../../../ui/feedback';
import { useSettingChange } from './settingChange';

export function InvoiceAgeTab({ s }: { s: ReimbSettingView }) {
  const change = useSettingChange();
  const [days, setDays] = useState<number>(s.invoiceAgeDays);
  return (
    <Space direction="vertical">
      <Typography.Text>开票日期至报销超过以下天数的发票，报销时提示「发票超期」。</Typography.Text>
      <Space>
        <InputNumber min={1} max={3650} precision={0} value={days} addonAfter="天" aria-label="发票期限" onChange={(v) => setDays(Number(v ?? 0))} />
        <Button type="primary" onClick={() => void change(() => reimbSettingApi.saveInvoiceAge(days))}>保存</Button>
      </Space>
    </Space>
  );
}

type Values = { mode: 'simulator' | 'http'; url: string; token: string; timeoutMs: number };

export function AccountingTab({ s }: { s: ReimbSettingView }) {
  const change = useSettingChange();
  const a = s.accounting;
  const [form] = Form.useForm<Values>();
  const mode = Form.useWatch('mode', form) ?? a.mode;
  const [testing, setTesting] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  const save = async (v: Values) => {
    if (await change(() => reimbSettingApi.saveAccounting({ mode: v.mode, url: (v.url ?? '').trim(), token: v.token ?? '', timeoutMs: v.timeoutMs ?? 15000 }))) {
      form.setFieldValue('token', '');
      void feedback().message.success('保存成功');
    }
  };
  const test = async () => {
    setTesting(true);
    try {
      setResult((await reimbSettingApi.testAccounting()).r ?? null);
    } catch {
      setResult(null);
    } finally {
      setTesting(false);
    }
  };
  return (
    <Form<Values> form={form} layout="vertical" name="reimb-accounting" style={{ maxWidth: 640 }} initialValues={{ mode: a.mode, url: a.url, token: '', timeoutMs: a.timeoutMs }} onFinish={(v) => void save(v)}>
      {a.source === 'env' ? <Alert type="info" showIcon style={{ marginBottom: 12 }} message="当前使用服务器环境变量中的会计系统配置；保存后以本页设置为准。" /> : null}
      <Form.Item name="mode" label="接口模式"><Radio.Group options={[{ value: 'simulator', label: '模拟器（演示与测试）' }, { value: 'http', label: '财务系统 i8 接口' }]} /></Form.Item>
      {mode === 'http' ? (
        <>
          <Form.Item name="url" label="接口地址" rules={[{ required: true, message: '请填写会计系统接口地址' }, { pattern: /^https?:\/\/\S+$/, message: '接口地址须以 http:// 或 https:// 开头' }]}><Input maxLength={300} placeholder="https://i8.example.cn/api/voucher" /></Form.Item>
          <Form.Item name="token" label="接口密钥" extra={a.tokenSet ? '已设置；留空则保留原密钥' : '尚未设置'}><Input.Password maxLength={500} autoComplete="new-password" placeholder={a.tokenSet ? '已设置，留空则不修改' : '请填写'} /></Form.Item>
          <Form.Item name="timeoutMs" label="超时（毫秒）"><InputNumber min={1000} max={120000} step={1000} style={{ width: 200 }} /></Form.Item>
        </>
      ) : null}
      <Space>
        <Button type="primary" htmlType="submit">保存</Button>
        <Button loading={testing} onClick={() => void test()}>测试连接</Button>
      </Space>
      {result ? <Alert style={{ marginTop: 12 }} type={result.ok ? 'success' : 'error'} showIcon message={result.message} data-testid="accounting-test-result" /> : null}
      <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>测试连接使用已保存的配置；修改后请先保存。</Typography.Paragraph>
    </Form>
  );
}
