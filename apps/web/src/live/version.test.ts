import { describe, expect, it, vi } from 'vitest';
import { checkVersionWith, VERSION_KEY } from './version';

function memoryStorage() {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), m };
}

describe('version check (SPEC section 9)', () => {
  it('reloads when /version.json differs, once per new version', async () => {
    const storage = memoryStorage();
    const reload = vi.fn();
    const deps = { current: 'v1', fetchVersion: () => Promise.resolve('v2'), reload, storage };
    expect(await checkVersionWith(deps)).toBe(true);
    expect(storage.m.get(VERSION_KEY)).toBe('v2');
    // The reloaded page still sees v2 from a stale cache: no loop.
    expect(await checkVersionWith(deps)).toBe(false);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('does nothing when the versions match', async () => {
    const reload = vi.fn();
    expect(await checkVersionWith({ current: 'v1', fetchVersion: () => Promise.resolve('v1'), reload, storage: memoryStorage() })).toBe(false);
    expect(reload).not.toHaveBeenCalled();
  });

  it('ignores failures', async () => {
    const reload = vi.fn();
    const deps = { current: 'v1', fetchVersion: () => Promise.reject(new Error('offline')), reload, storage: memoryStorage() };
    await expect(checkVersionWith(deps)).resolves.toBe(false);
    expect(reload).not.toHaveBeenCalled();
  });
});
