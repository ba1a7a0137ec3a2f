/**
 * Issue 29 (red invoices received): a red 数电 invoice uploaded as its PDF or OFD — not only its XML — is saved with
 * the blue number read from its 备注 and linked to the blue invoice it reverses (fixtures invoice-sd-blue.xml,
 * invoice-sd-red.pdf, invoice-sd-red-tagged.ofd). Both databases.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from './helpers.js';
import { startIncomeServer } from './income-helpers.js';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/income');
const file = (name: string) => ({ fileName: name, content: fs.readFileSync(path.join(dir, name)).toString('base64') });
const BLUE_NO = '25322000000104862417';
const RED_PDF_NO = '25322000000104869971';
const RED_OFD_NO = '25322000000104869988';

let s: TestServer;
let t13: string;
beforeAll(async () => {
  ({ s, t13 } = await startIncomeServer());
});
afterAll(() => s?.close());

async function upload(name: string, kind?: string) {
  const a = await s.call('/api/income/pool/upload-recognise', file(name), t13);
  expect(a.code, a.message).toBe(20000);
  const draft = { ...a.r.draft, ...(kind && !a.r.draft.kind ? { kind } : {}) };
  const saved = await s.call('/api/income/pool/upload-save', { ...draft, files: [file(name)] }, t13);
  expect(saved.code, saved.message).toBe(20000);
  return { recognised: a.r, id: saved.r.id as string };
}
const detail = async (id: string) => (await s.call('/api/income/pool/detail', { id }, t13)).r;

describe('a red 数电 invoice uploaded as PDF or OFD', () => {
  let blueId = '';

  it('the blue invoice is in the pool (its XML)', async () => {
    blueId = (await upload('invoice-sd-blue.xml')).id;
    expect((await detail(blueId)).reds).toEqual([]);
  });

  it('the red PDF: the draft carries the blue number from the text, the saved invoice is linked both ways', async () => {
    const { recognised, id } = await upload('invoice-sd-red.pdf');
    expect(recognised.draft).toMatchObject({ kind: '81', digitalNo: RED_PDF_NO, amountExcl: -50_000, tax: -4_500, amountIncl: -54_500, blueInvoiceNo: BLUE_NO });
    expect(recognised.fields.find((f: { key: string }) => f.key === 'blueInvoiceNo')).toMatchObject({ value: BLUE_NO, source: 'pdf-text' });
    const red = await detail(id);
    expect(red).toMatchObject({ blueInvoiceNo: BLUE_NO, amountIncl: -54_500 });
    expect(red.blue).toEqual({ id: blueId, number: BLUE_NO, issueDate: '2025-05-12', amountIncl: 1_090_000 });
    expect((await detail(blueId)).reds).toEqual([{ id, number: RED_PDF_NO, issueDate: '2025-06-21', amountIncl: -54_500 }]);
  });

  it('the red OFD: the blue number from its Note tag, linked; the blue invoice now has both, 部分红冲', async () => {
    const { recognised, id } = await upload('invoice-sd-red-tagged.ofd', '81');
    expect(recognised.draft).toMatchObject({ digitalNo: RED_OFD_NO, amountExcl: -30_000, tax: -2_700, amountIncl: -32_700, blueInvoiceNo: BLUE_NO });
    expect(recognised.fields.find((f: { key: string }) => f.key === 'blueInvoiceNo')).toMatchObject({ value: BLUE_NO, source: 'ofd-tag' });
    expect((await detail(id)).blue).toMatchObject({ id: blueId, number: BLUE_NO });
    const blue = await detail(blueId);
    expect(blue.reds.map((r: { number: string }) => r.number).sort()).toEqual([RED_PDF_NO, RED_OFD_NO]);
    expect(blue.invoiceState).toBe(7);
  });
});
