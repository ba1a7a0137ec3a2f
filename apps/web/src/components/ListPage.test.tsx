import '../test/dom';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Form, Input } from 'antd';
import { describe, expect, it, vi } from 'vitest';
import type { PageResult } from '@zhyy/shared';
import type { ListParams } from '../api/system';
import { ListPage } from './ListPage';

interface Row {
  id: string;
  name: string;
}

const ALL: Row[] = Array.from({ length: 45 }, (_, i) => ({ id: String(i + 1), name: i % 2 ? `张${i + 1}` : `李${i + 1}` }));

function serve(params: ListParams): Promise<PageResult<Row>> {
  const name = typeof params.name === 'string' ? params.name : '';
  const rows = ALL.filter((r) => r.name.includes(name));
  const start = (params.pageIndex - 1) * params.pageSize;
  return Promise.resolve({ items: rows.slice(start, start + params.pageSize), total: rows.length });
}

function setup(fetch = vi.fn(serve)) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <ListPage<Row>
        queryKey={['test', 'rows']}
        fetch={fetch}
        rowKey="id"
        columns={[{ title: '姓名', dataIndex: 'name' }]}
        emptyText="没有符合条件的记录"
        filters={<Form.Item name="name" label="姓名"><Input aria-label="姓名" /></Form.Item>}
      />
    </QueryClientProvider>,
  );
  return fetch;
}

describe('ListPage', () => {
  it('asks the server for the first page and shows the total', async () => {
    const fetch = setup();
    await waitFor(() => expect(screen.getByText('共 45 条')).toBeTruthy());
    expect(fetch).toHaveBeenCalledWith({ pageIndex: 1, pageSize: 20 });
    expect(screen.getByText('李1')).toBeTruthy();
  });

  it('applies the filters on 查询, from page 1, dropping blanks', async () => {
    const fetch = setup();
    await waitFor(() => expect(screen.getByText('共 45 条')).toBeTruthy());
    fireEvent.change(screen.getByLabelText('姓名'), { target: { value: '张1' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    });
    await waitFor(() => expect(fetch).toHaveBeenLastCalledWith({ name: '张1', pageIndex: 1, pageSize: 20 }));
    await waitFor(() => expect(screen.getByText('共 5 条')).toBeTruthy());
  });

  it('shows the empty text when nothing matches', async () => {
    setup(vi.fn(() => Promise.resolve({ items: [], total: 0 })));
    await waitFor(() => expect(screen.getByText('没有符合条件的记录')).toBeTruthy());
  });

  it('says so when loading fails', async () => {
    setup(vi.fn(() => Promise.reject(new Error('网络连接失败'))));
    await waitFor(() => expect(screen.getByText('加载失败，请稍后重试')).toBeTruthy());
  });
});
