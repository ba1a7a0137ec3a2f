/** Uploaded files: markup parsed as XML (no pages, no scripts) and every file served with nosniff, a sandbox and as an attachment unless PDF or image. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SourceKind } from '@zhyy/shared';
import { checkUpload, contentDisposition } from '../src/platform/userFiles.js';
import { seedLarge } from '../src/seed/large.js';
import type { TestServer } from './helpers.js';
import { startInvoiceServer } from './invoice-helpers.js';

let s: TestServer;
let t5: string;
let history: { id: string };
const b64 = (x: string | Buffer) => Buffer.from(x).toString('base64');
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR-user-files')]);

const XHTML = '<html xmlns="http://www.w3.org/1999/xhtml"><body><script>alert(document.domain)</script></body></html>';
const BAD_XML: Array<[string, string]> = [
  [XHTML, '不能上传网页文件（HTML/XHTML）'],
  ['<HTML><body>hi</body></HTML>', '不能上传网页文件（HTML/XHTML）'],
  ['<Invoice><x:div xmlns:x="http://www.w3.org/1999/xhtml">x</x:div></Invoice>', '不能上传网页文件（HTML/XHTML）'],
  ['<?xml version="1.0"?><?xml-stylesheet type="text/xsl" href="evil.xsl"?><Invoice/>', '文件包含脚本或样式表指令，不能上传'],
  ['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', '文件包含脚本或样式表指令，不能上传'],
  ['<Invoice onload="alert(1)"/>', '文件包含脚本或样式表指令，不能上传'],
  ['<Invoice><a href=" java\tscript:alert(1)">x</a></Invoice>', '文件包含脚本或样式表指令，不能上传'],
  ['<!DOCTYPE x [<!ENTITY e "boom">]><Invoice>&e;</Invoice>', '文件包含脚本或样式表指令，不能上传'],
  ['<Invoice><unclosed></Invoice>', '文件不是有效的XML，请检查后重新上传'],
  ['<p>not xml <br></p>', '文件不是有效的XML，请检查后重新上传'],
];

beforeAll(async () => {
  s = await startInvoiceServer();
  await seedLarge(s.db, { invoices: 20, batch: 20 });
  t5 = await s.login('demo5');
  history = await s.db.kysely.selectFrom('invoices').select('id').where('source', '=', SourceKind.history).executeTakeFirstOrThrow();
});
afterAll(() => s?.close());

describe('the upload check', () => {
  it('parses markup as XML and refuses pages and scripts', () => {
    for (const [xml, message] of BAD_XML) expect(() => checkUpload(Buffer.from(xml), 'a.xml'), xml).toThrow(message);
    expect(checkUpload(Buffer.from('\uFEFF<?xml version="1.0" encoding="UTF-8"?>\n<EInvoice xmlns="urn:einvoice"><Header code="1"/></EInvoice>'), '发票.xml')).toBe('xml');
    expect(() => checkUpload(Buffer.from('hello'), '说明.html')).toThrow('不能上传网页文件（HTML/XHTML）');
    expect(checkUpload(Buffer.from('any office document'), '报告.docx')).toBeNull();
  });

  it('an invoice file upload refuses an XHTML page named .xml, and takes a real XML invoice', async () => {
    const send = (fileName: string, content: string) => s.call('/api/invoice/upload-invoiceimg', { id: history.id, type: 1000, fileName, content: b64(content) }, t5);
    const a = await send('发票.xml', XHTML);
    expect([a.code, a.message]).toEqual([30000, '不能上传网页文件（HTML/XHTML）']);
    expect((await send('发票.xml', '<?xml-stylesheet href="x.xsl"?><EInvoice/>')).message).toBe('文件包含脚本或样式表指令，不能上传');
    expect((await send('发票.xml', '<?xml version="1.0"?><EInvoice><No>12345678</No></EInvoice>')).code).toBe(20000);
  });

  it('a workflow attachment refuses pages and scripts whatever its name', async () => {
    const t7 = await s.login('demo7');
    const up = (name: string, content: string) => s.call('/api/miswf/workflow/attachment/upload', { name, type: 'text/plain', content: b64(content) }, t7);
    expect((await up('说明.txt', XHTML)).message).toBe('不能上传网页文件（HTML/XHTML）');
    expect((await up('页面.htm', 'hello')).message).toBe('不能上传网页文件（HTML/XHTML）');
    // Checked under the name it would be stored as: a trailing slash does not hide the extension.
    expect((await up('页面.html/', 'hello')).message).toBe('不能上传网页文件（HTML/XHTML）');
    expect((await up('说明.txt', '纯文本说明')).code).toBe(20000);
  });
});

describe('serving user files', () => {
  const linkTo = async (fileName: string, content: Buffer, type = 1010) => {
    const up = await s.call('/api/invoice/upload-invoiceimg', { id: history.id, type, fileName, content: content.toString('base64') }, t5);
    expect(up.code, up.message).toBe(20000);
    const link = await s.call('/api/invoice/file-link', { fileId: up.r.fileId }, t5);
    return s.app.inject({ method: 'GET', url: link.r.url });
  };

  it('an image is shown inline, sandboxed and never sniffed', async () => {
    const res = await linkTo('扫描 件.png', PNG);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toMatch(/^sandbox; default-src 'none'/);
    expect(res.headers['content-disposition']).toBe(`inline; filename="__ _.png"; filename*=UTF-8''%E6%89%AB%E6%8F%8F%20%E4%BB%B6.png`);
  });

  it('an XML file is an attachment', async () => {
    const res = await linkTo('原件.xml', Buffer.from('<EInvoice><No>87654321</No></EInvoice>'), 1000);
    expect(res.headers['content-disposition']).toMatch(/^attachment; /);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain('sandbox');
  });

  it('a workflow attachment whose declared type is HTML goes out as an attachment of no runnable type', async () => {
    const t7 = await s.login('demo7');
    const up = await s.call('/api/miswf/workflow/attachment/upload', { name: 'a.txt', type: 'text/html', content: b64('plain words') }, t7);
    const res = await s.app.inject({ method: 'POST', url: '/api/miswf/workflow/attachment/download', headers: { 'x-token': t7, 'content-type': 'application/json' }, payload: { id: up.r.id } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers['content-disposition']).toMatch(/^attachment; /);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain('sandbox');
  });

  it('the file name is RFC 5987 encoded with a safe ASCII fallback', () => {
    expect(contentDisposition('attachment', '合同"(1).pdf')).toBe(`attachment; filename="__\_(1).pdf"; filename*=UTF-8''%E5%90%88%E5%90%8C%22%281%29.pdf`);
  });
});
