/**
 * The width a table needs so that every column gets its own width: the table scrolls sideways when the page is
 * narrower (1366 px laptops), instead of squeezing columns until figures are cut or a fixed column sits on them.
 */
import type { TableColumnsType } from 'antd';

/** A column without a width (a name that ellipsizes) still gets at least this much. */
export const FLEX_COLUMN_MIN = 140;

/** The row-selection checkbox column antd adds in front of a selectable table. */
export const SELECTION_COLUMN_WIDTH = 32;

export function columnsWidth<T>(columns: TableColumnsType<T>): number {
  return columns.reduce((sum, c) => {
    if ('children' in c && c.children) return sum + columnsWidth(c.children);
    const w = typeof c.width === 'number' ? c.width : Number.parseFloat(String(c.width ?? ''));
    return sum + (Number.isFinite(w) && w > 0 ? w : FLEX_COLUMN_MIN);
  }, 0);
}

/**
 * The table's `scroll.x`: the page's own minimum or the columns' total, whichever is larger. A table with a
 * fixed column always scrolls (fixed columns only stay put inside a scrolling table).
 */
export function tableScrollX<T>(columns: TableColumnsType<T>, min?: number, opts: { selection?: boolean } = {}): number | undefined {
  const hasFixed = columns.some((c) => c.fixed);
  if (min === undefined && !hasFixed) return undefined;
  return Math.max(min ?? 0, columnsWidth(columns) + (opts.selection ? SELECTION_COLUMN_WIDTH : 0));
}
