/**
 * 导入价格: the sheet read (sheet.ts), each row checked against the rows above it (the same window
 * twice, or two windows of one item, spec and unit that overlap), then every good row saved on its own
 * (an overlap with the list is the database's refusal, named like a save's). Rows only add windows:
 * a row identical to a window already listed is skipped. One operation log entry sums the import up.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { OperationLogType, windowsOverlap, type CostImportResult, type CostImportRowResult } from '@zhyy/shared';
import { AppError, refuse } from '../../../platform/envelope.js';
import { readPriceSheet } from './sheet.js';
import { windowLabel, type CostPriceService, type PriceWindowInput } from './service.js';

const keyOf = (w: PriceWindowInput) => `${w.itemCode}\u0001${w.spec}\u0001${w.unit}`;

export async function importPrices(app: FastifyInstance, prices: CostPriceService, req: FastifyRequest, file: string): Promise<CostImportResult> {
  const parsed = await readPriceSheet(Buffer.from(file, 'base64'));
  if (!parsed.length) throw refuse('文件中没有价格行（第一行为表头，请使用导入模板）');
  // Rows read so far (a repeat is named), and rows saved (an overlap with one is named by its row).
  const seen = new Map<string, Array<{ row: number; w: PriceWindowInput }>>();
  const saved = new Map<string, Array<{ row: number; w: PriceWindowInput }>>();
  const rows: CostImportRowResult[] = [];
  for (const p of parsed) {
    if (!p.window) {
      rows.push({ row: p.row, ok: false, message: p.message });
      continue;
    }
    const w = p.window;
    const k = keyOf(w);
    const dup = seen.get(k)?.find((e) => e.w.validFrom === w.validFrom && e.w.validTo === w.validTo);
    seen.set(k, [...(seen.get(k) ?? []), { row: p.row, w }]);
    if (dup) {
      rows.push({ row: p.row, ok: false, message: `与第${dup.row}行重复` });
      continue;
    }
    const clash = saved.get(k)?.find((e) => windowsOverlap(e.w, w));
    if (clash) {
      rows.push({ row: p.row, ok: false, message: `与第${clash.row}行的有效期重叠（${windowLabel(clash.w.validFrom, clash.w.validTo)}）` });
      continue;
    }
    try {
      rows.push({ row: p.row, ok: true, message: await prices.importOne(req, w) });
      saved.set(k, [...(saved.get(k) ?? []), { row: p.row, w }]);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      rows.push({ row: p.row, ok: false, message: err.message });
    }
  }
  const succeeded = rows.filter((r) => r.ok).length;
  const result: CostImportResult = { total: rows.length, succeeded, failed: rows.length - succeeded, rows };
  await app.oplog.record(req, OperationLogType.import, `导入成本价格：共 ${result.total} 行，成功 ${succeeded} 行，失败 ${result.failed} 行`);
  return result;
}
