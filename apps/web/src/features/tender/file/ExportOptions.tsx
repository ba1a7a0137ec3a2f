/**
 * The options of an export (title, PDF or zip, the watermark from the settings' template with the
 * project's name) and 生成: when some of the picks failed their check, a confirmation names how many and
 * the export goes on with `force`; after the job is queued the job panel shows its progress.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Radio, Space } from 'antd';
import { useState } from 'react';
import type { TenderExportJob } from '@zhyy/shared';
import { tenderSettingApi } from '../../../api/tender-files';
import { feedback } from '../../../ui/feedback';
import { TENDER_KEY } from '../common/attachments';
import { exportJobsKey, watermarkOf } from './exportLogic';

export const TENDER_SETTINGS_KEY = [...TENDER_KEY, 'settings'] as const;
export const useTenderSettings = () => useQuery({ queryKey: TENDER_SETTINGS_KEY, queryFn: tenderSettingApi.get });

export interface ExportOptionValues {
  title: string;
  format: 'pdf' | 'zip';
  project: string;
  watermark: string;
}

export function ExportOptions(props: {
  kind: TenderExportJob['kind'];
  defaultTitle: string;
  /** How many picks; how many failed their check. */
  count: number;
  failed: number;
  create: (v: { title: string; format: 'pdf' | 'zip'; watermark: string; force: boolean }) => Promise<unknown>;
}) {
  const qc = useQueryClient();
  const settings = useTenderSettings();
  const template = settings.data?.watermark ?? '仅供××项目投标使用';
  const [form] = Form.useForm<ExportOptionValues>();
  const [busy, setBusy] = useState(false);
  const format = Form.useWatch('format', form) ?? 'pdf';
  const run = async (v: ExportOptionValues, force: boolean) => {
    setBusy(true);
    try {
      await props.create({ title: v.title.trim(), format: v.format, watermark: v.format === 'pdf' ? v.watermark.trim() : '', force });
      void feedback().message.success('已开始生成，请在下方查看进度');
      await qc.invalidateQueries({ queryKey: exportJobsKey(props.kind) });
    } catch {
      // Shown by the API client.
    } finally {
      setBusy(false);
    }
  };
  const submit = (v: ExportOptionValues) => {
    if (!props.failed) return void run(v, false);
    feedback().modal.confirm({
      title: '部分项目未通过核查',
      content: `所选${props.count}项中有${props.failed}项未通过核查，仍要导出吗？`,
      okText: '仍然导出',
      cancelText: '取消',
      onOk: () => run(v, true),
    });
  };
  return (
    <Form<ExportOptionValues>
      form={form}
      layout="inline"
      name={`export-${props.kind}`}
      initialValues={{ title: props.defaultTitle, format: 'pdf', project: '', watermark: template }}
      onValuesChange={(changed) => {
        if ('project' in changed) form.setFieldsValue({ watermark: watermarkOf(template, changed.project ?? '') });
      }}
      onFinish={submit}
      style={{ rowGap: 12 }}
    >
      <Form.Item name="title" label="导出标题" rules={[{ required: true, whitespace: true, message: '请填写导出标题' }, { max: 100, message: '导出标题不能超过100个字符' }]}>
        <Input style={{ width: 220 }} maxLength={100} />
      </Form.Item>
      <Form.Item name="format" label="格式">
        <Radio.Group options={[{ value: 'pdf', label: 'PDF（目录、书签、页码）' }, { value: 'zip', label: 'ZIP（原文件）' }]} />
      </Form.Item>
      {format === 'pdf' && (
        <Space wrap>
          <Form.Item name="project" label="投标项目">
            <Input style={{ width: 180 }} placeholder="填写后生成水印" maxLength={40} />
          </Form.Item>
          <Form.Item name="watermark" label="水印" rules={[{ max: 50, message: '水印不能超过50个字符' }]}>
            <Input style={{ width: 240 }} placeholder="留空则不加水印" maxLength={50} />
          </Form.Item>
        </Space>
      )}
      <Form.Item>
        <Button type="primary" htmlType="submit" loading={busy} disabled={!props.count}>
          生成
        </Button>
      </Form.Item>
    </Form>
  );
}
