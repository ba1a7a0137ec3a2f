/**
 * 手工录入: a paper invoice typed in from the pool list (POST /income/pool/save). Every field carries the
 * shared schema's rule (PoolEntryBody) and the face the server's own checks (entryChecks.ts), so what the
 * server would refuse is said before sending; a refusal still comes back in the server's words and stays
 * in the drawer. The answer's message and warnings (合并到原记录, 购方非本公司, 疑似重复) are shown. The form
 * itself is EntryFormFields.tsx, shared with the 进项发票编辑 page.
 */
import { Alert, Button, Drawer, Form, Space, type UploadFile } from 'antd';
import { useState } from 'react';
import { PoolEntryBody, UPLOAD_MAX_BYTES, type PoolArrival } from '@zhyy/shared';
import { incomeApi } from '../../../api/income';
import { feedback } from '../../../ui/feedback';
import { EntryFilesField, EntryFormFields, EntryProblems, checkedFace, readBase64, useEntryProblems, type EntryForm } from './EntryFormFields';

/** Says the answer of a save: its message, and its warnings in a dialog. */
function announceArrival(a: PoolArrival, fallback?: string): void {
  void feedback().message.success(a.message || fallback || '已加入票池');
  if (a.warnings.length) feedback().modal.warning({ title: '已加入票池，请注意', content: <ul style={{ paddingLeft: 18, margin: 0 }}>{a.warnings.map((w) => <li key={w}>{w}</li>)}</ul> });
}

export function PoolEntryDrawer({ open, onClose, onSaved }: { open: boolean; onClose: () => void; onSaved: (a: PoolArrival) => void }) {
  const [form] = Form.useForm<EntryForm>();
  const [files, setFiles] = useState<UploadFile[]>([]);
  const [saving, setSaving] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [attempted, setAttempted] = useState(false);
  const problems = useEntryProblems(form, attempted);
  const size = files.reduce((n, f) => n + (f.size ?? 0), 0);

  const close = () => {
    form.resetFields();
    setFiles([]);
    setRefusal(null);
    setAttempted(false);
    onClose();
  };
  const submit = async () => {
    setAttempted(true);
    setRefusal(null);
    const face = await checkedFace(form);
    if (!face) return;
    if (size > UPLOAD_MAX_BYTES) return setRefusal(`文件合计不能超过${UPLOAD_MAX_BYTES / 1024 / 1024}MB`);
    setSaving(true);
    try {
      const body = PoolEntryBody.parse({
        ...face,
        files: await Promise.all(files.map(async (f) => ({ fileName: f.name, content: await readBase64(f.originFileObj as File) }))),
      });
      const res = await incomeApi.save(body, { silent: true });
      announceArrival(res.r as PoolArrival, res.message);
      onSaved(res.r as PoolArrival);
      close();
    } catch (e) {
      setRefusal(e instanceof Error ? e.message : '保存失败，请稍后重试');
    } finally {
      setSaving(false);
    }
  };

  return (
    <Drawer open={open} onClose={close} title="手工录入纸质发票" size="min(860px, calc(100vw - 48px))" destroyOnHidden
      extra={<Space><Button onClick={close}>取消</Button><Button type="primary" loading={saving} onClick={() => void submit().catch(() => undefined)} data-testid="entry-save">保存</Button></Space>}>
      {refusal ? <Alert type="error" showIcon style={{ marginBottom: 12 }} title={refusal} data-testid="entry-refusal" /> : null}
      <EntryProblems problems={problems} />
      <EntryFormFields form={form} name="income-entry">
        <EntryFilesField files={files} onChange={setFiles} />
      </EntryFormFields>
    </Drawer>
  );
}
