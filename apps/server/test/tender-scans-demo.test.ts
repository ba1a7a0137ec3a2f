/**
 * Issue 17, the demo scans (seed/tender-scans.ts) at the test volume (TEST_DEMO with tenderScans on):
 * most contracts complete, some still 缺N页, the 验收证书 only with a 竣工验收 day; most certificates and
 * titles with a scan; a stored page opens through the signed link as a valid one-page PDF naming its
 * contract (text read back by pdf.js), an image scan decodes as JPEG or PNG.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { PDFDocument } from 'pdf-lib';
import { AttachmentType, REQUIRED_PAGES } from '@zhyy/shared';
import { openAttachment } from '../src/modules/tender/attachment/attachments.js';
import { missingPagesSql } from '../src/modules/tender/contracts/pages.js';
import '../src/modules/tender/people/tables.js';
import { startTestServer, TEST_DEMO, type TestServer } from './helpers.js';

let s: TestServer;
const k = () => s.db.kysely;

beforeAll(async () => {
  s = await startTestServer({ demoOptions: { ...TEST_DEMO, tenderScans: true } });
}, 300_000);
afterAll(() => s?.close());

async function bytesOf(id: string): Promise<Buffer> {
  const { stream } = await openAttachment(s.app, id);
  const parts: Buffer[] = [];
  for await (const ch of stream) parts.push(Buffer.from(ch));
  return Buffer.concat(parts);
}

async function pdfText(bytes: Buffer): Promise<string> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0 }).promise;
  const content = await (await doc.getPage(1)).getTextContent();
  return content.items.map((it) => ('str' in it ? it.str : '')).join('|');
}

describe('the demo scans', () => {
  it('most contracts are complete, some lack pages; the acceptance certificate only with an acceptance day', async () => {
    const rows = await k().selectFrom('contracts as c').select(['c.id', 'c.contract_type', 'c.accepted_on', missingPagesSql('c').as('missing')]).where('c.is_temp', '=', 0).execute();
    expect(rows.length).toBeGreaterThan(30);
    const complete = rows.filter((r) => Number(r.missing) === 0).length / rows.length;
    expect(complete).toBeGreaterThan(0.4);
    expect(complete).toBeLessThan(0.95);
    expect(rows.filter((r) => Number(r.missing) > 0 && r.accepted_on).length).toBeGreaterThan(1);
    for (const r of rows) expect(Number(r.missing)).toBeLessThanOrEqual(REQUIRED_PAGES[r.contract_type]!.length);
    const acceptance = await k().selectFrom('tender_attachments').select('owner_id').where('owner_kind', '=', 'contract').where('kind', '=', AttachmentType.acceptanceCertificate).execute();
    const accepted = new Set(rows.filter((r) => r.accepted_on).map((r) => r.id));
    expect(acceptance.length).toBeGreaterThan(0);
    for (const a of acceptance) expect(accepted.has(a.owner_id)).toBe(true);
  });

  it('a contract page opens through its signed link: a one-page PDF with its heading and the contract number', async () => {
    const page = await k()
      .selectFrom('tender_attachments as a')
      .innerJoin('contracts as c', 'c.id', 'a.owner_id')
      .select(['a.id', 'a.kind', 'a.file_name', 'c.code', 'c.name'])
      .where('a.owner_kind', '=', 'contract')
      .where('a.kind', '=', AttachmentType.acceptanceCertificate)
      .orderBy('a.id')
      .executeTakeFirstOrThrow();
    const token = await s.login('demo1');
    const link = await s.call('/api/tender/attachment/file-link', { id: page.id }, token);
    expect(link.status).toBe(200);
    expect(link.r).toMatchObject({ name: page.file_name, type: 'application/pdf' });
    const got = await s.app.inject({ method: 'GET', url: link.r.url });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('application/pdf');
    const doc = await PDFDocument.load(got.rawPayload);
    expect(doc.getPageCount()).toBe(1);
    const text = await pdfText(got.rawPayload);
    expect(text).toContain('验收证书');
    expect(text).toContain(`合同编号：${page.code}`);
    expect(text).toContain(`合同名称：${page.name}`);
  });

  it('most certificates and titles have a scan; PDFs name the holder, images decode', async () => {
    const certs = await k().selectFrom('tender_certificates').select('id').execute();
    const titles = await k().selectFrom('tender_titles').select('id').execute();
    const scans = await k().selectFrom('tender_attachments').select(['id', 'owner_kind', 'owner_id', 'mime']).where('owner_kind', 'in', ['certificate', 'title']).execute();
    const withScan = (kind: string) => new Set(scans.filter((a) => a.owner_kind === kind).map((a) => a.owner_id)).size;
    expect(withScan('certificate') / certs.length).toBeGreaterThan(0.75);
    expect(withScan('title') / titles.length).toBeGreaterThan(0.75);
    expect(withScan('certificate')).toBeLessThan(certs.length + 1);

    const pdf = scans.find((a) => a.owner_kind === 'certificate' && a.mime === 'application/pdf')!;
    const holder = await k().selectFrom('tender_certificates as c').innerJoin('users as u', 'u.id', 'c.user_id').select(['u.name', 'c.cert_no']).where('c.id', '=', pdf.owner_id).executeTakeFirstOrThrow();
    const text = await pdfText(await bytesOf(pdf.id));
    expect(text).toContain(`姓名：${holder.name}`);
    expect(text).toContain(`证书编号：${holder.cert_no}`);

    const images = scans.filter((a) => a.mime !== 'application/pdf');
    expect(images.some((a) => a.owner_kind === 'title')).toBe(true);
    for (const mime of new Set(images.map((a) => a.mime))) {
      const b = await bytesOf(images.find((a) => a.mime === mime)!.id);
      const size = mime === 'image/png' ? PNG.sync.read(b) : jpeg.decode(b);
      expect([mime, size.width > 300, size.height > 200]).toEqual([mime, true, true]);
    }
  });
});
