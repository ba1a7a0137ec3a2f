/**
 * 手工录入 on 进项发票编辑: a paper invoice typed in with the same form and checks as the pool list's drawer
 * (EntryFormFields, entryChecks), optional files, saved through /income/pool/save. The answer (已加入票池, or
 * 合并到原记录) and its warnings stay on the page with a link to the invoice; 继续录入 empties the form.
 */
import { Alert, Button, Form, Space, type UploadFile } from 'antd';
import { useState } from 'react';
import { PoolEntryBody, UPLOAD_MAX_BYTES, type PoolArrival } from '@zhyy/shared';
import { incomeApi } from '../../../../api/income';
import { feedback } from '../../../../ui/feedback';
import { EntryFilesField, EntryFormFields, EntryProblems, checkedFace, readBase64, useEntryProblems, type EntryForm } from '../EntryFormFields';
import { InvoiceLink } from './links';
import { reasonOf } from './uploadQueue';

export function ManualEntry() {
  const [form] = Form.useForm<EntryForm>();
  const [files, setFiles] = useState<UploadFile[]>([]);
  const [saving, setSaving] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [attempted, setAttempted] = useState(false);
  const [saved, setSaved] = useState<PoolArrival | null>(null);
  const problems = useEntryProblems(form, attempted);

  const reset = () => {
    form.resetFields();
    setFiles([]);
    setRefusal(null);
    setAttempted(false);
    setSaved(null);
  };
  const submit = async () => {
    setAttempted(true);
    setRefusal(null);
    const face = await checkedFace(form);
    if (!face) return;
    if (files.reduce((n, f) => n + (f.size ?? 0), 0) > UPLOAD_MAX_BYTES) return setRefusal(`文件合计不能超过${UPLOAD_MAX_BYTES / 1024 / 1024}MB`);
    setSaving(true);
    try {
      const body = PoolEntryBody.parse({ ...face, files: await Promise.all(files.map(async (f) => ({ fileName: f.name, content: await readBase64(f.originFileObj as File) }))) });
      const res = await incomeApi.save(body, { silent: true });
      const a = res.r as PoolArrival;
      void feedback().message.success(a.message || res.message || '已加入票池');
      setSaved(a);
    } catch (e) {
      setRefusal(reasonOf(e));
    } finally {
      setSaving(false);
    }
  };

  return (
    <div data-testid="manual-entry">
      {refusal ? <Alert type="error" showIcon style={{ marginBottom: 12 }} title={refusal} data-testid="entry-refusal" /> : null}
      <EntryProblems problems={problems} />
      {saved ? (
        <Alert type="success" showIcon style={{ marginBottom: 12 }} data-testid="manual-saved"
          title={<span>{saved.message} <InvoiceLink id={saved.id} /></span>}
          description={saved.warnings.length ? <ul style={{ paddingLeft: 18, margin: 0 }}>{saved.warnings.map((w) => <li key={w}>{w}</li>)}</ul> : undefined} />
      ) : null}
      <EntryFormFields form={form} name="income-manual">
        <EntryFilesField files={files} onChange={setFiles} />
      </EntryFormFields>
      <Space>
        {saved ? <Button type="primary" onClick={reset} data-testid="manual-next">继续录入</Button> : <Button type="primary" loading={saving} onClick={() => void submit()} data-testid="manual-save">保存到票池</Button>}
      </Space>
    </div>
  );
}
