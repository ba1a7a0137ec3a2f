/**
 * 上传识别 (issue 13): one file per call (the client sends several one after another and shows the
 * progress), recognised and logged (`recogniseAndLog`, the AI call log), answered with each field and
 * where it came from, the warnings, and the entry form filled for correction. Saving sends the
 * corrected form with the same file again — the server keeps nothing between the two calls — and goes
 * through `arrive(…, uploaded)`: the same file saved twice merges into the first invoice.
 */
import crypto from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { IncomeKind, IncomeSource, OperationLogType, type PoolArrival, type UploadRecogniseBody, type UploadRecognition, type UploadSaveBody } from '@zhyy/shared';
import { yuanToFen } from '../../../integrations/tax/money.js';
import { currentUser } from '../../../platform/context.js';
import { arrive, FaceMismatch, type ArrivingFile } from './arrival.js';
import { addEvent } from '../pool/events.js';
import { decodeFiles, refusedMerge } from './entry.js';
import { displayNo } from '../identity/identity.js';
import { recogniseAndLog } from './recognition/logged.js';
import { FIELD_LABELS, FIELD_NAMES, SOURCE_LABELS, type Recognition } from './recognition/types.js';

const money = (v: string | undefined) => (v !== undefined && /^-?\d+(\.\d{1,2})?$/.test(v) ? yuanToFen(v) : undefined);

/** The entry form as far as the recognition filled it (money in 分; a 20-digit number is the 数电 number). */
export function draftOf(r: Recognition): UploadRecognition['draft'] {
  const v = (k: (typeof FIELD_NAMES)[number]) => r.fields[k]?.value;
  const no = v('invoiceNo');
  const d: UploadRecognition['draft'] = {};
  const set = <K extends keyof UploadRecognition['draft']>(k: K, x: UploadRecognition['draft'][K] | undefined) => {
    if (x !== undefined && x !== '') d[k] = x;
  };
  const kind = v('kindCode');
  if (kind && (IncomeKind.values as readonly string[]).includes(kind)) d.kind = kind as NonNullable<UploadRecognition['draft']['kind']>;
  set('invoiceCode', v('invoiceCode'));
  if (no && no.length === 20) set('digitalNo', no);
  else set('invoiceNo', no);
  set('issueDate', v('issueDate'));
  set('sellerName', v('sellerName'));
  set('sellerTaxNo', v('sellerTaxNo'));
  set('buyerName', v('buyerName'));
  set('buyerTaxNo', v('buyerTaxNo'));
  set('amountExcl', money(v('amount')));
  set('tax', money(v('tax')));
  set('amountIncl', money(v('total')));
  set('checkCode', v('checkCode'));
  set('blueInvoiceNo', v('blueInvoiceNo'));
  if (r.lines?.length) {
    d.lines = r.lines.map((l) => ({ name: l.name, spec: l.spec, unit: l.unit, quantity: l.quantity, unitPrice: l.unitPrice, amount: money(l.amount) ?? 0, taxRate: l.taxRate, tax: money(l.tax) ?? 0 }));
  }
  return d;
}

export async function recogniseUpload(app: FastifyInstance, req: FastifyRequest, b: UploadRecogniseBody): Promise<UploadRecognition> {
  const user = currentUser(req);
  const [file] = decodeFiles([b]);
  const f = file!;
  const r = await recogniseAndLog(app.db, { id: user.id, loginName: user.loginName, name: user.name }, { name: f.name, bytes: f.content });
  const sha256 = crypto.createHash('sha256').update(f.content).digest('hex');
  const held = await app.db.kysely
    .selectFrom('income_files as f')
    .innerJoin('income_invoices as i', 'i.id', 'f.invoice_id')
    .select(['i.id', 'i.invoice_code', 'i.invoice_no', 'i.digital_no'])
    .where('f.sha256', '=', sha256)
    .executeTakeFirst();
  return {
    fileName: f.name,
    format: f.format,
    size: f.content.length,
    sha256,
    fields: FIELD_NAMES.flatMap((k) => {
      const x = r.fields[k];
      return x ? [{ key: k, label: FIELD_LABELS[k], value: x.value, source: x.source, sourceLabel: SOURCE_LABELS[x.source] }] : [];
    }),
    warnings: r.warnings,
    draft: draftOf(r),
    inPool: held ? { id: held.id, number: displayNo(held) } : null,
  };
}

/**
 * Whether a file shows the number typed on the form (issue 27): read again here, because the server keeps
 * nothing between recognising and saving. A file that does not is no evidence of the face: it is kept for a
 * person to review, written to the invoice's history, and a reimbursement line it backs carries a check.
 */
async function unreadFiles(files: ArrivingFile[], number: string): Promise<ArrivingFile[]> {
  const { recogniseOffThread } = await import('./recognition/off-thread.js');
  const out: ArrivingFile[] = [];
  for (const f of files) {
    const r = await recogniseOffThread({ name: f.name, bytes: f.content });
    if ((r.fields.invoiceNo?.value ?? '').trim() !== number) out.push(f);
  }
  return out;
}

export const unrecognisedMessage = (name: string) => `文件「${name}」未能识别出本发票号码，票面由上传人填写，未经文件核对`;

/**
 * Saves the corrected face with its files through `arrive`: a number already in the pool merges only when
 * the face is the same (otherwise refused naming the fields, recorded on that invoice and in the operation log).
 */
export async function saveUpload(app: FastifyInstance, req: FastifyRequest, b: UploadSaveBody): Promise<PoolArrival> {
  const user = currentUser(req);
  const files = decodeFiles(b.files);
  const inv = { ...b, kind: String(b.kind), files };
  const number = b.digitalNo.trim() || b.invoiceNo.trim();
  const unread = await unreadFiles(files, number);
  const label = b.digitalNo || `${b.invoiceCode} ${b.invoiceNo}`.trim();
  try {
    return await app.db.kysely.transaction().execute(async (trx) => {
      const a = await arrive(inv, IncomeSource.uploaded, trx, { userId: user.id, userName: user.name });
      for (const f of unread) {
        const message = unrecognisedMessage(f.name);
        const known = await trx.selectFrom('income_events').select('id').where('invoice_id', '=', a.id).where('kind', '=', 'unrecognised').where('message', '=', message).executeTakeFirst();
        if (!known) await addEvent(trx, a.id, 'unrecognised', message, user.name);
      }
      await app.oplog.record(req, a.outcome === 'created' ? OperationLogType.add : OperationLogType.edit, `上传进项发票 ${label}（${files.map((f) => f.name).join('、')}）：${a.message}`, trx);
      return a;
    });
  } catch (err) {
    if (err instanceof FaceMismatch) await refusedMerge(app, req, err, IncomeSource.uploaded, `上传进项发票 ${label}（${files.map((f) => f.name).join('、')}）`);
    throw err;
  }
}
