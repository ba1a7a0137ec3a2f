/**
 * 投标设置 (/tender/setting/edit, roles 1 and 6). Tabs: 投标参数 (the default watermark, the performance
 * window in years and the amount threshold a performance record must reach, the days before a
 * certificate's expiry on which reminders go out). TENDER_SETTING_TABS is exported so other tender parts
 * add their tabs (证书类别) beside it.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Form, Input, InputNumber, Select, Skeleton, Space, Tabs, Typography, type TabsProps } from 'antd';
import { useState } from 'react';
import { formatFen, readAmountInput, TENDER_WINDOW_YEARS, type TenderSettingsInput, type TenderSettingsView } from '@zhyy/shared';
import { tenderSettingApi } from '../../../api/tender-files';
import { formatTime } from '../../../components/download';
import { feedback } from '../../../ui/feedback';
import { TENDER_KEY } from '../common/attachments';
import { CertKindsTab } from '../people/CertKindsTab';

export const SETTINGS_KEY = [...TENDER_KEY, 'settings'] as const;

interface Values {
  watermark: string;
  windowYears: number | null;
  threshold: string;
  remindDays: (string | number)[];
}

/** The reminder days as typed (tags) → distinct integers 1–365, or the reason they cannot be taken. */
export function readRemindDays(v: readonly (string | number)[] | undefined): { ok: true; days: number[] } | { ok: false; error: string } {
  const list = (v ?? []).map((x) => String(x).trim()).filter((x) => x !== '');
  if (!list.length) return { ok: false, error: '至少设置一个提醒天数' };
  if (list.some((x) => !/^\d+$/.test(x))) return { ok: false, error: '提醒天数须为整数' };
  const days = list.map(Number);
  if (days.some((d) => d < 1 || d > 365)) return { ok: false, error: '提醒天数须在1至365天之间' };
  if (new Set(days).size !== days.length) return { ok: false, error: '提醒天数不能重复' };
  if (days.length > 10) return { ok: false, error: '提醒天数最多设置10个' };
  return { ok: true, days: days.sort((a, b) => b - a) };
}

export function toSettingsBody(v: Values): TenderSettingsInput {
  const t = readAmountInput(v.threshold, { label: '业绩金额门槛' });
  const d = readRemindDays(v.remindDays);
  if (!t.ok || !d.ok) throw new Error(!t.ok ? t.error : (d as { error: string }).error);
  return { watermark: v.watermark.trim(), windowYears: v.windowYears ?? 0, thresholdFen: t.fen, remindDays: d.days };
}

function SettingsForm({ view }: { view: TenderSettingsView }) {
  const qc = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const save = async (v: Values) => {
    setSaving(true);
    try {
      const a = await tenderSettingApi.save(toSettingsBody(v));
      if (a.r) {
        qc.setQueryData(SETTINGS_KEY, a.r);
        form.setFieldsValue({ remindDays: a.r.remindDays.map(String), threshold: formatFen(a.r.thresholdFen) });
      }
      void feedback().message.success(a.message ?? '保存成功');
    } catch {
      // Shown by the API client.
    } finally {
      setSaving(false);
    }
  };
  return (
    <Form<Values>
      form={form}
      layout="vertical"
      name="tender-settings"
      style={{ maxWidth: 560 }}
      initialValues={{ watermark: view.watermark, windowYears: view.windowYears, threshold: formatFen(view.thresholdFen), remindDays: view.remindDays.map(String) }}
      onFinish={(v) => void save(v)}
    >
      <Form.Item name="watermark" label="默认水印文字" extra="导出投标文件时的默认水印，可在导出时修改，例如：仅供××项目投标使用" rules={[{ required: true, whitespace: true, message: '请填写默认水印文字' }, { max: 40, message: '默认水印文字不能超过40个字符' }]}>
        <Input maxLength={40} showCount />
      </Form.Item>
      <Form.Item name="windowYears" label="业绩年限（年）" extra="业绩核查时，合同的验收日期须在投标截止日前若干年内" rules={[{ required: true, message: '请填写业绩年限' }, { type: 'number', min: TENDER_WINDOW_YEARS.min, max: TENDER_WINDOW_YEARS.max, message: `业绩年限须在${TENDER_WINDOW_YEARS.min}至${TENDER_WINDOW_YEARS.max}年之间` }]}>
        <InputNumber min={TENDER_WINDOW_YEARS.min} max={TENDER_WINDOW_YEARS.max} precision={0} style={{ width: 160 }} />
      </Form.Item>
      <Form.Item
        name="threshold"
        label="业绩金额门槛（元）"
        extra="合同金额不低于此值才计为有效业绩；0 表示不限"
        rules={[{ validator: async (_, v: string) => { const r = readAmountInput(v, { label: '业绩金额门槛' }); if (!r.ok) throw new Error(r.error); } }]}
      >
        <Input style={{ width: 220 }} inputMode="decimal" placeholder="0.00" />
      </Form.Item>
      <Form.Item
        name="remindDays"
        label="证书到期提醒（天）"
        extra="证书到期前这些天向持证人及证书管理人员发送提醒；输入天数后按回车"
        rules={[{ validator: async (_, v: (string | number)[]) => { const r = readRemindDays(v); if (!r.ok) throw new Error(r.error); } }]}
      >
        <Select mode="tags" style={{ width: 320 }} tokenSeparators={[',', '，', ' ']} open={false} suffixIcon={null} aria-label="证书到期提醒天数" />
      </Form.Item>
      <Space>
        <Button type="primary" htmlType="submit" loading={saving} data-testid="tender-settings-save">
          保存
        </Button>
        {view.updatedAt ? (
          <Typography.Text type="secondary">
            最后修改：{view.updatedBy} {formatTime(view.updatedAt)}
          </Typography.Text>
        ) : (
          <Typography.Text type="secondary">尚未修改，当前为默认值</Typography.Text>
        )}
      </Space>
    </Form>
  );
}

export function ParamsTab() {
  const q = useQuery({ queryKey: SETTINGS_KEY, queryFn: tenderSettingApi.get });
  if (q.isError) return <Alert type="error" showIcon title="投标设置加载失败" action={<Button size="small" onClick={() => void q.refetch()}>重试</Button>} />;
  if (!q.data) return <Skeleton active />;
  return <SettingsForm view={q.data} />;
}

/** The page's tabs; other tender parts add theirs here (e.g. 证书类别). */
export const TENDER_SETTING_TABS: NonNullable<TabsProps['items']> = [
  { key: 'params', label: '投标参数', children: <ParamsTab /> },
  { key: 'cert-kinds', label: '证书种类', children: <CertKindsTab /> },
];

export default function TenderSettingPage() {
  return (
    <Card title="投标设置" data-testid="tender-setting">
      <Tabs items={TENDER_SETTING_TABS} />
    </Card>
  );
}
