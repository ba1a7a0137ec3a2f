/**
 * Issue 16, 成本设置: the four tabs; 价格表 checks the unit price (8 places) and the window before sending and
 * sends a decimal string and an open end as null, a used window keeps its price and cannot be deleted, an
 * unused one is deleted after a confirmation, the item's timeline, the import's per-row results; 审核人
 * saves the departments chosen; 月结 offers 结账 only when allowed, asks first, and 反结账 needs a reason;
 * 项目管理系统接口 never shows the credential, keeps it unless retyped, shows the connection test.
 */
import '../../../test/dom';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { shanghaiMonthOf, shiftMonth, type CostAuditorView, type CostClosingView, type CostPriceRow } from '@zhyy/shared';

const prices = vi.hoisted(() => ({ list: vi.fn(), timeline: vi.fn(), save: vi.fn(), remove: vi.fn(), export: vi.fn(), import: vi.fn(), template: vi.fn() }));
const api = vi.hoisted(() => ({ auditors: vi.fn(), saveAuditors: vi.fn(), closings: vi.fn(), close: vi.fn(), reopen: vi.fn(), closingLogs: vi.fn(), pms: vi.fn(), savePms: vi.fn(), testPms: vi.fn() }));
const orgTree = vi.hoisted(() => vi.fn());
vi.mock('../../../api/cost', async (orig) => ({ ...(await orig<object>()), costPriceApi: prices, costSettingApi: api }));
vi.mock('../../../api/system', () => ({ systemApi: { orgTree } }));
const confirm = vi.hoisted(() => vi.fn());
vi.mock('../../../ui/feedback', async (orig) => ({ ...(await orig<object>()), feedback: () => ({ modal: { confirm }, message: { success: vi.fn(), error: vi.fn() } }) }));

const { default: CostSettingPage } = await import('./CostSettingPage');
const { toPriceBody } = await import('./PriceEditModal');
const { windowState } = await import('./PriceTab');

configure({ asyncUtilTimeout: 15_000 });

const uuid = (n: number) => `0b7e5c1e-7c55-4a33-9f59-4c1b3e1f${String(n).padStart(4, '0')}`;
const price = (n: number, over: Partial<CostPriceRow> = {}): CostPriceRow => ({
  id: uuid(n), itemCode: `RG0${n}`, itemName: `木工${n}`, category: 'labour', spec: '高级', unit: '工日', unitPrice: '350.12345678', taxRate: '0.06',
  validFrom: '2031-01-01', validTo: null, usedCount: 0, updatedBy: '管理员', updatedAt: '2031-01-01T00:00:00.000Z', ...over,
});
const USED = price(1, { usedCount: 12, validTo: '2031-06-30' });
const FREE = price(2);
const D1 = uuid(101);
const D2 = uuid(102);
const TREE = [{ id: D1, parentId: null, name: '工程一部', sort: 1, managerId: null, managerName: '', memberCount: 1, totalCount: 2, children: [{ id: D2, parentId: D1, name: '工程二部', sort: 2, managerId: null, managerName: '', memberCount: 1, totalCount: 1, children: [] }] }];
const AUDITOR: CostAuditorView = { userId: uuid(201), name: '赵审核', loginName: 'demo20', deptName: '财务部', roles: ['20'], deptIds: [D1] };
const lastMonth = shiftMonth(shanghaiMonthOf(new Date()), -1);
const closing = (deptId: string, deptName: string, over: Partial<CostClosingView> = {}): CostClosingView => ({ deptId, deptName, month: lastMonth, closed: false, closedBy: '', closedAt: null, toAudit: 0, orders: 4, digest: null, changes: null, ...over });

beforeEach(() => {
  for (const f of [...Object.values(api), ...Object.values(prices), orgTree]) f.mockReset();
  confirm.mockReset();
  prices.list.mockResolvedValue({ items: [USED, FREE], total: 2 });
  orgTree.mockResolvedValue(TREE);
  api.auditors.mockResolvedValue([AUDITOR]);
  api.closings.mockResolvedValue([closing(D1, '工程一部'), closing(D2, '工程二部', { toAudit: 2 }), closing(uuid(103), '工程三部', { closed: true, closedBy: '钱主管', closedAt: '2031-02-02T00:00:00.000Z' })]);
  api.closingLogs.mockResolvedValue({ items: [{ deptName: '工程三部', month: lastMonth, action: 'close', reason: '', userName: '钱主管', createdAt: '2031-02-02T00:00:00.000Z' }], total: 1 });
  api.pms.mockResolvedValue({ mode: 'http', url: 'https://pms.example.cn/api', timeoutMs: 15_000, tokenSet: true, source: 'setting' });
});

function show() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(<QueryClientProvider client={client}><CostSettingPage /></QueryClientProvider>);
}
const rowOf = (text: string) => screen.getAllByText(text)[0]!.closest('tr')!;

describe('成本设置 · 价格表', { timeout: 60_000 }, () => {
  it('shows the four tabs and the windows; 新增价格 refuses a ninth decimal and a missing end, then sends the price as typed and an open end as null', async () => {
    show();
    await screen.findByText('RG01');
    for (const tab of ['价格表', '审核人', '月结', '项目管理系统接口']) expect(screen.getByRole('tab', { name: tab })).toBeTruthy();
    expect(prices.list).toHaveBeenCalledWith({ pageIndex: 1, pageSize: 20 });
    expect(rowOf('RG02').textContent).toContain('350.12345678');
    expect(rowOf('RG02').textContent).toContain('长期有效');

    fireEvent.click(screen.getByTestId('price-new'));
    const dialog = await screen.findByRole('dialog');
    const field = (label: string) => within(dialog).getByLabelText(label);
    fireEvent.change(field('成本项编码'), { target: { value: 'JX01' } });
    fireEvent.change(field('成本项名称'), { target: { value: '挖掘机台班' } });
    fireEvent.change(field('单位'), { target: { value: '台班' } });
    fireEvent.change(field('不含税单价（元）'), { target: { value: '1200.123456789' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    expect(await within(dialog).findByText('不含税单价须为不超过8位小数的正数')).toBeTruthy();
    expect(await within(dialog).findByText('请选择费用类别')).toBeTruthy();
    expect(prices.save).not.toHaveBeenCalled();

    // Taking 长期有效 off asks for an end.
    fireEvent.click(within(dialog).getByRole('checkbox', { name: '长期有效' }));
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    expect(await within(dialog).findByText('请选择失效日期，或勾选长期有效')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('checkbox', { name: '长期有效' }));

    fireEvent.change(field('不含税单价（元）'), { target: { value: '1200.12345678' } });
    fireEvent.mouseDown(field('费用类别'));
    fireEvent.click(await screen.findByTitle('机械设备'));
    fireEvent.mouseDown(field('税率'));
    fireEvent.click(await screen.findByTitle('13%'));
    prices.save.mockResolvedValue({ code: 20000, r: price(3) });
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(prices.save).toHaveBeenCalledTimes(1));
    expect(prices.save.mock.calls[0]![0]).toEqual({
      itemCode: 'JX01', itemName: '挖掘机台班', category: 'equipment', spec: '', unit: '台班', unitPrice: '1200.12345678', taxRate: '0.13',
      validFrom: expect.stringMatching(/^\d{4}-\d{2}-01$/), validTo: null,
    });
  });

  it('a used window keeps its price and rate and offers no 删除; an unused one is deleted after a confirmation', async () => {
    show();
    await screen.findByText('RG01');
    expect((within(rowOf('RG01')).getByRole('button', { name: /删\s*除/ }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByTestId(`price-edit-${USED.id}`));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/已有 12 行成本明细使用此价格/)).toBeTruthy();
    expect((within(dialog).getByLabelText('不含税单价（元）') as HTMLInputElement).disabled).toBe(true);
    expect((within(dialog).getByLabelText('不含税单价（元）') as HTMLInputElement).value).toBe('350.12345678');
    prices.save.mockResolvedValue({ code: 20000, r: USED });
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(prices.save).toHaveBeenCalledTimes(1));
    expect(prices.save.mock.calls[0]![0]).toMatchObject({ id: USED.id, itemCode: 'RG01', unitPrice: '350.12345678', taxRate: '0.06', validFrom: '2031-01-01', validTo: '2031-06-30' });

    prices.remove.mockResolvedValue({ code: 20000, r: null });
    fireEvent.click(screen.getByTestId(`price-delete-${FREE.id}`));
    expect(prices.remove).not.toHaveBeenCalled();
    const pop = await screen.findByText(`删除 RG02 2031-01-01 起的价格？`);
    fireEvent.click(within(pop.closest('.ant-popover') as HTMLElement).getByRole('button', { name: /删\s*除/ }));
    await waitFor(() => expect(prices.remove).toHaveBeenCalledWith({ id: FREE.id }));
  });

  it('the timeline lists the item windows; the import sends the file and shows each row result', async () => {
    prices.timeline.mockResolvedValue([price(1, { id: uuid(11), validFrom: '2020-01-01', validTo: '2020-12-31', unitPrice: '330' }), price(2, { validFrom: '2021-01-01' })]);
    show();
    await screen.findByText('RG01');
    fireEvent.click(screen.getByTestId(`price-timeline-${FREE.id}`));
    const timeline = await screen.findByTestId('price-timeline');
    expect(prices.timeline).toHaveBeenCalledWith({ itemCode: 'RG02', spec: '高级', unit: '工日' });
    // Windows before today are 已失效, the open one is in force.
    expect(timeline.textContent).toContain('2020-01-01 至 2020-12-31');
    expect(timeline.textContent).toContain('330.00');
    expect(timeline.textContent).toContain('已失效');
    expect(timeline.textContent).toContain('2021-01-01 至 长期');
    expect(timeline.textContent).toContain('执行中');

    prices.import.mockResolvedValue({ code: 20000, r: { total: 2, succeeded: 1, failed: 1, rows: [{ row: 2, ok: true, message: '导入成功' }, { row: 3, ok: false, message: '与已有价格有效期重叠：2031-01-01至长期' }] } });
    fireEvent.click(screen.getByTestId('price-import'));
    const dialog = (await screen.findByText('从Excel导入价格表')).closest('.ant-modal') as HTMLElement;
    const input = dialog.querySelector('input[type=file]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['xlsx-bytes'], '价格表.xlsx')] } });
    await within(dialog).findByText('价格表.xlsx');
    fireEvent.click(within(dialog).getByTestId('price-import-run'));
    await waitFor(() => expect(prices.import).toHaveBeenCalledWith({ file: btoa('xlsx-bytes') }));
    const result = await within(dialog).findByTestId('price-import-result');
    expect(result.textContent).toContain('共 2 行：成功 1 行，失败 1 行');
    expect(result.textContent).toContain('与已有价格有效期重叠：2031-01-01至长期');
  });

  it('form values to the request; where a window stands', async () => {
    const dayjs = (await import('dayjs')).default;
    expect(toPriceBody({ itemCode: ' A1 ', itemName: ' 名 ', category: 'other', spec: undefined, unit: ' 个 ', unitPrice: ' 0.00000001 ', taxRate: '0', validFrom: dayjs('2031-02-01'), validTo: dayjs('2031-03-31'), openEnd: false }, uuid(9)))
      .toEqual({ id: uuid(9), itemCode: 'A1', itemName: '名', category: 'other', spec: '', unit: '个', unitPrice: '0.00000001', taxRate: '0', validFrom: '2031-02-01', validTo: '2031-03-31' });
    expect(windowState({ validFrom: '2031-01-01', validTo: null }, '2031-05-05')).toBe('current');
    expect(windowState({ validFrom: '2031-01-01', validTo: '2031-05-04' }, '2031-05-05')).toBe('past');
    expect(windowState({ validFrom: '2031-05-06', validTo: null }, '2031-05-05')).toBe('future');
  });
});

describe('成本设置 · 审核人, 月结, 项目管理系统接口', { timeout: 60_000 }, () => {
  it('审核人: the departments chosen in the tree are saved for that auditor', async () => {
    show();
    fireEvent.click(await screen.findByRole('tab', { name: '审核人' }));
    await screen.findByText('赵审核');
    const save = screen.getByTestId('auditor-save-demo20') as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    fireEvent.mouseDown(screen.getByLabelText('赵审核的审核部门'));
    fireEvent.click(await screen.findByTitle('工程二部'));
    await waitFor(() => expect(save.disabled).toBe(false));
    api.saveAuditors.mockResolvedValue({ code: 20000, r: [{ ...AUDITOR, deptIds: [D1, D2] }] });
    fireEvent.click(save);
    await waitFor(() => expect(api.saveAuditors).toHaveBeenCalledWith({ userId: AUDITOR.userId, deptIds: [D1, D2] }));
    await waitFor(() => expect(save.disabled).toBe(true));
  });

  it('月结: 结账 only when nothing awaits audit, after a confirmation; 反结账 needs a reason', async () => {
    show();
    fireEvent.click(await screen.findByRole('tab', { name: '月结' }));
    await screen.findByText('工程二部');
    expect(api.closings).toHaveBeenCalledWith({ month: lastMonth });
    expect((screen.getByTestId(`close-${D2}`) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId('closing-logs').textContent).toContain('钱主管');

    fireEvent.click(screen.getByTestId(`close-${D1}`));
    expect(api.close).not.toHaveBeenCalled();
    const asked = confirm.mock.calls[0]![0] as { title: string; onOk: () => Promise<void> };
    expect(asked.title).toContain('工程一部');
    api.close.mockResolvedValue({ code: 20000, r: [closing(D1, '工程一部', { closed: true, closedBy: '钱主管', closedAt: '2031-02-03T00:00:00.000Z' })] });
    await asked.onOk();
    expect(api.close).toHaveBeenCalledWith({ deptId: D1, month: lastMonth });
    await screen.findByTestId(`reopen-${D1}`);

    fireEvent.click(screen.getByTestId(`reopen-${D1}`));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: /反结账/ }));
    expect(await within(dialog).findByText('请填写反结账原因')).toBeTruthy();
    expect(api.reopen).not.toHaveBeenCalled();
    api.reopen.mockResolvedValue({ code: 20000, r: [closing(D1, '工程一部')] });
    fireEvent.change(within(dialog).getByRole('textbox'), { target: { value: '补录漏报成本单' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /反结账/ }));
    await waitFor(() => expect(api.reopen).toHaveBeenCalledWith({ deptId: D1, month: lastMonth, reason: '补录漏报成本单' }));
  });

  it('月结: closing again opens what changed since the previous close, with the amounts; the digest is shown and the changes stay at hand', async () => {
    const fig = (orderNo: string, amount: number, tax: number, state = 1) => ({ orderId: `id-${orderNo}`, orderNo, projectCode: 'XM001', projectName: '江北管廊', state, amount, tax, lineCount: 1, digest: 'f'.repeat(64) });
    const changes = {
      added: [fig('CB2031010009', 1_202_00, 36_06)],
      removed: [fig('CB2031010003', 500_00, 15_00, 2)],
      changed: [{ before: fig('CB2031010001', 10_000_00, 300_00), after: fig('CB2031010001', 12_000_50, 360_02), what: ['不含税金额 10000.00 → 12000.50 元', '税额 300.00 → 360.02 元'] }],
      before: { orders: 2, amount: 15_000_00, tax: 450_00 },
      after: { orders: 3, amount: 18_202_50, tax: 546_08 },
    };
    show();
    fireEvent.click(await screen.findByRole('tab', { name: '月结' }));
    await screen.findByText('工程二部');
    // A close kept from before the digests: said so, nothing to compare.
    expect(screen.getByText('无摘要')).toBeTruthy();
    fireEvent.click(screen.getByTestId(`close-${D1}`));
    const asked = confirm.mock.calls[0]![0] as { onOk: () => Promise<void> };
    api.close.mockResolvedValue({ code: 20000, r: [closing(D1, '工程一部', { closed: true, closedBy: '钱主管', closedAt: '2031-02-03T00:00:00.000Z', digest: 'ab12cd34ef56'.padEnd(64, '0'), changes })] });
    await asked.onOk();
    const modal = await screen.findByTestId('close-changes');
    expect(modal.textContent).toContain('新增 1 张、移除 1 张、变化 1 张');
    const rowWith = (no: string) => within(modal).getByText(no).closest('tr')!;
    expect(rowWith('CB2031010009').textContent).toContain('新增');
    expect(rowWith('CB2031010009').textContent).toContain('1,202.00');
    expect(rowWith('CB2031010003').textContent).toContain('移除');
    expect(rowWith('CB2031010003').textContent).toContain('已作废');
    const changed = rowWith('CB2031010001').textContent ?? '';
    expect(changed).toContain('10,000.00');
    expect(changed).toContain('12,000.50');
    expect(changed).toContain('不含税金额 10000.00 → 12000.50 元；税额 300.00 → 360.02 元');
    // The totals of both closes.
    expect(modal.textContent).toContain('15,000.00');
    expect(modal.textContent).toContain('18,202.50');
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: /close|关闭/i }));
    await waitFor(() => expect(screen.queryByTestId('close-changes')).toBeNull());
    // The table shows the digest shortened and keeps the comparison.
    expect(screen.getByText('ab12cd34ef56')).toBeTruthy();
    fireEvent.click(screen.getByTestId(`changes-${D1}`));
    expect((await screen.findByTestId('close-changes')).textContent).toContain('CB2031010001');
  });

  it('项目管理系统接口: the credential is never shown and kept unless retyped; the test answer is shown', async () => {
    show();
    fireEvent.click(await screen.findByRole('tab', { name: '项目管理系统接口' }));
    expect(await screen.findByText('已设置；留空则保留原密钥')).toBeTruthy();
    expect((screen.getByLabelText('接口密钥') as HTMLInputElement).value).toBe('');
    fireEvent.change(screen.getByLabelText('接口地址'), { target: { value: 'ftp://pms' } });
    fireEvent.click(screen.getByTestId('pms-save'));
    expect(await screen.findByText('接口地址须以 http:// 或 https:// 开头')).toBeTruthy();
    expect(api.savePms).not.toHaveBeenCalled();
    api.savePms.mockResolvedValue({ code: 20000, r: { mode: 'http', url: 'https://pms2.example.cn/api', timeoutMs: 15_000, tokenSet: true, source: 'setting' } });
    fireEvent.change(screen.getByLabelText('接口地址'), { target: { value: 'https://pms2.example.cn/api' } });
    fireEvent.click(screen.getByTestId('pms-save'));
    await waitFor(() => expect(api.savePms).toHaveBeenCalledWith({ mode: 'http', url: 'https://pms2.example.cn/api', token: '', timeoutMs: 15_000 }));
    api.testPms.mockResolvedValue({ ok: false, message: '连接失败：项目管理系统未响应' });
    fireEvent.click(screen.getByTestId('pms-test'));
    expect((await screen.findByTestId('pms-test-result')).textContent).toContain('连接失败：项目管理系统未响应');
  });
});
