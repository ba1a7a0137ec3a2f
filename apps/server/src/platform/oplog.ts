/**
 * The operation log: every change in the product writes a row (type codes of SPEC section 3) with
 * who, what and when. Modules call `app.oplog.record(req, type, description)`, inside their
 * transaction when they have one (pass it as `trx`). An operation on one record (an invoice…) names
 * it with `recordFor`, so the record's history is read by key, not by searching the text.
 */
import type { FastifyRequest } from 'fastify';
import { SYSTEM_ACTOR_NAME } from '@zhyy/shared';
import type { Kysely } from 'kysely';
import type { Db } from '../db/index.js';
import type { Database } from '../db/schema.js';
import { newId } from './ids.js';
import { nowIso } from './time.js';

export interface OperationActor {
  id: string | null;
  loginName: string;
  name: string;
}

/**
 * The platform itself (a tax-service answer, a scheduled poll): named 系统 in the operation log as on the
 * invoice detail. `actor: null` is for an unknown visitor (a sign-in with a user name that does not exist).
 */
export const SYSTEM_OPERATOR: OperationActor = { id: null, loginName: '', name: SYSTEM_ACTOR_NAME };

/** The record an operation concerns. */
export interface RecordRef {
  kind: 'invoice' | 'contract' | 'project';
  id: string;
}

export interface OperationEntry {
  type: number;
  description: string;
  actor: OperationActor | null;
  ip?: string;
  record?: RecordRef;
  /** Reported by the client itself (/syslog/add-operation-log), not recorded where the change happened. */
  clientReported?: boolean;
}

export class OperationLogService {
  constructor(private readonly db: Db) {}

  async write(entry: OperationEntry, trx?: Kysely<Database>): Promise<void> {
    await (trx ?? this.db.kysely)
      .insertInto('operation_logs')
      .values({
        id: newId(),
        user_id: entry.actor?.id ?? null,
        login_name: entry.actor?.loginName ?? '',
        user_name: entry.actor?.name ?? '',
        type: entry.type,
        description: entry.description.slice(0, 1000),
        ip: entry.ip ?? '',
        record_kind: entry.record?.kind ?? null,
        record_id: entry.record?.id ?? null,
        client_reported: entry.clientReported ? 1 : 0,
        created_at: nowIso(),
      })
      .execute();
  }

  /** Records an event for the signed-in user of a request. */
  record(req: FastifyRequest, type: number, description: string, trx?: Kysely<Database>): Promise<void> {
    return this.write(entryOf(req, type, description), trx);
  }

  /** Records an event the signed-in user's client reports (marked as such in the log). */
  reportedByClient(req: FastifyRequest, type: number, description: string, trx?: Kysely<Database>): Promise<void> {
    return this.write({ ...entryOf(req, type, description), clientReported: true }, trx);
  }

  /** Records an event about one record (it appears in that record's history); null: about none. */
  recordFor(record: RecordRef | null, req: FastifyRequest, type: number, description: string, trx?: Kysely<Database>): Promise<void> {
    return this.write({ ...entryOf(req, type, description), ...(record ? { record } : {}) }, trx);
  }
}

/** The invoice an operation concerns (none when the id is unknown, e.g. a buyer-side confirmation). */
export const invoiceRef = (id: string | null | undefined): RecordRef | null => (id ? { kind: 'invoice', id } : null);

function entryOf(req: FastifyRequest, type: number, description: string): OperationEntry {
  const u = req.user;
  return { type, description, actor: u ? { id: u.id, loginName: u.loginName, name: u.name } : null, ip: req.ip };
}
