/**
 * The call log of the platform's recognition service (the interface that reads uploaded invoice,
 * contract and certificate files). Every call writes one row, success or failure, which the AI
 * interface statistic (/system/report/ai-interface-statistic) reports on.
 *
 *   const fields = await trackAiCall(app.db, { interfaceCode: 'invoice-ocr', user, fileName }, () => ocr.read(file));
 */
import type { Kysely } from 'kysely';
import type { Db } from '../../db/index.js';
import type { Database } from '../../db/schema.js';
import './tables.js';
import { newId } from '../../platform/ids.js';
import { shanghaiDay } from '../../platform/listing.js';

export interface AiCaller {
  id: string | null;
  loginName: string;
  name: string;
}

export interface AiCallEntry {
  /** One of AI_INTERFACES (shared): invoice-ocr, invoice-verify, contract-ocr, certificate-ocr. */
  interfaceCode: string;
  user: AiCaller | null;
  success: boolean;
  durationMs: number;
  /** The error on failure, or a short note. */
  message?: string;
  fileName?: string;
  at?: Date;
}

export async function recordAiCall(db: Db | Kysely<Database>, e: AiCallEntry): Promise<void> {
  const k = 'kysely' in db ? db.kysely : db;
  const at = e.at ?? new Date();
  await k
    .insertInto('ai_call_logs')
    .values({
      id: newId(),
      interface_code: e.interfaceCode.slice(0, 40),
      user_id: e.user?.id ?? null,
      login_name: e.user?.loginName ?? '',
      user_name: e.user?.name ?? '',
      success: e.success ? 1 : 0,
      duration_ms: Math.max(0, Math.round(e.durationMs)),
      message: (e.message ?? '').slice(0, 500),
      file_name: (e.fileName ?? '').slice(0, 200),
      day: shanghaiDay(at),
      created_at: at.toISOString(),
    })
    .execute();
}

/** Runs one recognition call and logs it either way (rethrows failures). */
export async function trackAiCall<T>(db: Db, meta: Omit<AiCallEntry, 'success' | 'durationMs' | 'message'>, call: () => Promise<T>): Promise<T> {
  const started = Date.now();
  try {
    const result = await call();
    await recordAiCall(db, { ...meta, success: true, durationMs: Date.now() - started });
    return result;
  } catch (err) {
    await recordAiCall(db, { ...meta, success: false, durationMs: Date.now() - started, message: err instanceof Error ? err.message : String(err) });
    throw err;
  }
}
