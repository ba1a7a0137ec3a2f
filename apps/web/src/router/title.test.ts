import { describe, expect, it } from 'vitest';
import { documentTitle } from './title';

describe('document title (SPEC section 2)', () => {
  it('is the route title plus the product title', () => {
    expect(documentTitle('/dashboard')).toBe('工作台 - 综合运营支撑平台');
    expect(documentTitle('/invoice/invoiceaccount/invoice-detail/42')).toBe('发票详情 - 综合运营支撑平台');
    expect(documentTitle('/login')).toBe('登录 - 综合运营支撑平台');
  });

  it('falls back to the product title', () => {
    expect(documentTitle('/nowhere')).toBe('综合运营支撑平台');
  });
});
