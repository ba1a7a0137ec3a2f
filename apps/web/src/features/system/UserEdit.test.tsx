/** Issue 12 items 5 and 10 on the web: the new-user form's messages and its phone and email rules. */
import '../../test/dom';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { ViewContext, type ViewInfo } from '../../router/view';
import UserEdit from './UserEdit';

const saveUser = vi.fn(async () => ({ code: 20000, r: { id: 'x', initialPassword: 'Abc12345' } }));
vi.mock('../../api/system', () => ({
  systemApi: {
    deptTree: async () => [],
    saveUser: (...a: unknown[]) => saveUser(...(a as [])),
    userDetail: async () => null,
  },
}));

function renderNew() {
  const view = { path: '/system/edituser', fullPath: '/system/edituser', search: '', params: {}, route: {} as ViewInfo['route'], active: true } as ViewInfo;
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>
        <ViewContext.Provider value={view}>
          <UserEdit />
        </ViewContext.Provider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const errorsOf = (label: string) => {
  const item = screen.getByLabelText(label).closest('.ant-form-item')!;
  return [...item.querySelectorAll('.ant-form-item-explain-error')].map((e) => e.textContent);
};

describe('新增用户', () => {
  it('an empty form shows one plain message per required field, no schema text', { timeout: 30_000 }, async () => {
    renderNew();
    fireEvent.click(screen.getByTestId('save-user'));
    await waitFor(() => expect(errorsOf('登录名')).toEqual(['请输入登录名']));
    expect(errorsOf('姓名')).toEqual(['请输入姓名']);
    expect(document.body.textContent).not.toMatch(/期望|实际接收|无效输入|string|undefined/);
    expect(saveUser).not.toHaveBeenCalled();
  });

  it('电话 and 邮箱 follow the shared rules', { timeout: 30_000 }, async () => {
    renderNew();
    for (const [value, message] of [
      ['12345', '电话格式不正确，应为手机号或带区号的固定电话（如 025-86651234）'],
      ['abc', '电话格式不正确，应为手机号或带区号的固定电话（如 025-86651234）'],
    ]) {
      fireEvent.change(screen.getByLabelText('电话'), { target: { value } });
      await waitFor(() => expect(errorsOf('电话')).toEqual([message]));
    }
    fireEvent.change(screen.getByLabelText('电话'), { target: { value: '025-86651234' } });
    await waitFor(() => expect(errorsOf('电话')).toEqual([]));
    fireEvent.change(screen.getByLabelText('邮箱'), { target: { value: 'a@b' } });
    await waitFor(() => expect(errorsOf('邮箱')).toEqual(['邮箱格式不正确']));
  });
});
