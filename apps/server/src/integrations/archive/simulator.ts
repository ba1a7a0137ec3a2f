/**
 * The archive side's simulator (the default): files every request under its signing id with its own
 * voucher id after `delayMs`, except a deterministic share that fails so failure is testable — a
 * document number or note containing 测试失败 is refused, as the tax simulator's buyer name 测试失败 is.
 * It remembers what it filed in its own table (archivesim_filings, migration 0023), so a restart keeps
 * it: `query` answers from there (filed with the voucher id; not filed when it has no filing under the
 * signing id or the filing was withdrawn), filing the same signing id again answers the voucher id it
 * already has, and revoking marks the filing revoked (a repeated withdrawal changes nothing and succeeds).
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Db } from '../../db/index.js';
import { ArchiveError, type ArchiveAnswer, type ArchiveGateway, type ArchiveLookup, type ArchiveQuery, type ArchiveRequest, type ArchiveRevokeRequest } from './types.js';

export const ARCHIVE_FAIL_TRIGGER = '测试失败';
export const ARCHIVE_SIM_REFUSAL = '档案系统拒绝归档：单据信息不完整（模拟失败）';

type ArchivesimTables = {
  archivesim_filings: { signing_id: string; invoice_key: string; doc_no: string; voucher_id: string; request: string; filed_at: string; revoked_at: string | null; revoke_reason: string | null };
};

const pause = (ms: number) => (ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve());

export class ArchiveSimulator implements Pick<ArchiveGateway, 'archive' | 'revoke' | 'query'> {
  private readonly sdb: Kysely<ArchivesimTables>;

  constructor(
    db: Db,
    private readonly delayMs = 0,
  ) {
    this.sdb = db.kysely.withTables<ArchivesimTables>() as unknown as Kysely<ArchivesimTables>;
  }

  private filing(signingId: string) {
    return this.sdb.selectFrom('archivesim_filings').select(['voucher_id', 'revoked_at']).where('signing_id', '=', signingId).executeTakeFirst();
  }

  async archive(req: ArchiveRequest): Promise<ArchiveAnswer> {
    await pause(this.delayMs);
    if (req.docNo.includes(ARCHIVE_FAIL_TRIGGER) || req.note.includes(ARCHIVE_FAIL_TRIGGER)) throw new ArchiveError(ARCHIVE_SIM_REFUSAL, 'REFUSED', { code: 'E1001', message: ARCHIVE_SIM_REFUSAL });
    const day = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10).replaceAll('-', '');
    const voucherId = `SIMV${day}${randomBytes(5).toString('hex').toUpperCase()}`;
    await this.sdb
      .insertInto('archivesim_filings')
      .values({ signing_id: req.signingId, invoice_key: req.invoiceKey, doc_no: req.docNo, voucher_id: voucherId, request: JSON.stringify(req), filed_at: new Date().toISOString(), revoked_at: null, revoke_reason: null })
      .onConflict((oc) => oc.column('signing_id').doNothing())
      .execute();
    // The same signing filed again (a retry) keeps its first voucher id.
    return { voucherId: (await this.filing(req.signingId))!.voucher_id };
  }

  async revoke(req: ArchiveRevokeRequest): Promise<void> {
    await pause(this.delayMs);
    if (!req.voucherId) throw new ArchiveError('档案系统中无此归档记录', 'NOT_FOUND');
    await this.sdb.updateTable('archivesim_filings').set({ revoked_at: new Date().toISOString(), revoke_reason: req.reason }).where('voucher_id', '=', req.voucherId).where('revoked_at', 'is', null).execute();
  }

  async query(req: ArchiveQuery): Promise<ArchiveLookup> {
    await pause(this.delayMs);
    const f = await this.filing(req.signingId);
    // A withdrawn filing is no longer there (签收撤销 settled after a crash asks this).
    return f && !f.revoked_at ? { status: 'filed', voucherId: f.voucher_id } : { status: 'notFiled' };
  }
}
