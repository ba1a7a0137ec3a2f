import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT_ONLY_HEADERS } from '../src/platform/security-headers.js';
import { startTestServer, type TestServer } from './helpers.js';

/** A stand-in build of the web client: index.html, version.json and one asset. */
const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'zhyy-web-'));
fs.mkdirSync(path.join(dist, 'assets'));
fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>综合运营支撑平台</title><div id="root"></div>');
fs.writeFileSync(path.join(dist, 'version.json'), JSON.stringify({ version: 'build-42' }));
fs.writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
// The build's compressed copies (apps/web/vite-compress.ts) of index.html and the asset.
for (const file of ['index.html', 'assets/app-abc123.js']) {
  const raw = fs.readFileSync(path.join(dist, file));
  fs.writeFileSync(path.join(dist, `${file}.br`), zlib.brotliCompressSync(raw));
  fs.writeFileSync(path.join(dist, `${file}.gz`), zlib.gzipSync(raw));
}

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ demo: false, env: { WEB_DIST: dist } });
});
afterAll(() => s.close());

const get = (url: string, headers: Record<string, string> = {}) => s.app.inject({ method: 'GET', url, headers });

describe('the built web client', () => {
  it('serves index.html at / and, in history mode, at any page path', async () => {
    for (const url of ['/', '/dashboard', '/invoice/invoiceaccount/invoice-detail/abc', '/login?redirect=%2Fdashboard']) {
      const res = await get(url);
      expect([url, res.statusCode]).toEqual([url, 200]);
      expect(res.body).toContain('<div id="root">');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('serves hashed assets as immutable', async () => {
    const res = await get('/assets/app-abc123.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('immutable');
  });

  it('sends a hashed asset only the headers that guard a file, the page the headers of a document (issue 11: 700 bytes a file)', async () => {
    for (const enc of ['br', 'gzip', 'identity']) {
      const asset = await get('/assets/app-abc123.js', { 'accept-encoding': enc });
      expect(asset.statusCode).toBe(200);
      for (const name of DOCUMENT_ONLY_HEADERS) expect([enc, name, asset.headers[name.toLowerCase()]]).toEqual([enc, name, undefined]);
      expect(asset.headers['x-content-type-options']).toBe('nosniff');
      expect(asset.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(asset.headers.etag).toBeUndefined();
      expect(asset.headers['last-modified']).toBeUndefined();
      expect(asset.headers['x-request-id']).toBeUndefined();
    }
    for (const url of ['/', '/dashboard', '/version.json', '/api/heartBeat']) {
      const res = await get(url, { 'accept-encoding': 'br' });
      for (const name of DOCUMENT_ONLY_HEADERS) expect([url, name, typeof res.headers[name.toLowerCase()]]).toEqual([url, name, 'string']);
    }
    const page = await get('/', { 'accept-encoding': 'br' });
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers.etag).toBeDefined();
    expect(page.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect((await get('/assets/missing-123.js')).headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sends the compressed copy the browser accepts, for assets and for the history-mode page', async () => {
    for (const url of ['/assets/app-abc123.js', '/', '/dashboard', '/login?redirect=%2Fdashboard']) {
      const br = await get(url, { 'accept-encoding': 'gzip, deflate, br, zstd' });
      expect([url, br.statusCode, br.headers['content-encoding']]).toEqual([url, 200, 'br']);
      expect(br.headers.vary).toContain('accept-encoding');
      expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toMatch(/console\.log|<div id="root">/);
      const gz = await get(url, { 'accept-encoding': 'gzip' });
      expect([url, gz.headers['content-encoding']]).toEqual([url, 'gzip']);
      expect(zlib.gunzipSync(gz.rawPayload).toString()).toMatch(/console\.log|<div id="root">/);
      const plain = await get(url, { 'accept-encoding': 'identity' });
      expect([url, plain.headers['content-encoding']]).toEqual([url, undefined]);
    }
    const page = await get('/dashboard', { 'accept-encoding': 'br' });
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['cache-control']).toBe('no-cache');
  });

  it('answers the build id of the client at /version.json', async () => {
    expect((await get('/version.json')).json()).toEqual({ version: 'build-42' });
  });

  it('a missing asset or API path is a 404, not the page', async () => {
    expect((await get('/assets/missing.js')).statusCode).toBe(404);
    const api = await s.call('/api/nothing', {});
    expect([api.status, api.code]).toEqual([404, 30000]);
  });
});

describe('a new build dropped in while the server runs', () => {
  it('is announced by /version.json without a restart', async () => {
    fs.writeFileSync(path.join(dist, 'version.json'), JSON.stringify({ version: 'build-43' }));
    expect((await get('/version.json')).json()).toEqual({ version: 'build-43' });
  });
});
