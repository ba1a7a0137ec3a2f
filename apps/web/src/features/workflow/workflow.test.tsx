import '../../test/dom';
import { render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Form } from 'antd';
import { describe, expect, it } from 'vitest';
import type { FieldDef } from '@zhyy/shared';
import { ApiError } from '../../api/errors';
import { FormFields } from './FormFields';
import { FormView } from './FormView';
import { settled, yuanToFen, fenToYuan } from '../common/workflowFormat';

const fields: FieldDef[] = [
  { key: 'reason', label: '事由', type: 'textarea', required: true },
  { key: 'amount', label: '金额', type: 'money' },
  { key: 'period', label: '期间', type: 'dateRange' },
  { key: 'who', label: '交接人', type: 'user' },
  { key: 'lines', label: '明细', type: 'table', columns: [{ key: 'item', label: '项目', type: 'text' }, { key: 'fee', label: '费用', type: 'money' }] },
];

describe('FormView', () => {
  it('shows what users wrote as text, never as markup', () => {
    const { container } = render(
      <FormView
        fields={fields}
        values={{ reason: '<img src=x onerror=alert(1)><b>加急</b>', amount: 123456, period: ['2026-11-01', '2026-11-03'], who: { id: 'u', name: '张伟' }, lines: [{ item: '<i>住宿</i>', fee: 50000 }] }}
      />,
    );
    expect(container.querySelector('img, b, i')).toBeNull();
    expect(screen.getByText('<img src=x onerror=alert(1)><b>加急</b>')).toBeTruthy();
    expect(screen.getByText('¥1,234.56')).toBeTruthy();
    expect(screen.getByText('2026-11-01 至 2026-11-03')).toBeTruthy();
    expect(screen.getByText('张伟')).toBeTruthy();
    expect(screen.getByText('<i>住宿</i>')).toBeTruthy();
    expect(screen.getByText('¥500.00')).toBeTruthy();
  });
});

describe('FormFields', () => {
  it('checks a field with the shared rules and shows the server’s message', async () => {
    let submit: () => Promise<unknown> = async () => undefined;
    function Harness() {
      const [form] = Form.useForm();
      submit = () => form.validateFields();
      return (
        <Form form={form}>
          <FormFields fields={fields.slice(0, 2)} form={form} />
        </Form>
      );
    }
    render(
      <QueryClientProvider client={new QueryClient()}>
        <Harness />
      </QueryClientProvider>,
    );
    await expect(submit()).rejects.toMatchObject({ errorFields: [{ name: ['reason'], errors: ['请填写事由'] }] });
    await waitFor(() => expect(screen.getByText('请填写事由')).toBeTruthy());
  });
});

describe('helpers', () => {
  it('money is typed in 元 and kept in 分', () => {
    expect(yuanToFen(12.345)).toBe(1235);
    expect(yuanToFen(undefined)).toBeUndefined();
    expect(fenToYuan(1999)).toBe(19.99);
  });

  it('settled() swallows failures already shown to the user and rethrows the rest', async () => {
    await expect(settled(async () => Promise.reject(new ApiError('business', '权限不足')))).resolves.toBeUndefined();
    await expect(settled(async () => Promise.reject({ errorFields: [], values: {} }))).resolves.toBeUndefined();
    await expect(settled(async () => Promise.reject(new TypeError('bug')))).rejects.toThrow('bug');
  });
});
