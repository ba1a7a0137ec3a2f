/**
 * Issue 13, 项目分摊 of an incoming invoice: the outgoing invoices' split editor on the incoming routes —
 * the sum against the invoice (±0.01 元), rows in 元 sent in 分 with tax in proportion (the last row
 * takes the rounding), the department kept or chosen, the reason required.
 */
import '../../../../test/dom';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { deptOptions, IncomeSplitEditor, type SplitInvoice } from './IncomeSplitEditor';

const api = vi.hoisted(() => ({ targets: vi.fn(), depts: vi.fn(), set: vi.fn() }));
vi.mock('../../../../api/incomeRevoke', () => ({ incomeProjectApi: api }));
// The outgoing invoices' calls must not be used here.
const outgoing = vi.hoisted(() => ({ targets: vi.fn(), set: vi.fn() }));
vi.mock('../../../../api/invoiceApportionment', () => ({ apportionmentApi: outgoing }));
const success = vi.hoisted(() => vi.fn());
vi.mock('../../../../ui/feedback', () => ({ feedback: () => ({ message: { success, error: vi.fn() }, modal: { confirm: vi.fn() } }), showError: vi.fn() }));

configure({ asyncUtilTimeout: 15_000 });

const P1 = '11111111-1111-4111-8111-111111111111';
const P2 = '22222222-2222-4222-8222-222222222222';
const D1 = '33333333-3333-4333-8333-333333333333';
const D2 = '44444444-4444-4444-8444-444444444444';
const INV = '0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0a99';
const option = (id: string, code: string, name: string) => ({ id, code, name, customer: '', temp: false, amount: 0 });

const invoice = (over: Partial<SplitInvoice> = {}): SplitInvoice => ({
  id: INV, invoiceNo: '', digitalNo: '26320000000000000042', amountIncl: 11300, tax: 1300, deptId: D2,
  allocations: [
    { id: 'a1', projectId: P1, projectName: '无锡地铁5号线配套工程', amountExcl: 5000, tax: 650, amountIncl: 5650, createdByName: '徐婷', updatedAt: '2026-11-20T02:00:00.000Z' },
    { id: 'a2', projectId: P2, projectName: '溧水经济开发区道路改造', amountExcl: 5000, tax: 650, amountIncl: 5650, createdByName: '徐婷', updatedAt: '2026-11-20T02:00:00.000Z' },
  ],
  ...over,
});

beforeEach(() => {
  for (const f of Object.values(api)) f.mockReset();
  success.mockReset();
  api.targets.mockResolvedValue([option(P1, 'XM2026-001', '无锡地铁5号线配套工程'), option(P2, 'XM2026-002', '溧水经济开发区道路改造')]);
  api.depts.mockResolvedValue([{ id: D1, name: '华建集团', parentId: null }, { id: D2, name: '财务部', parentId: D1 }]);
  api.set.mockResolvedValue({ code: 20000, message: '分摊已保存', r: null });
});

function renderEditor(inv = invoice()) {
  const onClose = vi.fn();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <IncomeSplitEditor invoice={inv} open onClose={onClose} />
    </QueryClientProvider>,
  );
  return onClose;
}

const inputOf = (testId: string) => {
  const el = screen.getByTestId(testId);
  return (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' ? el : el.querySelector('input'))! as HTMLInputElement;
};
const setAmount = (row: number, yuan: string) => {
  const input = inputOf(`split-amount-${row}`);
  fireEvent.change(input, { target: { value: yuan } });
  fireEvent.blur(input);
};
const sumText = () => screen.getByTestId('split-sum').textContent ?? '';
const save = () => fireEvent.click(screen.getByRole('button', { name: '保存分摊' }));

describe('项目分摊 of an incoming invoice (issue 13)', { timeout: 60_000 }, () => {
  it('starts from the allocations, their projects and the department; the sum follows the rows', async () => {
    renderEditor();
    expect(await screen.findByText('XM2026-001 无锡地铁5号线配套工程')).toBeTruthy();
    expect(screen.getByText('XM2026-002 溧水经济开发区道路改造')).toBeTruthy();
    expect(await within(screen.getByTestId('split-dept')).findByText('华建集团 / 财务部')).toBeTruthy();
    expect(sumText()).toContain('发票价税合计 113.00 元；已分摊 113.00 元；差额 0.00 元');
    setAmount(0, '50');
    await waitFor(() => expect(sumText()).toContain('已分摊 106.50 元；差额 6.50 元'));
    expect(screen.getByTestId('split-sum').className).toContain('warning');
  });

  it('saves in 分 with tax in proportion, the last row taking the rounding, the department and the reason', async () => {
    const onClose = renderEditor();
    await screen.findByText('XM2026-001 无锡地铁5号线配套工程');
    setAmount(0, '100');
    setAmount(1, '13');
    await waitFor(() => expect(sumText()).toContain('差额 0.00 元'));
    fireEvent.change(inputOf('split-reason'), { target: { value: ' 按工作量拆分 ' } });
    save();
    await waitFor(() => expect(api.set).toHaveBeenCalledTimes(1));
    expect(api.set).toHaveBeenCalledWith({
      invoiceId: INV,
      deptId: D2,
      items: [
        { projectId: P1, amountIncl: 10000, tax: 1150, amountExcl: 8850 },
        { projectId: P2, amountIncl: 1300, tax: 150, amountExcl: 1150 },
      ],
      reason: '按工作量拆分',
    });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(success).toHaveBeenCalledWith('分摊已保存');
    expect(outgoing.targets).not.toHaveBeenCalled();
    expect(outgoing.set).not.toHaveBeenCalled();
  });

  it('the reason is required; an invoice without allocations starts with one row of the whole amount and no department', async () => {
    renderEditor(invoice({ allocations: [], deptId: null }));
    await waitFor(() => expect(sumText()).toContain('已分摊 113.00 元；差额 0.00 元'));
    save();
    expect(await screen.findByText('请填写调整原因（至少2个字）')).toBeTruthy();
    expect(await screen.findByText('请选择项目')).toBeTruthy();
    expect(api.set).not.toHaveBeenCalled();
  });

  it('departments are labelled with their path', () => {
    expect(deptOptions([{ id: D1, name: '华建集团', parentId: null }, { id: D2, name: '财务部', parentId: D1 }, { id: 'x', name: '孤立部门', parentId: 'missing' }])).toEqual([
      { value: D1, label: '华建集团' },
      { value: D2, label: '华建集团 / 财务部' },
      { value: 'x', label: '孤立部门' },
    ]);
  });
});
