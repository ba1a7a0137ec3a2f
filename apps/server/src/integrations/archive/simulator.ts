/**
 * The archive side's simulator (the default): answers every filing with its own voucher id after
 * `delayMs`, except a deterministic share that fails so failure is testable — a document number or
 * note containing 测试失败 is refused, as the tax simulator's buyer name 测试失败 is.
 */
import { randomBytes } from 'node:crypto';
import { ArchiveError, type ArchiveAnswer, type ArchiveGateway, type ArchiveRequest, type ArchiveRevokeRequest } from './types.js';

export const ARCHIVE_FAIL_TRIGGER = '测试失败';
export const ARCHIVE_SIM_REFUSAL = '档案系统拒绝归档：单据信息不完整（模拟失败）';

const pause = (ms: number) => (ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve());

export class ArchiveSimulator implements Pick<ArchiveGateway, 'archive' | 'revoke'> {
  constructor(private readonly delayMs = 0) {}

  async archive(req: ArchiveRequest): Promise<ArchiveAnswer> {
    await pause(this.delayMs);
    if (req.docNo.includes(ARCHIVE_FAIL_TRIGGER) || req.note.includes(ARCHIVE_FAIL_TRIGGER)) throw new ArchiveError(ARCHIVE_SIM_REFUSAL, 'REFUSED', { code: 'E1001', message: ARCHIVE_SIM_REFUSAL });
    const day = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10).replaceAll('-', '');
    return { voucherId: `SIMV${day}${randomBytes(5).toString('hex').toUpperCase()}` };
  }

  async revoke(req: ArchiveRevokeRequest): Promise<void> {
    await pause(this.delayMs);
    if (!req.voucherId) throw new ArchiveError('档案系统中无此归档记录', 'NOT_FOUND');
  }
}
