/**
 * Issue 11: the sign-in page is drawn without antd; it keeps the antd form's rules and messages
 * (请输入用户名, 请输入密码), its labels and Enter to send.
 */
import '../../test/dom';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useSession } from '../../stores/session';

const login = vi.hoisted(() => vi.fn());
vi.mock('../../api/account', () => ({ login }));
vi.mock('../../router/preload', () => ({ preloadSignedIn: () => undefined }));

const { default: Login } = await import('./Login');

function show(entry = '/login') {
  return render(
    <MemoryRouter initialEntries={[entry]}>
      <Routes>
        <Route path="/login" element={<Login />} />
        <Route path="*" element={<div data-testid="landed" />} />
      </Routes>
    </MemoryRouter>,
  );
}

const name = () => screen.getByLabelText('用户名') as HTMLInputElement;
const password = () => screen.getByLabelText('密码') as HTMLInputElement;

describe('sign-in form without antd (issue 11)', () => {
  beforeEach(() => {
    login.mockReset();
    act(() => useSession.getState().resetToken());
  });

  it('sending an empty form says 请输入用户名 and 请输入密码 under the fields and sends nothing', async () => {
    show();
    expect(screen.queryAllByRole('alert')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: '登录' }));
    const alerts = await screen.findAllByRole('alert');
    expect(alerts.map((a) => a.textContent)).toEqual(['请输入用户名', '请输入密码']);
    expect(name().getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(name().getAttribute('aria-describedby')!)?.textContent).toBe('请输入用户名');
    expect(document.activeElement).toBe(name());
    expect(login).not.toHaveBeenCalled();
  });

  it('a name of spaces is no name; the message goes once the field is filled', async () => {
    show();
    fireEvent.change(name(), { target: { value: '   ' } });
    expect((await screen.findByRole('alert')).textContent).toBe('请输入用户名');
    fireEvent.change(name(), { target: { value: 'demo1' } });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(name().getAttribute('aria-invalid')).toBeNull();
  });

  it('Enter sends the trimmed name and the password, then follows the redirect', async () => {
    login.mockResolvedValue({ token: 'tok-1', needChangePassword: false });
    show('/login?redirect=%2Fsystem%2Fuserlist');
    fireEvent.change(name(), { target: { value: ' demo1 ' } });
    fireEvent.change(password(), { target: { value: 'demo123' } });
    fireEvent.submit(password().form!);
    await waitFor(() => expect(login).toHaveBeenCalledWith({ name: 'demo1', password: 'demo123' }));
    expect(await screen.findByTestId('landed')).toBeTruthy();
    expect(useSession.getState().token).toBe('tok-1');
  });

  it('the eye shows and hides the password', () => {
    show();
    expect(password().type).toBe('password');
    fireEvent.click(screen.getByRole('button', { name: '显示密码' }));
    expect(password().type).toBe('text');
    fireEvent.click(screen.getByRole('button', { name: '隐藏密码' }));
    expect(password().type).toBe('password');
  });
});
