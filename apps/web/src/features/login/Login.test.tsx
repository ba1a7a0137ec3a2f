/** Issue 12 #20: a user forced out (or whose session expired) reads why on the sign-in page. */
import '../../test/dom';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { hooks } from '../../api/clients';
import { createHttpClient } from '../../api/http';
import { useSession } from '../../stores/session';
import Login from './Login';

describe('the sign-in page says why the session ended', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    sessionStorage.clear();
  });

  it('a 50008 您已被管理员强制下线 is said once on the sign-in page after the reload', async () => {
    const reload = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, reload } as Location);
    useSession.getState().setToken('revoked-token');
    const answer = new Response(JSON.stringify({ code: 50008, message: '您已被管理员强制下线' }), { status: 401 });
    const client = createHttpClient({ baseUrl: () => '/api', hooks, fetch: (async () => answer) as unknown as typeof fetch });
    await expect(client.post('/useronline/heartBeat', {}, { silent: true })).rejects.toMatchObject({ code: 50008 });
    expect(reload).toHaveBeenCalledTimes(1);
    expect(useSession.getState().token).toBe('');

    const first = render(
      <MemoryRouter>
        <Login />
      </MemoryRouter>,
    );
    expect(screen.getByTestId('sign-out-reason').textContent).toContain('您已被管理员强制下线');
    first.unmount();
    render(
      <MemoryRouter>
        <Login />
      </MemoryRouter>,
    );
    expect(screen.queryByTestId('sign-out-reason')).toBeNull();
  }, 30_000);
});
