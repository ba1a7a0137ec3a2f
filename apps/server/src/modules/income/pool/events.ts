/** The pool's history (income_events): every arrival, merge, lock, release and close, state change, verification and signing, with who did it. */
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { newId } from '../../../platform/ids.js';
import { nowIso } from '../../../platform/time.js';
import './tables.js';

export type EventKind = 'arrive' | 'merge' | 'lock' | 'release' | 'close' | 'state' | 'verify' | 'sign' | 'sign-failed' | 'revoke' | 'allocate' | 'tick' | 'untick' | 'book' | 'unbook' | 'abnormal' | 'transferOut' | 'mismatch' | 'unrecognised' | 'red-link';

export async function addEvent(trx: Kysely<Database>, invoiceId: string, kind: EventKind, message: string, userName = ''): Promise<void> {
  await trx.insertInto('income_events').values({ id: newId(), invoice_id: invoiceId, kind, message, user_name: userName, created_at: nowIso() }).execute();
}
