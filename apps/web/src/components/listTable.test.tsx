import '../test/dom';
import { render, screen } from '@testing-library/react';
import { Table } from 'antd';
import { describe, expect, it } from 'vitest';
import { pageFromTable, sortFromTable, sortOrderOf, SummaryLabel, tableLocale, tablePagination } from './listTable';

describe('listTable: the plumbing of the list tables', () => {
  it('paginates with the page state, the server total and 共 n 条 or 张', () => {
    const p = tablePagination({ pageIndex: 3, pageSize: 50 }, 123, '张');
    expect(p).toMatchObject({ current: 3, pageSize: 50, total: 123, showSizeChanger: true, pageSizeOptions: [10, 20, 50, 100] });
    expect(p.showTotal?.(123, [101, 123])).toBe('共 123 张');
    expect(tablePagination({ pageIndex: 1, pageSize: 20 }, 7).showTotal?.(7, [1, 7])).toBe('共 7 条');
    expect(pageFromTable({ current: 2, pageSize: 100 }, { pageIndex: 1, pageSize: 20 })).toEqual({ pageIndex: 2, pageSize: 100 });
    expect(pageFromTable({}, { pageIndex: 4, pageSize: 50 })).toEqual({ pageIndex: 1, pageSize: 50 });
  });

  it("maps antd's sorter to the request's sort, and back to a column's sortOrder", () => {
    expect(sortFromTable({ columnKey: 'tax', field: 'taxFen', order: 'descend' })).toEqual({ field: 'tax', order: 'descend' });
    expect(sortFromTable({ field: 'issueDate', order: 'ascend' })).toEqual({ field: 'issueDate', order: 'ascend' });
    expect(sortFromTable([{ columnKey: 'amountIncl', order: 'ascend' }, { columnKey: 'tax', order: 'descend' }])).toEqual({ field: 'amountIncl', order: 'ascend' });
    expect(sortFromTable({ columnKey: 'tax', order: undefined })).toBeUndefined();
    expect(sortFromTable([])).toBeUndefined();
    const sorted = sortOrderOf({ field: 'tax', order: 'ascend' });
    expect([sorted('tax'), sorted('amountIncl')]).toEqual(['ascend', null]);
    expect(sortOrderOf(undefined)('tax')).toBeNull();
  });

  it('says the empty text, or 加载失败 when the list failed', () => {
    render(<Table columns={[{ title: '名称', dataIndex: 'name' }]} dataSource={[]} locale={tableLocale(false, '没有勾选日志')} />);
    expect(screen.getByText('没有勾选日志')).toBeTruthy();
    render(<Table columns={[{ title: '名称', dataIndex: 'name' }]} dataSource={[]} locale={tableLocale(true, '没有勾选日志')} />);
    expect(screen.getByText('加载失败，请稍后重试')).toBeTruthy();
    render(<Table columns={[{ title: '名称', dataIndex: 'name' }]} dataSource={[]} locale={tableLocale(false)} />);
    expect(screen.getByText('暂无数据')).toBeTruthy();
  });

  it('labels a 合计 row in its first cell, spanning the columns given', () => {
    const cols = [{ title: 'A', dataIndex: 'a' }, { title: 'B', dataIndex: 'b' }, { title: 'C', dataIndex: 'c' }];
    const { container } = render(
      <Table columns={cols} dataSource={[{ key: 1, a: 1, b: 2, c: 3 }]} pagination={false}
        summary={() => (
          <Table.Summary>
            <Table.Summary.Row data-testid="totals">
              <SummaryLabel colSpan={2}>筛选结果合计（1 张）</SummaryLabel>
              <Table.Summary.Cell index={2}>3</Table.Summary.Cell>
            </Table.Summary.Row>
          </Table.Summary>
        )}
      />,
    );
    const label = screen.getByText('筛选结果合计（1 张）');
    expect(label.closest('td')?.getAttribute('colspan')).toBe('2');
    expect(label.closest('strong')).toBeTruthy();
    expect(container.querySelectorAll('[data-testid="totals"] td')).toHaveLength(2);
  });
});
