/**
 * 投标设置: 投标参数 loads the settings, refuses bad values in place (years, amount, reminder days), and
 * sends the threshold in 分 and the reminder days sorted; the tab list is exported for other parts.
 */
import '../../../test/dom';
import { configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { TenderSettingsView } from '@zhyy/shared';

const api = vi.hoisted(() => ({ get: vi.fn(), save: vi.fn() }));
vi.mock('../../../api/tender-files', () => ({ tenderSettingApi: api, tenderFilesApi: {} }));
vi.mock('../../../ui/feedback', async (orig) => ({ ...(await orig<object>()), feedback: () => ({ modal: { confirm: vi.fn() }, message: { success: vi.fn(), error: vi.fn() } }) }));

const { default: TenderSettingPage, TENDER_SETTING_TABS, readRemindDays, toSettingsBody } = await import('./TenderSettingPage');

configure({ asyncUtilTimeout: 15_000 });

const VIEW: TenderSettingsView = { watermark: '仅供××项目投标使用', windowYears: 5, thresholdFen: 0, remindDays: [90, 60, 30, 7], updatedBy: null, updatedAt: null };

function show() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(<QueryClientProvider client={client}><TenderSettingPage /></QueryClientProvider>);
}

beforeEach(() => {
  api.get.mockReset();
  api.save.mockReset();
  api.get.mockResolvedValue(VIEW);
});

describe('投标设置', { timeout: 60_000 }, () => {
  it('shows the values and saves the threshold in 分 with the days sorted', async () => {
    api.save.mockImplementation(async (b) => ({ code: 20000, message: '保存成功', r: { ...VIEW, ...b, updatedBy: '管理员', updatedAt: '2026-11-01T00:00:00.000Z' } }));
    show();
    expect(screen.getByText('投标参数')).toBeTruthy();
    const watermark = (await screen.findByDisplayValue('仅供××项目投标使用')) as HTMLInputElement;
    expect(screen.getByText('尚未修改，当前为默认值')).toBeTruthy();
    expect(screen.getByText('90')).toBeTruthy();
    fireEvent.change(watermark, { target: { value: '仅供某某项目投标使用' } });
    fireEvent.change(screen.getByPlaceholderText('0.00'), { target: { value: '1,000,000.5' } });
    fireEvent.click(screen.getByTestId('tender-settings-save'));
    await waitFor(() => expect(api.save).toHaveBeenCalledTimes(1));
    expect(api.save.mock.calls[0]![0]).toEqual({ watermark: '仅供某某项目投标使用', windowYears: 5, thresholdFen: 100000050, remindDays: [90, 60, 30, 7] });
    await screen.findByText(/最后修改：管理员/);
  });

  it('refuses a bad amount in place and sends nothing', async () => {
    show();
    await screen.findByDisplayValue('仅供××项目投标使用');
    fireEvent.change(screen.getByPlaceholderText('0.00'), { target: { value: '12.345' } });
    fireEvent.click(screen.getByTestId('tender-settings-save'));
    await screen.findByText('业绩金额门槛最多两位小数');
    expect(api.save).not.toHaveBeenCalled();
  });

  it('shows a retry when loading fails', async () => {
    api.get.mockRejectedValue(new Error('x'));
    show();
    await screen.findByText('投标设置加载失败');
  });

  it('reads reminder days and exports its tabs', () => {
    expect(readRemindDays(['7', 90, '30'])).toEqual({ ok: true, days: [90, 30, 7] });
    expect(readRemindDays([])).toEqual({ ok: false, error: '至少设置一个提醒天数' });
    expect(readRemindDays(['30', '30'])).toEqual({ ok: false, error: '提醒天数不能重复' });
    expect(readRemindDays(['0'])).toEqual({ ok: false, error: '提醒天数须在1至365天之间' });
    expect(readRemindDays(['400'])).toEqual({ ok: false, error: '提醒天数须在1至365天之间' });
    expect(readRemindDays(['3.5'])).toEqual({ ok: false, error: '提醒天数须为整数' });
    expect(() => toSettingsBody({ watermark: 'x', windowYears: 3, threshold: 'abc', remindDays: ['7'] })).toThrow('业绩金额门槛须为数字金额');
    expect(TENDER_SETTING_TABS.map((t) => t.label)).toEqual(['投标参数', '证书种类']);
  });
});
