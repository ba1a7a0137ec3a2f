/**
 * Where each field of a recognised file came from (XML, PDF文字, 二维码 — the server's `sourceLabel`), put after
 * the field's label in the entry form; a field whose value now differs from what was recognised says so, with
 * the recognised value, so a correction (or an invoice's face that disagrees with its file) is visible.
 */
import { Tag, Tooltip } from 'antd';
import type { ReactNode } from 'react';
import type { RecognisedFieldView, UploadRecognition } from '@zhyy/shared';
import type { EntryField } from '../EntryFormFields';

/** The recognised field's key (upload.ts FIELD_NAMES) → the entry form's field; invoiceNo is the 数电 number when it has 20 digits. */
export function formFieldOf(key: string, draft: UploadRecognition['draft']): EntryField | null {
  switch (key) {
    case 'kindCode': return 'kind';
    case 'invoiceNo': return draft.digitalNo ? 'digitalNo' : 'invoiceNo';
    case 'amount': return 'amountExcl';
    case 'total': return 'amountIncl';
    case 'invoiceCode': case 'issueDate': case 'buyerName': case 'buyerTaxNo': case 'sellerName': case 'sellerTaxNo': case 'tax': case 'checkCode': case 'blueInvoiceNo': return key;
    default: return null;
  }
}

export interface SourceMark {
  field: EntryField;
  label: string;
  source: string;
  sourceLabel: string;
  /** The recognised value as the server said it (money in 元). */
  value: string;
  /** The form's value now differs from it. */
  differs: boolean;
}

type Face = Partial<Record<EntryField, unknown>>;

/** The value the draft holds for a field, in the face's units (money in 分), compared with the face's. */
const same = (a: unknown, b: unknown) => (a ?? '') === (b ?? '') || String(a ?? '').trim() === String(b ?? '').trim();

/**
 * One mark per form field the recognition filled. `face` is the form now (money in 分, as faceOf gives it);
 * `draft` what the recognition filled.
 */
export function sourceMarks(fields: RecognisedFieldView[], draft: UploadRecognition['draft'], face: Face): Partial<Record<EntryField, SourceMark>> {
  const out: Partial<Record<EntryField, SourceMark>> = {};
  const d = draft as Face;
  for (const f of fields) {
    const field = formFieldOf(f.key, draft);
    if (!field || out[field]) continue;
    // A value the draft could not take (a kind the pool does not know, money it could not read) differs from any face.
    const recognised = field in d ? d[field] : f.value;
    out[field] = { field, label: f.label, source: f.source, sourceLabel: f.sourceLabel, value: f.value, differs: !same(recognised, face[field]) };
  }
  return out;
}

const COLOURS: Record<string, string> = { xml: 'green', 'pdf-text': 'blue', qr: 'purple', 'ofd-tag': 'cyan' };

export function SourceTag({ mark }: { mark: SourceMark }) {
  const tag = (
    <Tag color={mark.differs ? 'orange' : (COLOURS[mark.source] ?? 'default')} style={{ marginInlineStart: 6, fontWeight: 'normal' }} data-testid={`source-mark-${mark.field}`}>
      {mark.differs ? `与识别值不同（${mark.sourceLabel}）` : `识别自${mark.sourceLabel}`}
    </Tag>
  );
  return <Tooltip title={`${mark.label}：识别值「${mark.value}」，来源：${mark.sourceLabel}`}>{tag}</Tooltip>;
}

/** The marks as the entry form's label notes. */
export function markNodes(marks: Partial<Record<EntryField, SourceMark>>): Partial<Record<EntryField, ReactNode>> {
  return Object.fromEntries(Object.entries(marks).map(([k, m]) => [k, <SourceTag key={k} mark={m} />]));
}
