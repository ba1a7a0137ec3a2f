/**
 * Tender attachments as server functions the other tender areas use: store one (seeders, tests, the
 * upload call), list an owner's, open one as a stream, remove them. Files live in app.storage under
 * `tender/attachment/<yyyymm>/<id>`; a row in tender_attachments names each.
 *
 * Order of effects, so no row ever points at a missing object: storing writes the object first, then
 * the row (the object is removed again when the row cannot be written); deleting removes the row (in its
 * transaction, with the operation log) and the object only after that commits.
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { TENDER_ATTACHMENT_FORMAT, TENDER_ATTACHMENT_MAX_BYTES, TENDER_ATTACHMENT_MIME, TENDER_ATTACHMENT_TOO_LARGE, type TenderAttachment } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import { notFound, refuse } from '../../../platform/envelope.js';
import { newId } from '../../../platform/ids.js';
import { nowIso } from '../../../platform/time.js';
import { sniffFormat } from '../../../platform/userFiles.js';
import { Measure, type FileStorage } from '../../../platform/storage/index.js';
import '../files/tables.js';

type Db = Kysely<Database>;
type Row = Database['tender_attachments'];

export const ATTACHMENT_NOT_FOUND = '附件不存在或已被删除';
export const ATTACHMENT_EMPTY = '文件内容为空';

export const toView = (r: Row): TenderAttachment => ({
  id: r.id,
  ownerKind: r.owner_kind,
  ownerId: r.owner_id,
  kind: r.kind,
  fileName: r.file_name,
  mime: r.mime,
  size: Number(r.size),
  sha256: r.sha256,
  uploadedBy: r.uploaded_by,
  uploadedAt: r.uploaded_at,
});

/** The attachments of some owners of one kind, by owner, type and upload time. */
export async function listAttachments(db: Db, ownerKind: string, ownerIds: readonly string[]): Promise<TenderAttachment[]> {
  if (!ownerIds.length) return [];
  const out: TenderAttachment[] = [];
  // In slices, so a long list stays within the databases' parameter limits.
  for (let i = 0; i < ownerIds.length; i += 500) {
    const rows = await db
      .selectFrom('tender_attachments')
      .selectAll()
      .where('owner_kind', '=', ownerKind)
      .where('owner_id', 'in', ownerIds.slice(i, i + 500))
      .orderBy('owner_id')
      .orderBy('kind')
      .orderBy('uploaded_at')
      .orderBy('id')
      .execute();
    out.push(...rows.map(toView));
  }
  return out;
}

export async function attachmentRow(db: Db, id: string): Promise<Row | undefined> {
  return db.selectFrom('tender_attachments').selectAll().where('id', '=', id).executeTakeFirst();
}

/** One attachment's content as a stream (404 附件不存在或已被删除 when the row or the object is missing). */
export async function openAttachment(app: FastifyInstance, id: string): Promise<{ name: string; mime: string; size: number; sha256: string; stream: Readable }> {
  const row = await attachmentRow(app.db.kysely, id);
  if (!row) throw notFound(ATTACHMENT_NOT_FOUND);
  const stream = await app.storage.open(row.storage_key);
  return { name: row.file_name, mime: row.mime, size: Number(row.size), sha256: row.sha256, stream };
}

/**
 * Checks the first bytes of a stream on their way through: PDF, JPEG or PNG only (whatever the name
 * says), `limit` bytes at most, not empty. `mime` is known once the first bytes have passed.
 */
export class AttachmentCheck extends Transform {
  mime: string | null = null;
  private head: Buffer[] = [];
  private headLength = 0;
  private seen = 0;
  constructor(private readonly limit = TENDER_ATTACHMENT_MAX_BYTES) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null, data?: Buffer) => void): void {
    this.seen += chunk.length;
    if (this.seen > this.limit) return cb(refuse(TENDER_ATTACHMENT_TOO_LARGE, 413));
    if (this.mime) return cb(null, chunk);
    this.head.push(chunk);
    this.headLength += chunk.length;
    if (this.headLength < 8) return cb();
    const err = this.decide();
    if (err) return cb(err);
    const held = Buffer.concat(this.head);
    this.head = [];
    cb(null, held);
  }
  override _flush(cb: (err?: Error | null, data?: Buffer) => void): void {
    if (this.mime) return cb();
    if (this.headLength === 0) return cb(refuse(ATTACHMENT_EMPTY));
    const err = this.decide();
    if (err) return cb(err);
    cb(null, Buffer.concat(this.head));
  }
  private decide(): Error | null {
    const f = sniffFormat(Buffer.concat(this.head));
    const mime = f === 'pdf' || f === 'jpg' || f === 'png' ? TENDER_ATTACHMENT_MIME[f] : null;
    if (!mime) return refuse(TENDER_ATTACHMENT_FORMAT);
    this.mime = mime;
    return null;
  }
}

export interface NewAttachment {
  ownerKind: string;
  ownerId: string;
  /** AttachmentType code, 0: none in particular. */
  kind: number;
  name: string;
  /** Checked by content; a stated type is ignored (kept for callers that know it). */
  mime?: string;
  body: Readable | Buffer;
  /** Who uploads (a user's name, or 系统 for the demo). */
  by: string;
}

/**
 * Stores one attachment: the content streams through the format and size check into app.storage, then
 * the row is written (with `afterInsert`, e.g. the operation log, in the same transaction). No owner
 * check here: the routes do that; seeders and tests call this directly.
 */
/**
 * Where storeAttachment writes: the app (its storage and database, the row in a transaction of its own),
 * or, for seeders, a storage and a database handle that is already a transaction (`inTransaction`).
 */
export interface AttachmentStore {
  storage: FileStorage;
  db: Db;
  inTransaction?: boolean;
}

const storeOf = (x: FastifyInstance | AttachmentStore): AttachmentStore => ('oplog' in x ? { storage: x.storage, db: x.db.kysely } : x);

export async function storeAttachment(target: FastifyInstance | AttachmentStore, a: NewAttachment, afterInsert?: (trx: Db, row: Row) => Promise<void>): Promise<TenderAttachment> {
  const st = storeOf(target);
  const id = newId();
  const now = nowIso();
  const key = `tender/attachment/${now.slice(0, 7).replace('-', '')}/${id}`;
  const check = new AttachmentCheck();
  const source = Buffer.isBuffer(a.body) ? Readable.from([a.body]) : a.body;
  // The source feeds the check (errors handled from the start), storage reads the check; the first
  // failure of either side (a refusal of the check first of all) is the answer.
  const feeding = pipeline(source, check);
  const [stored] = await Promise.all([st.storage.put(key, check, { contentType: 'application/octet-stream' }), feeding]).catch(async (e) => {
    await st.storage.remove(key).catch(() => undefined);
    throw e;
  });
  const row: Row = {
    id,
    owner_kind: a.ownerKind,
    owner_id: a.ownerId,
    kind: a.kind,
    file_name: a.name,
    mime: check.mime ?? 'application/octet-stream',
    size: stored.size,
    sha256: stored.sha256,
    storage_key: key,
    uploaded_by: a.by,
    uploaded_at: now,
  };
  const write = async (trx: Db) => {
    await trx.insertInto('tender_attachments').values(row).execute();
    await afterInsert?.(trx, row);
  };
  try {
    if (st.inTransaction) await write(st.db);
    else await st.db.transaction().execute(write);
  } catch (e) {
    await st.storage.remove(key).catch(() => undefined);
    throw e;
  }
  return toView(row);
}

/**
 * Deletes attachments by id (rows in one transaction, with `inTrx` for the operation log), then their
 * objects. Used by the delete call and by owners that delete a record with its files.
 */
export async function deleteAttachments(app: FastifyInstance, ids: readonly string[], inTrx?: (trx: Db, rows: Row[]) => Promise<void>): Promise<Row[]> {
  if (!ids.length) return [];
  const rows = await app.db.kysely.transaction().execute(async (trx) => {
    const found = await trx.selectFrom('tender_attachments').selectAll().where('id', 'in', [...ids]).execute();
    if (found.length) await trx.deleteFrom('tender_attachments').where('id', 'in', found.map((r) => r.id)).execute();
    await inTrx?.(trx, found);
    return found;
  });
  await removeObjects(app, rows);
  return rows;
}

/** All attachments of some owners (when the records themselves are deleted). */
export async function deleteOwnerAttachments(app: FastifyInstance, ownerKind: string, ownerIds: readonly string[]): Promise<number> {
  if (!ownerIds.length) return 0;
  const ids = (await listAttachments(app.db.kysely, ownerKind, ownerIds)).map((a) => a.id);
  return (await deleteAttachments(app, ids)).length;
}

async function removeObjects(app: FastifyInstance, rows: Row[]): Promise<void> {
  for (const r of rows) {
    // A leftover object is harmless (nothing points at it); a row pointing at nothing is not.
    await app.storage.remove(r.storage_key).catch((e) => app.log.warn({ err: e, key: r.storage_key }, 'tender attachment object not removed'));
  }
}
