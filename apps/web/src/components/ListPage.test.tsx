/**
 * ListPage: the first page and its total, filters applied on 查询 from page 1, the empty and failure texts,
 * 重置 (back to the initial filters, or clearing them with resetClearsInitial) and a filter form the page owns.
 */
import '../test/dom';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Form, Input, type FormInstance } from 'antd';
import { describe, expect, it, vi } from 'vitest';
import type { PageResult } from '@zhyy/shared';
import type { ListParams } from '../api/system';
import { ListPage, type ListPageProps } from './ListPage';

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

function setup(fetch = vi.fn(serve), more: Partial<ListPageProps<Row>> = {}) {
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
        {...more}
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

  const reset = () => act(async () => {
    fireEvent.click(screen.getByRole('button', { name: /重\s*置/ }));
  });

  it('重置 restores the initial filters', async () => {
    const fetch = setup(vi.fn(serve), { initialFilters: { name: '张' } });
    await waitFor(() => expect(fetch).toHaveBeenCalledWith({ name: '张', pageIndex: 1, pageSize: 20 }));
    fireEvent.change(screen.getByLabelText('姓名'), { target: { value: '李' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    });
    await waitFor(() => expect(fetch).toHaveBeenLastCalledWith({ name: '李', pageIndex: 1, pageSize: 20 }));
    await reset();
    await waitFor(() => expect(fetch).toHaveBeenLastCalledWith({ name: '张', pageIndex: 1, pageSize: 20 }));
    expect((screen.getByLabelText('姓名') as HTMLInputElement).value).toBe('张');
  });

  it('重置 with resetClearsInitial empties the initial filters too (taken from the address)', async () => {
    const fetch = setup(vi.fn(serve), { initialFilters: { name: '张' }, resetClearsInitial: true });
    await waitFor(() => expect(screen.getByText('共 22 条')).toBeTruthy());
    expect((screen.getByLabelText('姓名') as HTMLInputElement).value).toBe('张');
    await reset();
    await waitFor(() => expect(fetch).toHaveBeenLastCalledWith({ pageIndex: 1, pageSize: 20 }));
    expect((screen.getByLabelText('姓名') as HTMLInputElement).value).toBe('');
    await waitFor(() => expect(screen.getByText('共 45 条')).toBeTruthy());
  });

  it('uses the form the page passes, so the page can set and watch its filters', async () => {
    let pageForm: FormInstance | undefined;
    function Page() {
      const [form] = Form.useForm();
      pageForm = form;
      const name = Form.useWatch('name', form) as string | undefined;
      return (
        <ListPage<Row>
          queryKey={['test', 'form']}
          fetch={fetch}
          rowKey="id"
          columns={[{ title: '姓名', dataIndex: 'name' }]}
          form={form}
          filters={<Form.Item name="name" label="姓名" extra={<span data-testid="watched">{name ?? ''}</span>}><Input aria-label="姓名" /></Form.Item>}
        />
      );
    }
    const fetch = vi.fn(serve);
    render(<QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}><Page /></QueryClientProvider>);
    await waitFor(() => expect(screen.getByText('共 45 条')).toBeTruthy());
    await act(async () => {
      pageForm!.setFieldValue('name', '李3');
    });
    expect((screen.getByLabelText('姓名') as HTMLInputElement).value).toBe('李3');
    await waitFor(() => expect(screen.getByTestId('watched').textContent).toBe('李3'));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    });
    await waitFor(() => expect(fetch).toHaveBeenLastCalledWith({ name: '李3', pageIndex: 1, pageSize: 20 }));
  });
});
