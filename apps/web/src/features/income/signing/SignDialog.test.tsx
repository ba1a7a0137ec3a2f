/**
 * Issue 13, 签收归档 dialog: the rules of SignBody before anything is sent (单据类型 required, the number of the
 * chosen type unless 其他, 说明 for 其他, the number's characters), the body sent, each invoice's outcome
 * (archive number or reason) under 签收成功n张，失败m张, and a refusal kept in the dialog in the server's words.
 */
import '../../../test/dom';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../api/errors';
import { poolRow } from '../pool/testRows';
import { SignDialog } from './SignDialog';

const sign = vi.fn();
vi.mock('../../../api/incomeEntry', () => ({ incomeEntryApi: { sign: (...a: unknown[]) => sign(...a) } }));

configure({ asyncUtilTimeout: 15_000 });
beforeEach(() => {
  sign.mockReset();
});

const A = '0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0a01';
const B = '0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0a02';
const rows = [
  poolRow({ id: A, digitalNo: '26322000000011110001', amountIncl: 113000, signState: 0 }),
  poolRow({ id: B, digitalNo: '26322000000011110002', sellerName: '苏州立新机电设备有限公司', amountIncl: 56500, signState: 2 }),
];

function renderDialog(scope: 'all' | 'dept' = 'all', onSigned = vi.fn()) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter><SignDialog scope={scope} open rows={rows} onClose={() => undefined} onSigned={onSigned} /></MemoryRouter>
    </QueryClientProvider>,
  );
  return onSigned;
}

async function pickType(label: string) {
  fireEvent.mouseDown(document.querySelector('#income-sign_docType')!);
  const options = await screen.findAllByTitle(label);
  fireEvent.click(options[options.length - 1]!);
  await waitFor(() => expect(document.querySelector('#income-sign_docType')!.closest('.ant-select')!.textContent).toContain(label));
}

const submit = () => fireEvent.click(screen.getByTestId('sign-submit'));
const errors = () => Array.from(document.querySelectorAll('.ant-form-item-explain-error')).map((e) => e.textContent);

describe('签收归档 dialog (issue 13)', { timeout: 60_000 }, () => {
  it('shows the chosen invoices and their sum in 元', async () => {
    renderDialog();
    const dialog = await screen.findByTestId('sign-dialog');
    expect(dialog.textContent).toContain('已选择 2 张发票');
    expect(dialog.textContent).toContain('1,695.00');
  });

  it('more than 100 invoices: SignBody\'s message, 签收 disabled', async () => {
    const many = Array.from({ length: 101 }, (_, i) => poolRow({ id: `0b7e5c1e-7c55-4a33-9f59-${String(i).padStart(12, '0')}` }));
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter><SignDialog scope="all" open rows={many} onClose={() => undefined} /></MemoryRouter>
      </QueryClientProvider>,
    );
    expect((await screen.findByTestId('sign-ids-issue')).textContent).toBe('一次最多签收100张发票');
    expect((screen.getByTestId('sign-submit') as HTMLButtonElement).disabled).toBe(true);
  });

  it('the SignBody rules: 单据类型 required, the number of the chosen type, 说明 for 其他; nothing sent while they fail', async () => {
    renderDialog();
    await screen.findByTestId('sign-dialog');
    submit();
    await waitFor(() => expect(errors()).toContain('请选择单据类型'));

    await pickType('项目');
    submit();
    await waitFor(() => expect(errors()).toContain('请填写项目号'));

    fireEvent.change(document.querySelector('#income-sign_docNo')!, { target: { value: 'XM 2026' } });
    submit();
    await waitFor(() => expect(errors()).toContain('单据号只能包含字母、数字、-、_、/'));

    await pickType('其他');
    fireEvent.change(document.querySelector('#income-sign_docNo')!, { target: { value: '' } });
    submit();
    await waitFor(() => expect(errors()).toContain('单据类型为其他时请填写说明'));
    expect(errors()).not.toContain('请填写其他号');
    expect(sign).not.toHaveBeenCalled();
  });

  it('sends the chosen invoices against the document, then shows each outcome and the summary', async () => {
    sign.mockResolvedValue({
      code: 20000, message: '签收成功1张，失败1张',
      r: {
        signed: 1, failed: 1, pending: 0,
        outcomes: [
          { invoiceId: A, signState: 1, archiveNo: 'GD202611000007', message: '签收成功，档案号 GD202611000007' },
          { invoiceId: B, signState: 2, archiveNo: '', message: '签收失败：档案系统拒绝归档（单据不存在）' },
        ],
      },
    });
    const onSigned = renderDialog('dept');
    await screen.findByTestId('sign-dialog');
    await pickType('项目');
    fireEvent.change(document.querySelector('#income-sign_docNo')!, { target: { value: ' XM2026-001 ' } });
    submit();
    const summary = await screen.findByTestId('sign-summary');
    expect(summary.textContent).toBe('签收成功1张，失败1张');
    expect(sign).toHaveBeenCalledWith('dept', { invoiceIds: [A, B], docType: 'project', docNo: 'XM2026-001', note: '' });
    expect(onSigned).toHaveBeenCalledTimes(1);
    const table = screen.getByTestId('sign-outcomes');
    const [first, second] = within(table).getAllByRole('row').slice(1);
    expect(first!.textContent).toContain('26322000000011110001');
    expect(first!.textContent).toContain('签收成功');
    expect(first!.textContent).toContain('GD202611000007');
    expect(first!.textContent).toContain('1,130.00');
    expect(second!.textContent).toContain('苏州立新机电设备有限公司');
    expect(second!.textContent).toContain('签收失败');
    expect(second!.textContent).toContain('档案系统拒绝归档（单据不存在）');
    expect(within(table).getAllByTestId('sign-archive-no').map((e) => e.textContent)).toEqual(['GD202611000007']);
  });

  it('an invoice the archive side did not answer for is 待核实, not a failure', async () => {
    sign.mockResolvedValue({
      code: 20000, message: '签收成功1张，失败0张，待核实1张',
      r: {
        signed: 1, failed: 0, pending: 1,
        outcomes: [
          { invoiceId: A, signState: 1, archiveNo: 'GD202611000008', message: '签收成功，档案号 GD202611000008' },
          { invoiceId: B, signState: -1, archiveNo: '', message: '签收结果待核实：档案系统15秒内未应答，请稍后重试；系统将自动向档案系统核实，请稍后刷新' },
        ],
      },
    });
    renderDialog('all');
    await screen.findByTestId('sign-dialog');
    await pickType('项目');
    fireEvent.change(document.querySelector('#income-sign_docNo')!, { target: { value: 'XM2026-002' } });
    submit();
    expect((await screen.findByTestId('sign-summary')).textContent).toBe('签收成功1张，失败0张，待核实1张');
    const second = within(screen.getByTestId('sign-outcomes')).getAllByRole('row')[2]!;
    expect(second.textContent).toContain('待核实');
    expect(second.textContent).not.toContain('签收失败');
    expect(second.textContent).toContain('系统将自动向档案系统核实');
  });

  it('a refusal of the whole call stays in the dialog in the server\'s words', async () => {
    sign.mockRejectedValue(new ApiError('business', '您的账号未设置所属部门，不能进行部门签收', { code: 30000, status: 400 }));
    renderDialog('dept');
    await screen.findByTestId('sign-dialog');
    await pickType('其他');
    fireEvent.change(document.querySelector('#income-sign_note')!, { target: { value: '零星采购' } });
    submit();
    expect((await screen.findByTestId('sign-refusal')).textContent).toBe('您的账号未设置所属部门，不能进行部门签收');
    expect(sign).toHaveBeenCalledWith('dept', { invoiceIds: [A, B], docType: 'other', docNo: '', note: '零星采购' });
    expect(screen.queryByTestId('sign-summary')).toBeNull();
  });
  it('every invoice refused (30000 with the outcomes beside it): each invoice is listed with its reason (issue 27 item 8)', async () => {
    const message = '2 张发票均未签收：26322000000011110001 该发票已用于报销单 BX202611-0777；x 签收失败：档案系统拒绝归档';
    const r = {
      signed: 0, failed: 2, pending: 0,
      outcomes: [
        { invoiceId: A, signState: 0, archiveNo: '', message: '该发票已用于报销单 BX202611-0777' },
        { invoiceId: B, signState: 2, archiveNo: '', message: '签收失败：档案系统拒绝归档' },
      ],
    };
    sign.mockRejectedValue(new ApiError('business', message, { code: 30000, status: 400, envelope: { code: 30000, message, r } }));
    renderDialog('all');
    await screen.findByTestId('sign-dialog');
    await pickType('项目');
    fireEvent.change(document.querySelector('#income-sign_docNo')!, { target: { value: 'XM2026-003' } });
    submit();
    expect((await screen.findByTestId('sign-summary')).textContent).toBe(message);
    const [first, second] = within(screen.getByTestId('sign-outcomes')).getAllByRole('row').slice(1);
    expect(first!.textContent).toContain('该发票已用于报销单 BX202611-0777');
    expect(second!.textContent).toContain('档案系统拒绝归档');
    expect(screen.queryByTestId('sign-refusal')).toBeNull();
  });
});
