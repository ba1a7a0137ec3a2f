import { describe, expect, it } from 'vitest';
import { columnsWidth, FLEX_COLUMN_MIN, tableScrollX } from './tableWidth';

describe('tableScrollX (issue 12 item 2: tables fit or scroll, never squeeze figures)', () => {
  const cols = [{ title: '日期', width: 110 }, { title: '名称', ellipsis: true }, { title: '金额', width: 150 }];
  it('adds the widths, counting a column without one at its least width', () => {
    expect(columnsWidth(cols)).toBe(110 + FLEX_COLUMN_MIN + 150);
    expect(columnsWidth([{ title: '组', children: [{ title: 'a', width: 100 }, { title: 'b', width: '80px' }] }])).toBe(180);
  });
  it('is the larger of the page minimum and the columns, and always set when a column is fixed', () => {
    expect(tableScrollX(cols)).toBeUndefined();
    expect(tableScrollX(cols, 300)).toBe(110 + FLEX_COLUMN_MIN + 150);
    expect(tableScrollX(cols, 2000)).toBe(2000);
    // A fixed 操作 column over a page without its own minimum: the table scrolls instead of the column covering figures.
    expect(tableScrollX([...cols, { title: '操作', width: 120, fixed: 'right' as const }])).toBe(110 + FLEX_COLUMN_MIN + 150 + 120);
  });
});
