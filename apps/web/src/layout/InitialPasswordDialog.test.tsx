import '../test/dom';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useSession } from '../stores/session';

const updatePassword = vi.fn();
vi.mock('../api/account', () => ({ updatePassword: (body: unknown) => updatePassword(body) }));
const success = vi.fn();
vi.mock('../ui/feedback', () => ({ feedback: () => ({ message: { success } }) }));

const { InitialPasswordDialog } = await import('./InitialPasswordDialog');

function renderDialog() {
  return render(
    <App>
      <InitialPasswordDialog />
    </App>,
  );
}

async function fill(label: string, value: string) {
  fireEvent.change(await screen.findByLabelText(label), { target: { value } });
}

describe('initial-password dialog (SPEC sections 4 and 5)', () => {
  beforeEach(() => {
    updatePassword.mockReset();
    success.mockReset();
    act(() => useSession.getState().raisePasswordFlag());
  });

  it('is 440px wide, has no close button and ignores Escape', async () => {
    renderDialog();
    const dialog = await screen.findByRole('dialog');
    expect(screen.queryByRole('button', { name: /close|关闭/i })).toBeNull();
    expect((dialog.closest('.ant-modal') as HTMLElement | null)?.style.width).toBe('440px');
    fireEvent.keyDown(dialog, { key: 'Escape', code: 'Escape', keyCode: 27 });
    expect(useSession.getState().needChangePassword).toBe(true);
  });

  it('limits inputs to 32 characters', async () => {
    renderDialog();
    for (const label of ['原密码', '新密码', '确认密码']) {
      expect((await screen.findByLabelText(label)).getAttribute('maxlength')).toBe('32');
    }
  });

  it('shows the rules of section 5 word for word', async () => {
    renderDialog();
    fireEvent.click(await screen.findByTestId('password-submit'));
    expect(await screen.findByText('输入新密码')).toBeTruthy();
    expect(await screen.findByText('输入确认密码')).toBeTruthy();
    await fill('新密码', 'abc');
    expect(await screen.findByText('6-20位密码')).toBeTruthy();
    await fill('新密码', 'abcdefgh');
    expect(await screen.findByText('6-20位，由字母和数字组合', { selector: '.ant-form-item-explain-error' })).toBeTruthy();
    await fill('新密码', 'abc12345');
    await fill('确认密码', 'abc12346');
    expect(await screen.findByText('两次密码不一致')).toBeTruthy();
    expect(updatePassword).not.toHaveBeenCalled();
  });

  it('only 设置 after a successful change closes it, with 修改成功', async () => {
    updatePassword.mockResolvedValueOnce({ code: 20000, message: '修改成功' });
    renderDialog();
    await fill('原密码', 'demo123');
    await fill('新密码', 'abc12345');
    await fill('确认密码', 'abc12345');
    fireEvent.click(await screen.findByTestId('password-submit'));
    await waitFor(() => expect(useSession.getState().needChangePassword).toBe(false));
    expect(updatePassword).toHaveBeenCalledWith({ oldPassword: 'demo123', password: 'abc12345', confirmPassword: 'abc12345' });
    expect(success).toHaveBeenCalledWith('修改成功');
  });

  it('stays open when the change fails', async () => {
    updatePassword.mockRejectedValueOnce(new Error('原密码错误'));
    renderDialog();
    await fill('原密码', 'wrong1');
    await fill('新密码', 'abc12345');
    await fill('确认密码', 'abc12345');
    fireEvent.click(await screen.findByTestId('password-submit'));
    await waitFor(() => expect(updatePassword).toHaveBeenCalled());
    expect(useSession.getState().needChangePassword).toBe(true);
  });
});
