import '../../test/dom';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import FileView from './FileView';
import { encodeViewData, isPlatformFileUrl } from './fileView';

function open(file: { name: string; url: string; type?: string }) {
  const router = createMemoryRouter([{ path: '/file/view/:viewData', element: <FileView /> }], { initialEntries: [`/file/view/${encodeViewData(file)}`] });
  return render(<RouterProvider router={router} />);
}

const SIGNED = '/signed/invoice-file/0b7c2a8e-1111-4222-8333-444455556666?e=1&s=abc';

describe('the public file viewer shows only the platform’s own files', { timeout: 30_000 }, () => {
  it('puts a signed file link of this site on its 下载 button', () => {
    open({ name: '发票.pdf', url: SIGNED, type: 'application/pdf' });
    const download = screen.getByRole('link', { name: /下载/ });
    expect(download.getAttribute('href')).toBe(SIGNED);
    expect(screen.queryByTestId('file-view-outside')).toBeNull();
  });

  it('refuses an outside address with a Chinese message and no 下载 button', () => {
    open({ name: '发票.pdf', url: 'https://evil.example.com/malware.exe', type: 'application/pdf' });
    expect(screen.getByTestId('file-view-outside').textContent).toContain('本平台以外的地址');
    expect(screen.queryByRole('link', { name: /下载/ })).toBeNull();
    expect(document.querySelector('a[href*="evil.example.com"], iframe, img')).toBeNull();
  });

  it('accepts the same origin spelled out, refuses other paths, origins and tricks', () => {
    const origin = window.location.origin;
    expect(isPlatformFileUrl(`${origin}${SIGNED}`)).toBe(true);
    // The incoming-invoice pool's files too (issue 13).
    expect(isPlatformFileUrl('/signed/income-file/0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0a01?e=1&s=x')).toBe(true);
    for (const url of [
      '/api/account/userinfo',
      '/signed/invoice-file/',
      '/signed/income-file/',
      '/signed/income-files/x',
      '/signed/invoice-file/../../api/x',
      '/signed/invoice-file%2f..%2f..%2fx',
      '//evil.example.com/signed/invoice-file/x',
      '/\\evil.example.com/signed/invoice-file/x',
      `https://evil.example.com${SIGNED}`,
      `http://localhost:1${SIGNED}`,
      'javascript:alert(1)//signed/invoice-file/x',
    ]) {
      expect(isPlatformFileUrl(url), url).toBe(false);
    }
  });
});
