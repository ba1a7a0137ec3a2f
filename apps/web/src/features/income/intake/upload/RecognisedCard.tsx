/**
 * One uploaded file on 进项发票编辑: its name, size and state (等待识别 / 识别中 / 已识别 / 识别失败 with the
 * reason), a preview of an image, and once recognised the entry form filled with what was read — each field
 * marked with where it came from — the recognition's warnings, 已在票池 when this very file is an invoice's,
 * and 保存到票池 (the corrected face with the same file again). The answer's message and warnings stay on the card.
 */
import { Alert, Button, Card, Form, Image, Popconfirm, Space, Spin, Tag, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { UploadSaveBody, type PoolArrival, type UploadRecognition } from '@zhyy/shared';
import { incomeUploadApi } from '../../../../api/incomeUpload';
import { feedback } from '../../../../ui/feedback';
import { EntryFormFields, EntryProblems, checkedFace, faceOf, formOf, readBase64, useEntryProblems, type EntryForm } from '../EntryFormFields';
import { InvoiceLink } from './links';
import { markNodes, sourceMarks } from './sourceMarks';
import { FILE_STATE_LABEL, reasonOf, type QueuedFile } from './uploadQueue';

const STATE_COLOURS = { waiting: 'default', recognising: 'processing', recognised: 'success', failed: 'error' } as const;

export const sizeText = (n: number) => (n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)}MB` : `${Math.max(1, Math.round(n / 1024))}KB`);

/** A thumbnail of a JPG or PNG (an object URL, released when the card goes). */
function Preview({ file }: { file: Blob & { name: string } }) {
  const image = /\.(jpe?g|png)$/i.test(file.name);
  const url = useMemo(() => (image && typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : null), [file, image]);
  useEffect(() => () => { if (url) URL.revokeObjectURL(url); }, [url]);
  return url ? <Image src={url} width={96} alt={file.name} style={{ border: '1px solid #f0f0f0' }} /> : null;
}

export function RecognisedCard({ item, base, onSaved, onRemove }: {
  item: QueuedFile;
  /** The invoice the files are added to (edit/<id>): the form starts with its face, not the recognised one. */
  base?: EntryForm;
  onSaved: (a: PoolArrival) => void;
  onRemove: () => void;
}) {
  const r = item.result;
  return (
    <Card size="small" data-testid="upload-file" data-state={item.state} data-file={item.name}
      title={<Space wrap><Typography.Text strong>{item.name}</Typography.Text><Typography.Text type="secondary">{sizeText(item.size)}</Typography.Text><Tag color={STATE_COLOURS[item.state]} data-testid="upload-state">{FILE_STATE_LABEL[item.state]}</Tag></Space>}
      extra={item.state === 'recognising' || item.saved ? null : item.state === 'recognised' ? (
        <Popconfirm title="移除该文件？" description="已识别和更正的内容不会保存。" okText="移除" cancelText="取消" onConfirm={onRemove}><Button size="small">移除</Button></Popconfirm>
      ) : <Button size="small" onClick={onRemove}>移除</Button>}>
      <div style={{ display: 'flex', gap: 16, alignItems: 'flex-start' }}>
        <Preview file={item.file} />
        <div style={{ flex: 1, minWidth: 0 }}>
          {item.state === 'waiting' ? <Typography.Text type="secondary">等待识别…</Typography.Text> : null}
          {item.state === 'recognising' ? <Spin size="small" description="正在识别…" /> : null}
          {item.state === 'failed' ? <Alert type="error" showIcon title={item.reason ?? '识别失败'} data-testid="upload-reason" /> : null}
          {item.state === 'recognised' && r ? <RecognisedForm item={item} result={r} base={base} onSaved={onSaved} /> : null}
        </div>
      </div>
    </Card>
  );
}

function RecognisedForm({ item, result, base, onSaved }: { item: QueuedFile; result: UploadRecognition; base?: EntryForm; onSaved: (a: PoolArrival) => void }) {
  const [form] = Form.useForm<EntryForm>();
  const [attempted, setAttempted] = useState(false);
  const [saving, setSaving] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const problems = useEntryProblems(form, attempted);
  const initial = useMemo(() => base ?? formOf(result.draft), [base, result.draft]);
  const values = (Form.useWatch([], form) ?? initial) as EntryForm;
  const marks = sourceMarks(result.fields, result.draft, faceOf(values));
  const saved = item.saved;
  // Adding a file to an invoice: a file that names another invoice would be merged into this one.
  const otherNumber = base ? (['digitalNo', 'invoiceNo', 'invoiceCode'] as const).map((k) => marks[k]).find((m) => m?.differs) : undefined;

  const save = async () => {
    setAttempted(true);
    setRefusal(null);
    const face = await checkedFace(form);
    if (!face) return;
    setSaving(true);
    try {
      const body = UploadSaveBody.parse({ ...face, files: [{ fileName: item.name, content: await readBase64(item.file) }] });
      const res = await incomeUploadApi.save(body);
      const a = res.r as PoolArrival;
      void feedback().message.success(a.message || res.message || '已加入票池');
      onSaved(a);
    } catch (e) {
      setRefusal(reasonOf(e));
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }} data-testid="upload-summary">
        {result.fields.length ? `从${result.format.toUpperCase()}文件识别出 ${result.fields.length} 项：${result.fields.map((f) => `${f.label}（${f.sourceLabel}）`).join('、')}。请核对后保存。` : '未识别出票面信息，请按纸质发票或文件内容填写。'}
      </Typography.Paragraph>
      {result.warnings.length ? <Alert type="warning" showIcon style={{ marginBottom: 8 }} title="识别提示" description={<ul style={{ paddingLeft: 18, margin: 0 }}>{result.warnings.map((w) => <li key={w}>{w}</li>)}</ul>} data-testid="upload-warnings" /> : null}
      {result.inPool && !saved ? (
        <Alert type="info" showIcon style={{ marginBottom: 8 }} data-testid="upload-in-pool"
          title={<span>该文件已在票池中（发票 {result.inPool.number || '—'}），再次保存将合并到该发票。 <InvoiceLink id={result.inPool.id} /></span>} />
      ) : null}
      {otherNumber && !saved ? (
        <Alert type="warning" showIcon style={{ marginBottom: 8 }} data-testid="upload-other-invoice"
          title={`该文件识别出的${otherNumber.label}（${otherNumber.value}）与本发票不一致，请确认是否为同一张发票；保存将把文件合并到本发票`} />
      ) : null}
      {refusal ? <Alert type="error" showIcon style={{ marginBottom: 8 }} title={refusal} data-testid="upload-refusal" /> : null}
      <EntryProblems problems={problems} />
      <EntryFormFields form={form} name={`income-upload-${item.uid}`} initialValues={initial} marks={markNodes(marks)} />
      {saved ? (
        <Alert type="success" showIcon data-testid="upload-saved"
          title={<span>{saved.message} <InvoiceLink id={saved.id} /></span>}
          description={saved.warnings.length ? <ul style={{ paddingLeft: 18, margin: 0 }}>{saved.warnings.map((w) => <li key={w}>{w}</li>)}</ul> : undefined} />
      ) : (
        <Button type="primary" loading={saving} onClick={() => void save()} data-testid="upload-save">保存到票池</Button>
      )}
    </>
  );
}
