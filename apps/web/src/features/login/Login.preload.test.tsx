import '../../test/dom';
import { fireEvent, render, screen } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';

const preloadSignedIn = vi.fn();
vi.mock('../../router/preload', () => ({ preloadSignedIn: () => preloadSignedIn() }));
vi.mock('../../api/account', () => ({ login: vi.fn() }));

const { default: Login } = await import('./Login');

describe('sign-in page', () => {
  it('loads nothing of the signed-in app until the user types, then starts fetching it', async () => {
    render(
      <App>
        <MemoryRouter initialEntries={['/login']}>
          <Login />
        </MemoryRouter>
      </App>,
    );
    const name = await screen.findByLabelText('用户名');
    expect(preloadSignedIn).not.toHaveBeenCalled();
    fireEvent.change(name, { target: { value: 'demo1' } });
    expect(preloadSignedIn).toHaveBeenCalled();
  });
});
