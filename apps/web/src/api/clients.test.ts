import { afterEach, describe, expect, it, vi } from 'vitest';
import { hooks } from './clients';
import { useSession } from '../stores/session';

describe('50008 handling (SPEC section 8)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('resets the token and reloads once, however many calls answer 50008', () => {
    const reload = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, reload } as Location);
    useSession.getState().setToken('stale-token');
    hooks.onTokenInvalid();
    hooks.onTokenInvalid();
    hooks.onTokenInvalid();
    expect(useSession.getState().token).toBe('');
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
