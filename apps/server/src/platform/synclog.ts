/**
 * The integrated sync log: every exchange with an outside system (tax service, accounting, sister
 * systems) writes a row: system, type, status (1 = failure, 2 = pending), memo, and the bodies exchanged.
 */
import { SyncLogStatus } from '@zhyy/shared';
import type { Kysely } from 'kysely';
import type { Db } from '../db/index.js';
import type { Database } from '../db/schema.js';
import { newId } from './ids.js';
import { nowIso } from './time.js';

export interface SyncEntry {
  system: number;
  type: string;
  status: number;
  memo: string;
  request?: unknown;
  response?: unknown;
  durationMs?: number;
  userId?: string | null;
  /** Reported by the client (/syslog/add-integrated-synclog), not an exchange the server made. */
  clientReported?: boolean;
  /** Business keys the exchange concerns (order or serial numbers…); the log can be filtered by them. */
  refs?: readonly string[];
}

const MAX_REFS = 50;

const MAX_BODY = 100_000;

/** The memo of a row whose exchange has started and not been completed (or whose completion was lost). */
export const PENDING_MEMO = '请求已发出，尚未记录结果（进行中；服务中断时结果未知）';

function asText(v: unknown): string | null {
  if (v === undefined || v === null) return null;
  const s = typeof v === 'string' ? v : JSON.stringify(v, null, 2);
  return s.length > MAX_BODY ? `${s.slice(0, MAX_BODY)}\n…（已截断）` : s;
}

export class SyncLogService {
  constructor(private readonly db: Db) {}

  /** Ids of the log rows that concern any of these business keys (newest first). */
  idsByRef(refs: readonly string[]) {
    return this.db.kysely.selectFrom('sync_log_refs').select('sync_log_id').where('ref', 'in', [...refs]);
  }

  /**
   * Files the rows that concern any of `from` under the key `to` as well: a record that takes a new
   * business key (an invoice resubmitted under a new order number) keeps its earlier exchanges.
   */
  async linkRefs(from: readonly string[], to: string, trx?: Kysely<Database>): Promise<void> {
    const keys = from.filter((r) => r && r !== to);
    if (!keys.length) return;
    const k = trx ?? this.db.kysely;
    await k
      .insertInto('sync_log_refs')
      .columns(['sync_log_id', 'ref'])
      .expression((eb) =>
        eb
          .selectFrom('sync_log_refs')
          .select(['sync_log_id', eb.val(to).as('ref')])
          .where('ref', 'in', keys)
          .where('sync_log_id', 'not in', eb.selectFrom('sync_log_refs as t').select('t.sync_log_id').where('t.ref', '=', to))
          .distinct(),
      )
      .execute();
  }

  /** Writes a row and its business keys (in one transaction when it has keys). */
  async write(e: SyncEntry): Promise<string> {
    const id = newId();
    const refs = [...new Set((e.refs ?? []).filter((r) => r && r.length <= 200))].slice(0, MAX_REFS);
    const row = {
      id,
      system: e.system,
      type: e.type,
      status: e.status,
      memo: e.memo.slice(0, 2000),
      request: asText(e.request),
      response: asText(e.response),
      duration_ms: e.durationMs ?? null,
      user_id: e.userId ?? null,
      client_reported: e.clientReported ? 1 : 0,
      created_at: nowIso(),
    };
    if (!refs.length) {
      await this.db.kysely.insertInto('sync_logs').values(row).execute();
      return id;
    }
    await this.db.kysely.transaction().execute(async (trx) => {
      await trx.insertInto('sync_logs').values(row).execute();
      await trx.insertInto('sync_log_refs').values(refs.map((ref) => ({ sync_log_id: id, ref }))).execute();
    });
    return id;
  }

  /** Completes a pending row with the exchange's outcome. */
  async complete(id: string, outcome: { status: number; memo: string; response?: unknown; durationMs: number }): Promise<void> {
    await this.db.kysely
      .updateTable('sync_logs')
      .set({ status: outcome.status, memo: outcome.memo.slice(0, 2000), response: asText(outcome.response), duration_ms: outcome.durationMs })
      .where('id', '=', id)
      .where('status', '=', SyncLogStatus.pending)
      .execute();
  }

  /**
   * Runs one exchange and logs it either way. The row (with the request and its business keys) is
   * written BEFORE the call, as pending, so a crash between the call and its completion leaves a
   * trace (shown as 结果未知); it is completed after: the result on success, the error message on
   * failure (and rethrows). Gateways wrap each outside call in this.
   */
  async track<T>(
    meta: { system: number; type: string; request?: unknown; userId?: string | null; refs?: readonly string[] },
    call: () => Promise<T>,
    memo?: (r: T) => string,
  ): Promise<T> {
    const id = await this.write({ ...meta, status: SyncLogStatus.pending, memo: PENDING_MEMO });
    const started = Date.now();
    let result: T;
    try {
      result = await call();
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      // Keep what the outside system answered when the error carries it (e.g. a refusal's body).
      const answer = err && typeof err === 'object' && 'response' in err ? (err as { response: unknown }).response : undefined;
      await this.complete(id, { status: SyncLogStatus.failure, memo: message, response: answer ?? message, durationMs: Date.now() - started });
      throw err;
    }
    await this.complete(id, { status: SyncLogStatus.success, memo: memo ? memo(result) : '成功', response: result, durationMs: Date.now() - started });
    return result;
  }
}
