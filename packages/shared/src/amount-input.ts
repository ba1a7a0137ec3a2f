/**
 * A money amount typed by a user (元, up to two decimals, thousands separators allowed), read into 分 —
 * or the reason it cannot be taken, naming the field and the limit. Nothing is silently clamped or zeroed
 * (issue 12 #21: 200000 became 109000 and "abc" became 0.00 without a word).
 */
import { formatFen } from './workflow-rules.js';

export type AmountInput = { ok: true; fen: number } | { ok: false; error: string };

export function readAmountInput(text: string | number | null | undefined, opts: { label: string; maxFen?: number; maxLabel?: string }): AmountInput {
  const raw = text === null || text === undefined ? '' : String(text).trim().replaceAll(',', '').replaceAll('，', '');
  if (raw === '') return { ok: true, fen: 0 };
  if (!/^\d+(\.\d+)?$/.test(raw)) return { ok: false, error: `${opts.label}须为数字金额（元），如 1090.00` };
  if (/\.\d{3,}$/.test(raw)) return { ok: false, error: `${opts.label}最多两位小数` };
  const [yuan, dec = ''] = raw.split('.');
  const fen = Number(yuan) * 100 + Number((dec + '00').slice(0, 2));
  if (!Number.isSafeInteger(fen)) return { ok: false, error: `${opts.label}过大` };
  if (opts.maxFen !== undefined && fen > opts.maxFen) return { ok: false, error: `${opts.label}不能超过${opts.maxLabel ?? '上限'} ${formatFen(opts.maxFen)} 元` };
  return { ok: true, fen };
}
