/**
 * Issue 15, 报销设置 (/reimbursement/cost-setting): the tabs; 费用类别 with subject and default rate, a used
 * category offers no 删除, 新增类别 sends the typed category; 成本中心 names the departments without one;
 * 会计系统接口 never shows the secret (only whether it is set), saves without it unless retyped, and
 * 测试连接 shows the answer.
 */
import '../../../test/dom';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReimbSettingView } from '@zhyy/shared';
import CostSettingPage from './CostSettingPage';

const get = vi.fn();
const addCategory = vi.fn();
const saveAccounting = vi.fn();
const testAccounting = vi.fn();
const grades = vi.fn();
vi.mock('../../../api/reimbursementSettings', () => ({
  reimbSettingApi: {
    get: () => get(),
    addCategory: (...a: unknown[]) => addCategory(...a),
    editCategory: vi.fn(),
    enableCategory: vi.fn(),
    deleteCategory: vi.fn(),
    saveCostCentre: vi.fn(),
    deleteCostCentre: vi.fn(),
    saveStandards: vi.fn(),
    addCity: vi.fn(),
    deleteCity: vi.fn(),
    grades: (...a: unknown[]) => grades(...a),
    saveGrade: vi.fn(),
    saveInvoiceAge: vi.fn(),
    saveAccounting: (...a: unknown[]) => saveAccounting(...a),
    testAccounting: () => testAccounting(),
  },
}));

configure({ asyncUtilTimeout: 15_000 });

const view = (o: Partial<ReimbSettingView> = {}): ReimbSettingView => ({
  categories: [
    { code: '0102', name: '差旅-住宿', travelKind: 'hotel', subjectCode: '6602.01', subjectName: '管理费用-差旅费', defaultTaxRate: '0.06', sort: 20, enabled: true, usedCount: 12 },
    { code: '9901', name: '测试类别', travelKind: '', subjectCode: '6602.99', subjectName: '管理费用-其他', defaultTaxRate: '0.13', sort: 900, enabled: false, usedCount: 0 },
  ],
  costCentres: [
    { deptId: 'd1', deptName: '财务部', deptPath: '华建 / 财务部', parentId: null, centreCode: 'CC0104', centreName: '财务部' },
    { deptId: 'd2', deptName: '信息中心', deptPath: '华建 / 信息中心', parentId: null, centreCode: '', centreName: '' },
  ],
  standards: [{ grade: 'staff', cityTier: 1, hotelPerNight: 50_000, seatClasses: ['二等座', '经济舱'], allowancePerDay: 10_000 }],
  cities: [{ city: '北京', tier: 1 }, { city: '南京', tier: 2 }],
  invoiceAgeDays: 365,
  accounting: { mode: 'http', url: 'https://i8.example.cn/api', timeoutMs: 15_000, tokenSet: true, source: 'setting' },
  ...o,
});

beforeEach(() => {
  for (const f of [get, addCategory, saveAccounting, testAccounting, grades]) f.mockReset();
  get.mockResolvedValue(view());
  grades.mockResolvedValue({ items: [], total: 0 });
});

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(<QueryClientProvider client={client}><CostSettingPage /></QueryClientProvider>);
}

describe('报销设置', { timeout: 60_000 }, () => {
  it('lists the categories with subject, rate and state; a used one offers no 删除; 新增类别 sends the typed category', async () => {
    renderPage();
    const row = (await screen.findByText('差旅-住宿')).closest('tr')!;
    expect(row.textContent).toContain('6602.01 管理费用-差旅费');
    expect(row.textContent).toContain('6%');
    expect(within(row).getByText('已使用')).toBeTruthy();
    expect(within(row).queryByText('删除')).toBeNull();
    const unused = screen.getByText('测试类别').closest('tr')!;
    expect(within(unused).getByText('删除')).toBeTruthy();
    for (const tab of ['费用类别', '成本中心', '差旅标准', '城市分类', '人员职级', '发票期限', '会计系统接口']) expect(screen.getByRole('tab', { name: tab })).toBeTruthy();

    addCategory.mockResolvedValue({ code: 20000, r: view() });
    fireEvent.click(screen.getByRole('button', { name: /新增类别/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('类别编码'), { target: { value: '1201' } });
    fireEvent.change(within(dialog).getByLabelText('类别名称'), { target: { value: '劳动保护' } });
    fireEvent.change(within(dialog).getByLabelText('科目编码'), { target: { value: '6602.11' } });
    fireEvent.change(within(dialog).getByLabelText('科目名称'), { target: { value: '管理费用-劳动保护费' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(addCategory).toHaveBeenCalledTimes(1));
    expect(addCategory.mock.calls[0]![0]).toMatchObject({ code: '1201', name: '劳动保护', subjectCode: '6602.11', subjectName: '管理费用-劳动保护费', defaultTaxRate: '0.06', travelKind: '' });
  });

  it('refuses an empty name before sending', async () => {
    renderPage();
    await screen.findByText('差旅-住宿');
    fireEvent.click(screen.getByRole('button', { name: /新增类别/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('类别编码'), { target: { value: '1202' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    expect(await within(dialog).findByText('请填写类别名称')).toBeTruthy();
    expect(addCategory).not.toHaveBeenCalled();
  });

  it('成本中心 names the departments without a cost centre', async () => {
    renderPage();
    fireEvent.click(await screen.findByRole('tab', { name: '成本中心' }));
    expect(await screen.findByText('1 个部门未设置成本中心')).toBeTruthy();
    const row = screen.getByText('华建 / 信息中心').closest('tr')!;
    expect(within(row).getByText('未设置')).toBeTruthy();
  });

  it('会计系统接口 never shows the secret, keeps it when not retyped, and shows the connection test answer', async () => {
    renderPage();
    fireEvent.click(await screen.findByRole('tab', { name: '会计系统接口' }));
    expect(await screen.findByText('已设置；留空则保留原密钥')).toBeTruthy();
    const secret = screen.getByLabelText('接口密钥') as HTMLInputElement;
    expect(secret.value).toBe('');
    expect(screen.getByLabelText('接口地址')).toHaveProperty('value', 'https://i8.example.cn/api');
    saveAccounting.mockResolvedValue({ code: 20000, r: view() });
    fireEvent.change(screen.getByLabelText('接口地址'), { target: { value: 'https://i8-new.example.cn/api' } });
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(saveAccounting).toHaveBeenCalledTimes(1));
    expect(await screen.findByText('保存成功')).toBeTruthy();
    expect(saveAccounting.mock.calls[0]![0]).toEqual({ mode: 'http', url: 'https://i8-new.example.cn/api', token: '', timeoutMs: 15_000 });
    testAccounting.mockResolvedValue({ code: 20000, r: { ok: false, message: '连接失败：无法连接会计系统，请稍后重试' } });
    fireEvent.click(screen.getByRole('button', { name: /测试连接/ }));
    expect((await screen.findByTestId('accounting-test-result')).textContent).toContain('连接失败：无法连接会计系统，请稍后重试');
  });
});

// 保存成功 is antd's static message (no App bridge here): a root of its own that cleanup() does not
// unmount. Its close timer would otherwise render after the test environment is gone (window is not defined).
afterAll(async () => {
  const { message } = await import('antd');
  message.destroy();
  await new Promise((r) => setTimeout(r, 50));
});
