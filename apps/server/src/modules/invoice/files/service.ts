/**
 * Invoice files (PDF/OFD/XML from the tax service, scans): content-addressed blobs in the database
 * (invoice_blobs, keyed by sha256, so identical content is stored once and every app server on one
 * PostgreSQL serves them) and per-invoice entries (invoice_files). The browser's file viewer cannot
 * send X-Token, so it gets short-lived signed links (HMAC with a key that never leaves the server).
 */
import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import { SIGNED_INVOICE_FILE_ROUTE } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import { newId } from '../../../platform/ids.js';
import { nowIso } from '../../../platform/time.js';

export const FILE_LINK_TTL_MS = 10 * 60_000;
/** Outside /api: the one public route of the area, answered only for a valid, unexpired HMAC link. */
export const FILE_ROUTE = SIGNED_INVOICE_FILE_ROUTE;

export const MIME: Record<string, string> = {
  pdf: 'application/pdf',
  ofd: 'application/ofd',
  xml: 'application/xml',
  jpg: 'image/jpeg',
  png: 'image/png',
};

export interface NewFile {
  type: number;
  format: string;
  name: string;
  content: Buffer;
  createdBy?: string | null;
}

/** Stores one file of an invoice; the same content twice on one invoice is kept once. */
export async function storeFile(db: Kysely<Database>, invoiceId: string, f: NewFile): Promise<void> {
  const sha256 = crypto.createHash('sha256').update(f.content).digest('hex');
  const now = nowIso();
  await db.insertInto('invoice_blobs').values({ sha256, size: f.content.length, content: f.content, created_at: now }).onConflict((oc) => oc.column('sha256').doNothing()).execute();
  await db
    .insertInto('invoice_files')
    .values({ id: newId(), invoice_id: invoiceId, type: f.type, format: f.format, name: f.name, mime: MIME[f.format] ?? 'application/octet-stream', size: f.content.length, sha256, created_by: f.createdBy ?? null, created_at: now })
    .onConflict((oc) => oc.columns(['invoice_id', 'sha256']).doNothing())
    .execute();
}

/** The route is signed with the file: a link of one kind of file never opens a file of another kind. */
const sign = (key: string, route: string, fileId: string, expires: number) => crypto.createHmac('sha256', key).update(`${route}:${fileId}.${expires}`).digest('base64url');

/** A link that serves one file without a token until it expires. */
export function signedLink(key: string, fileId: string, now = Date.now(), route = FILE_ROUTE): { url: string; expiresAt: string } {
  const expires = now + FILE_LINK_TTL_MS;
  return { url: `${route}/${fileId}?e=${expires}&s=${sign(key, route, fileId, expires)}`, expiresAt: new Date(expires).toISOString() };
}

export function verifyLink(key: string, fileId: string, expires: number, signature: string, now = Date.now(), route = FILE_ROUTE): 'ok' | 'expired' | 'bad' {
  const expected = Buffer.from(sign(key, route, fileId, expires));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) return 'bad';
  return expires < now ? 'expired' : 'ok';
}

export async function readFile(db: Kysely<Database>, fileId: string) {
  return db
    .selectFrom('invoice_files as f')
    .innerJoin('invoice_blobs as b', 'b.sha256', 'f.sha256')
    .select(['f.id', 'f.invoice_id', 'f.name', 'f.mime', 'f.format', 'b.content'])
    .where('f.id', '=', fileId)
    .executeTakeFirst();
}
