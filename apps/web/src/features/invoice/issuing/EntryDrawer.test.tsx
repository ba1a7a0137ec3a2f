import '../../../test/dom';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { checkInvoice, InvoiceColour, type InvoiceDetail, type InvoiceLineRow, type InvoiceSaveBody } from '@zhyy/shared';
import { amountProblems, EntryDrawer, toLineForms, toLines } from './EntryDrawer';

vi.mock('../../../api/invoice', () => ({
  invoiceApi: {
    creationSetting: async () => ({ sellerName: '本公司', sellerTaxNo: '', clerk: '王敏', payee: '', checker: '', defaultKind: 9, gatewayMode: 'simulator', taxCodes: [] }),
    buyers: async () => ({ items: [], total: 0 }),
    projects: async () => [],
    contracts: async () => [],
  },
}));

const CODE = '3050200000000000000';
const header = { kind: 10, colour: InvoiceColour.blue, buyerName: '江苏长江路桥建设有限公司', buyerTaxNo: '', buyerAddress: '', buyerPhone: '', buyerBank: '', buyerAccount: '', specialFactor: 0 };

/** A line imported from an approved 开票申请 with only its amount (1090.00 元 including 9% tax). */
const imported: InvoiceLineRow = {
  lineNo: 1, goodsName: '*建筑服务*工程服务', taxCode: CODE, spec: '', unit: '', quantity: '', unitPrice: '', priceIncludesTax: true, taxRate: '0.09',
  policy: 0, lineProperty: 0, amountExcl: 100000, tax: 9000, amountIncl: 109000,
};

describe('toLines', () => {
  it('keeps the amount of a line without quantity and unit price, and the line passes the checks', () => {
    const lines = toLines([{ goodsName: '*建筑服务*工程服务', taxCode: CODE, quantity: '', unitPrice: '', amount: '1090.00', taxRate: '0.09', policy: 0 }]);
    expect(lines[0]).toMatchObject({ quantity: '', unitPrice: '', priceIncludesTax: true, amountExcl: 100000, tax: 9000, amountIncl: 109000 });
    expect(checkInvoice(header, lines)).toEqual([]);
  });

  it('edits an imported amount-only line without changing it', () => {
    const form = toLineForms([imported]);
    expect(form).toEqual({ priceIncludesTax: true, lines: [expect.objectContaining({ quantity: '', unitPrice: '', amount: '1090.00' })] });
    const [line] = toLines(form.lines, form.priceIncludesTax);
    expect(line).toMatchObject({ amountExcl: 100000, tax: 9000, amountIncl: 109000, priceIncludesTax: true });
  });

  it('computes quantity × unit price before the amount typed', () => {
    const [line] = toLines([{ goodsName: 'x', taxCode: CODE, quantity: '2', unitPrice: '545', amount: '1', taxRate: '0.09' }]);
    expect(line).toMatchObject({ amountExcl: 100000, tax: 9000, amountIncl: 109000 });
  });

  it('treats prices and amounts as excluding tax when the header switch says 不含税', () => {
    const lines = toLines([
      { goodsName: 'a', taxCode: CODE, quantity: '2', unitPrice: '50', taxRate: '0.13', policy: 0 },
      { goodsName: 'b', taxCode: CODE, quantity: '', unitPrice: '', amount: '200', taxRate: '0.06', policy: 0 },
    ], false);
    expect(lines.map((l) => [l.priceIncludesTax, l.amountExcl, l.tax, l.amountIncl])).toEqual([[false, 10000, 1300, 11300], [false, 20000, 1200, 21200]]);
    expect(checkInvoice(header, lines)).toEqual([]);
    const back = toLineForms(lines.map((l, i) => ({ ...l, lineNo: i + 1 })));
    expect(back.priceIncludesTax).toBe(false);
    expect(back.lines[1]!.amount).toBe('200.00');
  });

  it('carries 规格型号 and 单位 trimmed; the shared checks refuse them when too long', () => {
    const [line] = toLines([{ goodsName: 'x', taxCode: CODE, spec: ' DN100 ', unit: ' 米 ', quantity: '1', unitPrice: '10', taxRate: '0.09' }]);
    expect([line!.spec, line!.unit]).toEqual(['DN100', '米']);
    const long = toLines([{ goodsName: 'x', taxCode: CODE, spec: 'S'.repeat(41), unit: 'U'.repeat(21), quantity: '1', unitPrice: '10', taxRate: '0.09' }]);
    expect(checkInvoice(header, long)).toEqual(['第1行：规格型号不能超过40个字符', '第1行：单位不能超过20个字符']);
  });

  it('names an amount that is not money; an empty amount leaves the line at zero', () => {
    expect(amountProblems([{ amount: '12.345' }, { amount: '' }, { quantity: '1', unitPrice: '2', amount: 'x' }])).toEqual(['第1行：金额须为数字，最多2位小数']);
    expect(toLines([{ goodsName: 'x', taxCode: CODE, amount: '' }])[0]).toMatchObject({ amountIncl: 0 });
  });
});

const detail = {
  id: '0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0a01', orderNo: 'KP260101000000000001', kind: 10, colour: 1, status: 0, source: 3, requestWorkId: 7,
  buyerId: null, buyerName: header.buyerName, buyerTaxNo: '', buyerAddress: '', buyerPhone: '', buyerBank: '', buyerAccount: '', buyerEmail: '', buyerMobile: '',
  projectId: null, contractId: null, specialFactor: 0, constructionSite: '', constructionProject: '', remark: '', clerk: '', payee: '', checker: '',
  amountExcl: 100000, tax: 9000, amountIncl: 109000, lines: [imported],
} as unknown as InvoiceDetail;

/** Renders the drawer and waits for the invoice settings (their arrival resets the form once). */
async function renderDrawer(onSubmit: (b: InvoiceSaveBody) => Promise<boolean>) {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <EntryDrawer open initial={detail} title="修改开票申请" onClose={() => undefined} onSubmit={onSubmit} />
    </QueryClientProvider>,
  );
  await screen.findByText(/销售方：本公司/);
}

const saveButton = () => screen.getByRole('button', { name: /保\s*存/ });

// The whole drawer renders in jsdom, which takes a few seconds.
describe('EntryDrawer', { timeout: 30_000 }, () => {
  it('saves an imported amount-only line with its amount, and 不含税 re-reads the amount as excluding tax', async () => {
    const onSubmit = vi.fn(async () => false);
    await renderDrawer(onSubmit);
    const amount = await screen.findByLabelText('含税金额');
    expect((amount as HTMLInputElement).value).toBe('1090.00');
    await waitFor(() => expect(screen.getByTestId('entry-totals').textContent).toContain('1,090.00'));
    fireEvent.click(saveButton());
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    const body = (onSubmit.mock.calls[0] as unknown as [InvoiceSaveBody])[0];
    expect(body.lines[0]).toMatchObject({ quantity: '', unitPrice: '', priceIncludesTax: true, amountExcl: 100000, tax: 9000, amountIncl: 109000 });
    expect(body).not.toHaveProperty('priceIncludesTax');

    fireEvent.click(screen.getByRole('switch', { name: '单价和金额含税' }));
    expect(((await screen.findByLabelText('不含税金额')) as HTMLInputElement).value).toBe('1090.00');
    fireEvent.click(saveButton());
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(2));
    const second = (onSubmit.mock.calls[1] as unknown as [InvoiceSaveBody])[0];
    expect(second.lines[0]).toMatchObject({ priceIncludesTax: false, amountExcl: 109000, tax: 9810, amountIncl: 118810 });
  });

  it('checks 交付手机 and 交付邮箱 before saving', async () => {
    const onSubmit = vi.fn(async () => false);
    await renderDrawer(onSubmit);
    fireEvent.change(await screen.findByLabelText('交付手机'), { target: { value: '1381234567' } });
    fireEvent.change(screen.getByLabelText('交付邮箱'), { target: { value: 'buyer@' } });
    fireEvent.click(saveButton());
    // The shared rules (the server's own field schemas) check asynchronously.
    expect(await screen.findByText('交付手机须为11位手机号码', {}, { timeout: 10_000 })).toBeTruthy();
    expect(await screen.findByText('交付邮箱格式不正确', {}, { timeout: 10_000 })).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText('交付手机'), { target: { value: '13812345678' } });
    fireEvent.change(screen.getByLabelText('交付邮箱'), { target: { value: 'buyer@example.com' } });
    fireEvent.click(saveButton());
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect((onSubmit.mock.calls[0] as unknown as [InvoiceSaveBody])[0]).toMatchObject({ buyerMobile: '13812345678', buyerEmail: 'buyer@example.com' });
  });

  it('新增开票申请 shows no error list before anything is typed; the first 保存 shows it', async () => {
    const onSubmit = vi.fn(async () => false);
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <EntryDrawer open initial={null} title="新增开票申请" onClose={() => undefined} onSubmit={onSubmit} />
      </QueryClientProvider>,
    );
    await screen.findByText(/销售方：本公司/);
    expect(screen.queryByText('请修改以下内容后保存')).toBeNull();
    expect(screen.queryByTestId('entry-problems')).toBeNull();
    expect(saveButton().hasAttribute('disabled')).toBe(false);
    fireEvent.click(saveButton());
    expect(await screen.findByText('请修改以下内容后保存')).toBeTruthy();
    expect(screen.getByTestId('entry-problems').textContent).toContain('请填写购买方名称');
    expect(onSubmit).not.toHaveBeenCalled();
  });
});

