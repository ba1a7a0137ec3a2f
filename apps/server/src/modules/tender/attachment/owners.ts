/**
 * Who owns tender attachments. Each area that shows files registers its kind of owner once, at import
 * time of its routes: the contracts' 'contract', the people's 'title' and 'certificate'. The attachment
 * calls (./routes.ts) ask the owner who may read and who may change its files, whether the record exists
 * (and its label for the operation log), which attachment types it takes, and whether its files may
 * change now.
 */
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { RecordRef } from '../../../platform/oplog.js';

export interface AttachmentOwner {
  /** Who may list and view this owner's files. */
  canRead(req: FastifyRequest): boolean;
  /** Who may upload and delete. */
  canWrite(req: FastifyRequest): boolean;
  /** A label for the log; null: no such owner (404). */
  describe(db: Kysely<Database>, ownerId: string): Promise<string | null>;
  /** The attachment type codes allowed; undefined: any. */
  kinds?: readonly number[];
  /** A Chinese reason when the owner's files may not change now (null: they may). */
  locked?(db: Kysely<Database>, ownerId: string): Promise<string | null>;
  /** A Chinese reason when this owner's file may not be deleted now (the last evidence of a record in use); null: it may. */
  refuseDelete?(db: Kysely<Database>, ownerId: string): Promise<string | null>;
  /** A Chinese reason when this record takes no file of this type (a contract takes its own type's pages only). */
  refuseKind?(db: Kysely<Database>, ownerId: string, kind: number): Promise<string | null>;
  /** The record whose history (修改记录) shows uploads and deletions of its files; none when omitted. */
  history?(ownerId: string): RecordRef;
}

const owners = new Map<string, AttachmentOwner>();

/** Registers (or replaces) the owner of one kind; kinds are lower-case words ('contract', 'title', 'certificate'). */
export function registerAttachmentOwner(kind: string, owner: AttachmentOwner): void {
  if (!/^[a-z][a-z0-9-]{0,29}$/.test(kind)) throw new Error(`bad attachment owner kind: ${kind}`);
  owners.set(kind, owner);
}

export function attachmentOwner(kind: string): AttachmentOwner | undefined {
  return owners.get(kind);
}

/** Test support: forgets an owner registered by a test. */
export function unregisterAttachmentOwner(kind: string): void {
  owners.delete(kind);
}

/** Whether a request's user holds any of the roles (for canRead/canWrite). */
export const hasRole = (req: FastifyRequest, roles: readonly string[]): boolean => !!req.user && req.user.roles.some((r) => roles.includes(r));
