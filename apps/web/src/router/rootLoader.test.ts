import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { UserInfo } from '@zhyy/shared';
import { useSession } from '../stores/session';

const getUserInfo = vi.fn<(token: string) => Promise<UserInfo | null>>();
vi.mock('../api/account', () => ({ getUserInfo: (t: string) => getUserInfo(t) }));
const showError = vi.fn();
vi.mock('../ui/feedback', () => ({ showError: (text: string, ms: number) => showError(text, ms) }));
vi.mock('../live/version', () => ({ checkVersion: () => Promise.resolve(false) }));

const { rootLoader } = await import('./rootLoader');
const { publicConfig, startPublicConfig } = await import('../api/config');

const info = (roles: string[]): UserInfo => ({ roles, name: '张三', loginName: 'demo15', deptName: '投标部', position: '专员', needChangePassword: false });

async function load(path: string): Promise<{ redirect: string | null }> {
  try {
    await rootLoader({ request: new Request(`http://localhost${path}`), params: {}, context: undefined } as Parameters<typeof rootLoader>[0]);
    return { redirect: null };
  } catch (e) {
    if (e instanceof Response) return { redirect: e.headers.get('Location') };
    throw e;
  }
}

describe('root loader: the guard with the user-info load (SPEC section 4)', () => {
  beforeEach(() => {
    useSession.getState().resetToken();
    getUserInfo.mockReset();
    showError.mockReset();
  });

  it('loads the user info once, then repeats the navigation with the landing rules', async () => {
    useSession.getState().setToken('tok');
    getUserInfo.mockResolvedValue(info(['15']));
    expect(await load('/')).toEqual({ redirect: '/tender/personnel-certificate/collect' });
    expect(getUserInfo).toHaveBeenCalledWith('tok');
    expect(useSession.getState().roles).toEqual(['15']);
    expect(await load('/tender/personnel-certificate/collect')).toEqual({ redirect: null });
    expect(getUserInfo).toHaveBeenCalledTimes(1);
  });

  it('empty roles: clears the token, shows 权限不足 and goes to /login', async () => {
    useSession.getState().setToken('tok');
    getUserInfo.mockResolvedValue(info([]));
    expect(await load('/dashboard')).toEqual({ redirect: '/login' });
    expect(useSession.getState().token).toBe('');
    expect(showError).toHaveBeenCalledWith('权限不足', 5000);
  });

  it('missing info: 验证失败, 请重新登录; a rejection without a message: Has Error', async () => {
    useSession.getState().setToken('tok');
    getUserInfo.mockResolvedValue(null);
    expect(await load('/dashboard')).toEqual({ redirect: '/login' });
    expect(showError).toHaveBeenLastCalledWith('验证失败, 请重新登录', 5000);
    useSession.getState().setToken('tok');
    getUserInfo.mockRejectedValue(undefined);
    expect(await load('/dashboard')).toEqual({ redirect: '/login' });
    expect(showError).toHaveBeenLastCalledWith('Has Error', 5000);
  });

  it('without a token the user info is never asked for', async () => {
    expect(await load('/dashboard')).toEqual({ redirect: '/login?redirect=%2Fdashboard' });
    expect(getUserInfo).not.toHaveBeenCalled();
  });
});

describe('root loader: the public configuration (issue 30)', () => {
  it('the sign-in page does not wait for /api/public/config; any other page does, and sees it', async () => {
    let answer: (r: Response) => void = () => undefined;
    const fetchImpl = (() => new Promise<Response>((resolve) => (answer = resolve))) as typeof fetch;
    void startPublicConfig(fetchImpl);
    const order: string[] = [];
    const other = load('/dashboard').then((r) => {
      order.push(`dashboard ${publicConfig().oaName}`);
      return r;
    });
    expect(await load('/login')).toEqual({ redirect: null });
    order.push('login');
    answer(new Response(JSON.stringify({ code: 20000, r: { oaName: '协同办公' } })));
    expect(await other).toEqual({ redirect: '/login?redirect=%2Fdashboard' });
    expect(order).toEqual(['login', 'dashboard 协同办公']);
  });
});
