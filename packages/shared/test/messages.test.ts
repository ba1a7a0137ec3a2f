import { describe, expect, it } from 'vitest';
import { isAppPath } from '../src/index.js';

describe('isAppPath (the links a 站内消息 may carry)', () => {
  it('admits relative app paths only', () => {
    for (const ok of ['/income/invoicePool/detail/0190-abc', '/', '/income/abnormal?flag=voided']) expect(isAppPath(ok), ok).toBe(true);
    for (const bad of ['', 'income/x', '//evil.example/x', '/\\evil.example', 'https://evil.example/', 'javascript:alert(1)', '/javascript:alert(1)', '/a b']) expect(isAppPath(bad), bad).toBe(false);
  });
});
