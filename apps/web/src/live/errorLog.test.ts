import { afterEach, describe, expect, it, vi } from 'vitest';
import { clientErrors, installErrorLog, logClientError, resetErrorLog, toEntry } from './errorLog';

describe('client error log (SPEC section 9)', () => {
  afterEach(() => {
    resetErrorLog();
    vi.useRealTimers();
  });

  it('keeps the last 25 entries', () => {
    for (let i = 0; i < 30; i++) logClientError(new Error(`e${i}`));
    expect(clientErrors()).toHaveLength(25);
    expect(clientErrors()[0]!.message).toBe('Error: e5');
    expect(clientErrors()[24]!.message).toBe('Error: e29');
  });

  it('entries carry message, url, stack and time', () => {
    const e = toEntry(new TypeError('boom'), 'http://x/a', new Date('2026-11-21T01:02:03Z'));
    expect(e).toMatchObject({ message: 'TypeError: boom', url: 'http://x/a', time: '2026-11-21T01:02:03.000Z' });
    expect(e.stack).toContain('boom');
  });

  it('reports batches (at most 25) when a reporter is installed', async () => {
    vi.useFakeTimers();
    const report = vi.fn(() => Promise.resolve());
    const uninstall = installErrorLog(report);
    for (let i = 0; i < 30; i++) logClientError(`e${i}`);
    await vi.advanceTimersByTimeAsync(2000);
    expect(report).toHaveBeenCalledTimes(1);
    const sent = (report.mock.calls[0] as unknown as [unknown[]])[0];
    expect(sent).toHaveLength(25);
    uninstall();
  });

  it('without a reporter (development) nothing is sent', async () => {
    vi.useFakeTimers();
    const uninstall = installErrorLog(null);
    logClientError('x');
    await vi.advanceTimersByTimeAsync(5000);
    expect(clientErrors()).toHaveLength(1);
    uninstall();
  });
});
