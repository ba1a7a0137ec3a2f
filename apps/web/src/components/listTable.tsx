/**
 * The plumbing every server-paginated, sortable list table repeats (ListPage, the ledgers, the income pool and
 * ticking screens): the pagination with its sizes and 共 n 条/张 text, antd's sorter mapped to the request's
 * `{ field, order }`, the empty and error texts, the label cell of a 合计 summary row, a name cell that wraps
 * onto two lines instead of cutting the name, and the filter form's 查询 / 重置 buttons.
 */
import { ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { Button, Empty, Form, Space, Table, Typography, type TablePaginationConfig, type TableProps } from 'antd';
import type { ReactNode } from 'react';

/** The sort a list sends to the server; none means the server's own order. */
export type TableSort = { field: string; order: 'ascend' | 'descend' } | undefined;
export interface TablePage {
  pageIndex: number;
  pageSize: number;
}

export const PAGE_SIZE_OPTIONS = [10, 20, 50, 100];

/** The table's `pagination`: page and size from the page's state, the total from the server, 共 n 条 (or 张 …). */
export function tablePagination(page: TablePage, total: number, unit = '条'): TablePaginationConfig {
  return { current: page.pageIndex, pageSize: page.pageSize, total, showSizeChanger: true, pageSizeOptions: PAGE_SIZE_OPTIONS, showTotal: (n) => `共 ${n} ${unit}` };
}

/** The page a table's onChange asks for (the size kept when antd gives none). */
export function pageFromTable(p: TablePaginationConfig, current: TablePage): TablePage {
  return { pageIndex: p.current ?? 1, pageSize: p.pageSize ?? current.pageSize };
}

type Sorter<T> = Parameters<NonNullable<TableProps<T>['onChange']>>[2];

/** antd's sorter (one column, or the first of several) as the request's sort; undefined when sorting was cleared. */
export function sortFromTable<T>(sorter: Sorter<T>): TableSort {
  const s = Array.isArray(sorter) ? sorter[0] : sorter;
  const field = s?.columnKey ?? s?.field;
  return s?.order && typeof field === 'string' ? { field, order: s.order } : undefined;
}

/** A column's `sortOrder` under the current sort: its order when it is the sorted column, else none. */
export const sortOrderOf = (sort: TableSort) => (key: string) => (sort?.field === key ? sort.order : null);

/** The table's `locale`: 加载失败，请稍后重试 when the list failed to load, else the page's own empty text. */
export function tableLocale(isError: boolean, emptyText: ReactNode = '暂无数据') {
  return { emptyText: isError ? <Empty description="加载失败，请稍后重试" /> : <Empty description={emptyText} /> };
}

/** The first cell of a 合计 summary row: the label on one line, bold (or grey for a row not counted in the total). */
export function SummaryLabel({ colSpan, index = 0, secondary, children }: { colSpan: number; index?: number; secondary?: boolean; children: ReactNode }) {
  return (
    <Table.Summary.Cell index={index} colSpan={colSpan}>
      {secondary ? (
        <Typography.Text type="secondary" style={{ whiteSpace: 'nowrap' }}>{children}</Typography.Text>
      ) : (
        <Typography.Text strong style={{ whiteSpace: 'nowrap' }}>{children}</Typography.Text>
      )}
    </Table.Summary.Cell>
  );
}

/**
 * A code and a name (a project) in a cell: the code in grey, the name after it wrapping onto a second line
 * rather than cut at the column's edge (issue 31); only a name longer than two lines ends in "…", and the
 * whole text is the cell's tooltip. Use it in a column without `ellipsis` (which keeps a cell on one line).
 */
export function NameCell({ code, name }: { code?: string | null; name: string }) {
  const whole = code ? `${code} ${name}` : name;
  return (
    <span className="cell-wrap2" title={whole} data-testid="name-cell">
      {code ? <Typography.Text type="secondary">{code} </Typography.Text> : null}
      {name}
    </span>
  );
}

/** The filter form's 查询 (submits the form) and 重置 buttons, as the last item of an inline form. */
export function FilterButtons({ onReset }: { onReset: () => void }) {
  return (
    <Form.Item>
      <Space>
        <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>查询</Button>
        <Button icon={<ReloadOutlined />} onClick={onReset}>重置</Button>
      </Space>
    </Form.Item>
  );
}
