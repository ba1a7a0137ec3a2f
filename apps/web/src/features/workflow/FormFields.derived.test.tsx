/** Issue 12 item 6 on the web: 请假天数 shown computed from 请假时间, a contradiction refused with a message. */
import '../../test/dom';
import { act, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Form, type FormInstance } from 'antd';
import { describe, expect, it } from 'vitest';
import type { FieldDef } from '@zhyy/shared';
import { FormFields } from './FormFields';

const fields: FieldDef[] = [
  { key: 'days', label: '请假天数', type: 'number', required: true, min: 0.5, max: 180, workdaysOf: 'period', halfDays: true },
  { key: 'period', label: '请假时间', type: 'dateRange', required: true },
];

function setup() {
  let form: FormInstance | undefined;
  function Harness() {
    const [f] = Form.useForm();
    form = f;
    return (
      <Form form={f}>
        <FormFields fields={fields} form={f} />
      </Form>
    );
  }
  render(
    <QueryClientProvider client={new QueryClient()}>
      <Harness />
    </QueryClientProvider>,
  );
  return () => form!;
}

describe('a derived day count', { timeout: 30_000 }, () => {
  it('is computed from the date range by working days', async () => {
    const form = setup();
    act(() => form().setFieldValue('period', ['2026-11-27', '2026-11-30']));
    await waitFor(() => expect(form().getFieldValue('days')).toBe(2));
    act(() => form().setFieldValue('period', ['2026-11-23', '2026-11-27']));
    await waitFor(() => expect(form().getFieldValue('days')).toBe(5));
    // Half a day less stays when the range changes to one it agrees with.
    act(() => form().setFieldValue('days', 4.5));
    act(() => form().setFieldValue('period', ['2026-11-30', '2026-12-04']));
    await new Promise((r) => setTimeout(r, 100));
    expect(form().getFieldValue('days')).toBe(4.5);
  });

  it('a typed contradiction is refused with a message, half a day less is taken', async () => {
    const form = setup();
    act(() => form().setFieldValue('period', ['2026-11-02', '2026-11-02']));
    await waitFor(() => expect(form().getFieldValue('days')).toBe(1));
    act(() => form().setFieldValue('days', 10));
    await expect(form().validateFields()).rejects.toMatchObject({
      errorFields: [{ name: ['days'], errors: ['请假天数与请假时间不符：2026-11-02至2026-11-02共1个工作日（周末不计），请假天数应为1或0.5天'] }],
    });
    await waitFor(() => expect(screen.getByText(/请假天数与请假时间不符/)).toBeTruthy());
    act(() => form().setFieldValue('days', 0.5));
    await expect(form().validateFields()).resolves.toMatchObject({ days: 0.5, period: ['2026-11-02', '2026-11-02'] });
  });
});
