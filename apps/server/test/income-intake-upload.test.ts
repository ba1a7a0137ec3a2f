/**
 * Issue 13, intake: "Upload and recognition … a user drops PDF, OFD, XML, JPG or PNG files (several at
 * once, with progress) … What was recognised is shown beside the file for correction before it is
 * saved; each field says where it came from." — /api/income/pool/upload-recognise (one file a call,
 * logged in the AI call log) and /upload-save (through arrive(…, uploaded); the same file again merges).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IncomeSource } from '@zhyy/shared';
import type { TestServer } from './helpers.js';
import { startIncomeServer } from './income-helpers.js';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/income');
const file = (name: string) => ({ fileName: name, content: fs.readFileSync(path.join(dir, name)).toString('base64') });

let s: TestServer;
let t13: string;
beforeAll(async () => {
  ({ s, t13 } = await startIncomeServer());
});
afterAll(() => s?.close());

const aiRows = async () => Number((await s.db.kysely.selectFrom('ai_call_logs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
const SD_NO = '25322000000104857316';

describe('recognise, correct, save', () => {
  let sdId = '';

  it('XML: every field with its source, the lines, the form filled in 分; saved as an uploaded invoice with its file', async () => {
    const before = await aiRows();
    const a = await s.call('/api/income/pool/upload-recognise', file('invoice-sd.xml'), t13);
    expect(a.code).toBe(20000);
    expect(await aiRows()).toBe(before + 1);
    expect(a.r).toMatchObject({ fileName: 'invoice-sd.xml', format: 'xml', inPool: null });
    expect(a.r.fields.find((f: { key: string }) => f.key === 'invoiceNo')).toEqual({ key: 'invoiceNo', label: '发票号码', value: SD_NO, source: 'xml', sourceLabel: 'XML' });
    expect(a.r.fields.every((f: { source: string }) => f.source === 'xml')).toBe(true);
    expect(a.r.draft).toMatchObject({ kind: '82', digitalNo: SD_NO, issueDate: '2025-03-18', amountExcl: 1_497_000, tax: 194_610, amountIncl: 1_691_610 });
    expect(a.r.draft.lines).toHaveLength(2);
    expect(a.r.draft.invoiceNo).toBeUndefined();

    const saved = await s.call('/api/income/pool/upload-save', { ...a.r.draft, files: [file('invoice-sd.xml')] }, t13);
    expect(saved.code).toBe(20000);
    expect(saved.r.outcome).toBe('created');
    // The sample is made out to the demo company: no 购方非本公司 warning.
    expect(saved.r.warnings).toEqual([]);
    sdId = saved.r.id;
    const d = await s.call('/api/income/pool/detail', { id: sdId }, t13);
    expect(d.r).toMatchObject({ source: IncomeSource.uploaded, digitalNo: SD_NO, amountIncl: 1_691_610 });
    expect(d.r.files.map((f: { name: string }) => f.name)).toEqual(['invoice-sd.xml']);
    expect(d.r.lines).toHaveLength(2);
    expect(d.r.abnormalFlags).toEqual([]);
  });

  it('a second save of the same file merges; recognising it again says which invoice holds it', async () => {
    const again = await s.call('/api/income/pool/upload-recognise', file('invoice-sd.xml'), t13);
    expect(again.r.inPool).toEqual({ id: sdId, number: SD_NO });
    const saved = await s.call('/api/income/pool/upload-save', { ...again.r.draft, files: [file('invoice-sd.xml')] }, t13);
    expect(saved.r).toMatchObject({ id: sdId, outcome: 'merged' });
    expect(saved.message).toBe('该发票已在票池中，本次上传已合并到原记录');
  });

  it('PDF of the same invoice: text and QR fields with their sources; saving merges and adds the file', async () => {
    const a = await s.call('/api/income/pool/upload-recognise', file('invoice-sd.pdf'), t13);
    expect(a.r.format).toBe('pdf');
    const sources = new Set(a.r.fields.map((f: { source: string }) => f.source));
    expect(sources.has('qr') || sources.has('pdf-text')).toBe(true);
    expect(a.r.draft).toMatchObject({ digitalNo: SD_NO, amountIncl: 1_691_610 });
    const form = { ...a.r.draft, kind: a.r.draft.kind ?? '82', sellerName: a.r.draft.sellerName ?? '补录销方', buyerName: a.r.draft.buyerName ?? '补录购方' };
    const saved = await s.call('/api/income/pool/upload-save', { ...form, files: [file('invoice-sd.pdf')] }, t13);
    expect(saved.r).toMatchObject({ id: sdId, outcome: 'merged' });
    expect(saved.message).toBe('该发票已在票池中，本次上传已合并到原记录（新增文件1个）');
  });

  it('PNG (the QR alone): the fields the QR carries, source 二维码; the user completes the form and it merges', async () => {
    const a = await s.call('/api/income/pool/upload-recognise', file('invoice-sd-qr.png'), t13);
    expect(a.r.format).toBe('png');
    expect(a.r.fields.find((f: { key: string }) => f.key === 'invoiceNo')).toMatchObject({ value: SD_NO, source: 'qr', sourceLabel: '二维码' });
    expect(a.r.draft.sellerName).toBeUndefined();
    const d = (await s.call('/api/income/pool/detail', { id: sdId }, t13)).r;
    const form = { ...a.r.draft, sellerName: d.sellerName, sellerTaxNo: d.sellerTaxNo, buyerName: d.buyerName, buyerTaxNo: d.buyerTaxNo, amountExcl: d.amountExcl, tax: d.tax, amountIncl: d.amountIncl };
    const saved = await s.call('/api/income/pool/upload-save', { ...form, files: [file('invoice-sd-qr.png')] }, t13);
    expect(saved.r).toMatchObject({ id: sdId, outcome: 'merged' });
    const files = (await s.call('/api/income/pool/detail', { id: sdId }, t13)).r.files.map((f: { name: string }) => f.name);
    expect(files.sort()).toEqual(['invoice-sd-qr.png', 'invoice-sd.pdf', 'invoice-sd.xml']);
  });

  it('another invoice (增值税电子普通发票 PDF): code, number and check code recognised, saved as new', async () => {
    const a = await s.call('/api/income/pool/upload-recognise', file('invoice-vat.pdf'), t13);
    expect(a.r.draft).toMatchObject({ kind: '10', invoiceCode: '032002300111', invoiceNo: '05836271', checkCode: '61853290447316285590', amountExcl: 200_000, issueDate: '2024-11-05' });
    const saved = await s.call('/api/income/pool/upload-save', { ...a.r.draft, files: [file('invoice-vat.pdf')] }, t13);
    expect(saved.r.outcome).toBe('created');
    expect(saved.r.id).not.toBe(sdId);
  });

  it('an OFD whose names and 价税合计 are only in its CustomTag.xml (issue 29 item 5): source OFD标签, the form filled', async () => {
    const a = await s.call('/api/income/pool/upload-recognise', file('invoice-sd-tagged.ofd'), t13);
    expect(a.code).toBe(20000);
    expect(a.r.format).toBe('ofd');
    const by = (key: string) => a.r.fields.find((f: { key: string }) => f.key === key);
    expect(by('sellerName')).toEqual({ key: 'sellerName', label: '销售方名称', value: '南京智联信息技术服务有限公司', source: 'ofd-tag', sourceLabel: 'OFD标签' });
    expect(by('total')).toMatchObject({ value: '5000.00', source: 'ofd-tag', sourceLabel: 'OFD标签' });
    expect(by('amount')).toMatchObject({ value: '4716.98', source: 'xml', sourceLabel: 'XML' });
    expect(a.r.draft).toMatchObject({ digitalNo: '25322000000104871945', issueDate: '2025-04-07', sellerName: '南京智联信息技术服务有限公司', buyerName: '华建工程技术服务有限公司', amountExcl: 471_698, tax: 28_302, amountIncl: 500_000 });
    expect(a.r.warnings).toEqual([]);
  });
});

describe('refusals', () => {
  it('a file whose content does not match its name, an empty body, a save without a file', async () => {
    const wrong = await s.call('/api/income/pool/upload-recognise', { fileName: 'scan.png', content: file('invoice-vat.pdf').content }, t13);
    expect([wrong.status, wrong.message]).toEqual([400, '文件内容与扩展名不符，只能上传PDF、OFD、XML、JPG或PNG文件']);
    const none = await s.call('/api/income/pool/upload-recognise', {}, t13);
    expect(none.status).toBe(400);
    expect(none.message).toMatch(/^参数错误：/);
    const noFile = await s.call('/api/income/pool/upload-save', { kind: '82', digitalNo: SD_NO, issueDate: '2025-03-18', sellerName: 'a', buyerName: 'b', amountExcl: 1, tax: 0, amountIncl: 1, files: [] }, t13);
    expect(noFile.message).toBe('参数错误：请上传发票文件');
  });

  it('roles 14 and 16 may upload from the 进项发票编辑 page; a role without 进项管理 gets 权限不足', async () => {
    for (const n of ['demo14', 'demo16']) expect((await s.call('/api/income/pool/upload-recognise', file('invoice-vat-qr.jpg'), await s.login(n))).code).toBe(20000);
    const a = await s.call('/api/income/pool/upload-recognise', file('invoice-vat-qr.jpg'), await s.login('demo5'));
    expect([a.status, a.message]).toEqual([403, '权限不足']);
  });
});
