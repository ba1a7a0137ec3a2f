/**
 * 项目管理系统接口: where the monthly cost orders come from — the built-in simulator, or the project-management
 * system's HTTP interface (address, credential, timeout). The credential is write-only: the page shows
 * only whether one is set, and saving with the field empty keeps it. 测试连接 uses the saved settings.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Input, InputNumber, Radio, Skeleton, Space, Typography } from 'antd';
import { useState } from 'react';
import type { CostPmsBody, CostPmsView } from '@zhyy/shared';
import { costSettingApi } from '../../../api/cost';
import { feedback } from '../../../ui/feedback';
import { COST_KEY } from '../common';

export const PMS_KEY = [...COST_KEY, 'pms'] as const;

type Values = { mode: 'simulator' | 'http'; url?: string; token?: string; timeoutMs?: number | null };

export function toPmsBody(v: Values, current: CostPmsView): CostPmsBody {
  return { mode: v.mode, url: (v.url ?? current.url ?? '').trim(), token: v.token ?? '', timeoutMs: v.timeoutMs ?? current.timeoutMs };
}

function PmsForm({ view }: { view: CostPmsView }) {
  const qc = useQueryClient();
  const [form] = Form.useForm<Values>();
  const mode = Form.useWatch('mode', form) ?? view.mode;
  const [saving, setSaving] = useState(false);
  const [testing, setTesting] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  const save = async (v: Values) => {
    setSaving(true);
    try {
      const a = await costSettingApi.savePms(toPmsBody(v, view));
      if (a.r) qc.setQueryData(PMS_KEY, a.r);
      form.setFieldValue('token', '');
      void feedback().message.success('保存成功');
    } catch {
      // Shown by the API client.
    } finally {
      setSaving(false);
    }
  };
  const test = async () => {
    setTesting(true);
    try {
      setResult(await costSettingApi.testPms());
    } catch {
      setResult(null);
    } finally {
      setTesting(false);
    }
  };
  return (
    <Form<Values> form={form} layout="vertical" name="cost-pms" style={{ maxWidth: 640 }} initialValues={{ mode: view.mode, url: view.url, token: '', timeoutMs: view.timeoutMs }} onFinish={(v) => void save(v)}>
      {view.source === 'env' ? <Alert type="info" showIcon style={{ marginBottom: 12 }} title="当前使用服务器环境变量中的项目管理系统配置；保存后以本页设置为准。" /> : null}
      <Form.Item name="mode" label="接口模式">
        <Radio.Group options={[{ value: 'simulator', label: '模拟器（演示与测试）' }, { value: 'http', label: '项目管理系统 HTTP 接口' }]} />
      </Form.Item>
      {mode === 'http' ? (
        <>
          <Form.Item name="url" label="接口地址" rules={[{ required: true, whitespace: true, message: '请填写接口地址' }, { pattern: /^https?:\/\/\S+$/, message: '接口地址须以 http:// 或 https:// 开头' }, { max: 300, message: '接口地址不能超过300个字符' }]}>
            <Input maxLength={300} placeholder="https://pms.example.cn/api/cost-orders" />
          </Form.Item>
          <Form.Item name="token" label="接口密钥" extra={view.tokenSet ? '已设置；留空则保留原密钥' : '尚未设置'} rules={[{ max: 500, message: '接口密钥不能超过500个字符' }]}>
            <Input.Password maxLength={500} autoComplete="new-password" placeholder={view.tokenSet ? '已设置，留空则不修改' : '请填写'} />
          </Form.Item>
          <Form.Item name="timeoutMs" label="超时（毫秒）" rules={[{ required: true, message: '请填写超时' }, { type: 'number', min: 1000, max: 120000, message: '超时须在1000至120000毫秒之间' }]}>
            <InputNumber min={1000} max={120000} step={1000} precision={0} style={{ width: 200 }} />
          </Form.Item>
        </>
      ) : (
        <Typography.Paragraph type="secondary">模拟器是内置的项目管理系统，供演示和测试使用，无需外部地址和密钥。</Typography.Paragraph>
      )}
      <Space>
        <Button type="primary" htmlType="submit" loading={saving} data-testid="pms-save">保存</Button>
        <Button loading={testing} onClick={() => void test()} data-testid="pms-test">测试连接</Button>
      </Space>
      {result ? <Alert style={{ marginTop: 12 }} type={result.ok ? 'success' : 'error'} showIcon title={result.message} data-testid="pms-test-result" /> : null}
      <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>测试连接使用已保存的配置；修改后请先保存。</Typography.Paragraph>
    </Form>
  );
}

export function PmsTab() {
  const q = useQuery({ queryKey: PMS_KEY, queryFn: costSettingApi.pms });
  if (q.isError) return <Alert type="error" showIcon title="加载失败，请稍后重试" />;
  return q.data ? <PmsForm view={q.data} /> : <Skeleton active />;
}
