import { describe, expect, it } from 'vitest';
import { decodeViewData, encodeViewData, fileKind, isSafeUrl } from './fileView';

describe('file viewer link (SPEC section 2)', () => {
  it('decodes a base64 JSON with a Chinese name', () => {
    const data = encodeViewData({ name: '发票扫描页.pdf', url: '/api/files/abc', type: 'pdf' });
    expect(decodeViewData(data)).toEqual({ name: '发票扫描页.pdf', url: '/api/files/abc', kind: 'pdf' });
  });

  it('accepts URL-safe base64 without padding', () => {
    const std = encodeViewData({ name: '图?.png', url: 'https://files.example.com/a.png', type: 'image/png' });
    const urlSafe = std.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    expect(decodeViewData(urlSafe)?.kind).toBe('image');
  });

  it('classifies images, PDFs and everything else', () => {
    expect(fileKind('image/jpeg', 'a', '/x')).toBe('image');
    expect(fileKind('', 'scan.JPG', '/x')).toBe('image');
    expect(fileKind('application/pdf', 'a', '/x')).toBe('pdf');
    expect(fileKind('1010', '合同.pdf', '/x')).toBe('pdf');
    expect(fileKind('application/vnd.ms-excel', '台账.pdf', '/x')).toBe('other');
    expect(fileKind('', '台账.xlsx', '/x')).toBe('other');
  });

  it('a malformed link gives null', () => {
    expect(decodeViewData('not base64 at all!!')).toBeNull();
    expect(decodeViewData(btoa('not json'))).toBeNull();
    expect(decodeViewData(btoa('{"name":"a"}'))).toBeNull();
    expect(decodeViewData(undefined)).toBeNull();
  });

  it('refuses script and protocol-relative URLs', () => {
    expect(decodeViewData(encodeViewData({ name: 'x', url: 'javascript:alert(1)' }))).toBeNull();
    expect(isSafeUrl('//evil.example/a.png')).toBe(false);
    expect(isSafeUrl('data:text/html,hi')).toBe(false);
    expect(isSafeUrl('/files/a.png')).toBe(true);
    expect(isSafeUrl('https://a.example/b.pdf')).toBe(true);
  });
});
