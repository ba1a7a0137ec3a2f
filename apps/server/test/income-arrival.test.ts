/**
 * Issue 13, the pool's identity and arrivals: "The pool holds every incoming invoice once. Its key is
 * the 20-digit 数电 number when there is one, else 发票代码 + 发票号码. A second arrival of the same
 * invoice (collected again, uploaded again, the same file under another name) is never a second row:
 * it merges into the first and says so." and "Checks on every arrival, with a clear Chinese message each".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IncomeSource } from '@zhyy/shared';
import { arrive } from '../src/modules/income/intake/arrival.js';
import { startTestServer, type TestServer } from './helpers.js';
import { b64, creditCode, entry, nextDigital, OUR, pdf, shanghaiDay, SUPPLIER } from './income-helpers.js';

let s: TestServer;
let t13: string;
const SAVE = '/api/income/pool/save';

beforeAll(async () => {
  s = await startTestServer();
  t13 = await s.login('demo13');
});
afterAll(() => s?.close());

const rowsOf = (ident: string) => s.db.kysely.selectFrom('income_invoices').selectAll().where('ident', '=', ident).execute();

describe('identity and merging', () => {
  it('keys a 数电 invoice by its 20-digit number and merges a second arrival into the first, saying so', async () => {
    const body = entry();
    const a = await s.call(SAVE, body, t13);
    expect(a.code).toBe(20000);
    expect(a.r.outcome).toBe('created');
    expect(a.message).toBe('已加入票池');
    const again = await s.call(SAVE, body, t13);
    expect(again.code).toBe(20000);
    expect(again.r).toMatchObject({ id: a.r.id, outcome: 'merged' });
    expect(again.message).toBe('该发票已在票池中，本次手工录入已合并到原记录');
    const rows = await rowsOf(`D:${body.digitalNo}`);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.arrivals).toBe(2);
    const d = await s.call('/api/income/pool/detail', { id: a.r.id }, t13);
    expect(d.r.history.map((h: { kind: string }) => h.kind)).toEqual(['merge', 'arrive']);
    expect(d.r.lines).toHaveLength(1);
  });

  it('keys a paper invoice by 发票代码 + 发票号码; the same number under another code is another invoice', async () => {
    const paper = entry({ kind: '01', digitalNo: '', invoiceCode: '032001900111', invoiceNo: '00012345', amountExcl: 20000, tax: 1800, amountIncl: 21800, lines: [] });
    const a = await s.call(SAVE, paper, t13);
    expect(a.r.outcome).toBe('created');
    expect((await s.call(SAVE, paper, t13)).r.outcome).toBe('merged');
    const other = await s.call(SAVE, { ...paper, invoiceCode: '032001900112', amountIncl: 21801, tax: 1801 }, t13);
    expect(other.r.outcome).toBe('created');
    expect(await rowsOf('C:032001900111:00012345')).toHaveLength(1);
  });

  it('collected, then uploaded, then the same file under another name: one row, each arrival merged, the file kept once', async () => {
    const body = entry();
    const collected = await s.db.kysely.transaction().execute((trx) => arrive({ ...body, invoiceCode: '', invoiceNo: '', checkCode: '' }, IncomeSource.collected, trx));
    expect(collected.outcome).toBe('created');
    const file = pdf(body.digitalNo);
    const up = await s.call(SAVE, { ...body, files: [{ fileName: '发票.pdf', content: b64(file) }] }, t13);
    expect(up.r).toMatchObject({ id: collected.id, outcome: 'merged' });
    expect(up.message).toBe('该发票已在票池中，本次手工录入已合并到原记录（新增文件1个）');
    const renamed = await s.call(SAVE, { ...body, files: [{ fileName: '发票-副本.pdf', content: b64(file) }] }, t13);
    expect(renamed.r).toMatchObject({ id: collected.id, outcome: 'merged' });
    expect(renamed.message).toBe('该发票已在票池中，本次手工录入已合并到原记录');
    const d = await s.call('/api/income/pool/detail', { id: collected.id }, t13);
    expect(d.r.files.map((f: { name: string }) => f.name)).toEqual(['发票.pdf']);
    expect(d.r.arrivals).toBe(3);
    expect(d.r.source).toBe(IncomeSource.collected);
  });

  it('two arrivals of one invoice at once make one row', async () => {
    const body = entry();
    const [a, b] = await Promise.all([s.call(SAVE, body, t13), s.call(SAVE, body, t13)]);
    expect([a.code, b.code]).toEqual([20000, 20000]);
    expect([a.r.outcome, b.r.outcome].sort()).toEqual(['created', 'merged']);
    expect(a.r.id).toBe(b.r.id);
    expect(await rowsOf(`D:${body.digitalNo}`)).toHaveLength(1);
  });
});

describe('the checks of every arrival', () => {
  const refused = async (over: Record<string, unknown>, message: string) => {
    const a = await s.call(SAVE, entry(over), t13);
    expect(a.status).toBe(400);
    expect(a.code).toBe(30000);
    expect(a.message).toBe(message);
  };

  it('refuses what cannot be an invoice key', async () => {
    await refused({ digitalNo: '123' }, '数电发票号码须为20位数字');
    await refused({ digitalNo: '' }, '数电发票须填写20位数电发票号码');
    await refused({ kind: '01', digitalNo: '', invoiceCode: '', invoiceNo: '' }, '请填写数电发票号码，或发票代码和发票号码');
    await refused({ kind: '01', digitalNo: '', invoiceCode: '12345', invoiceNo: '00000001' }, '发票代码须为10位或12位数字');
    await refused({ kind: '04', digitalNo: '', invoiceCode: '032001900111', invoiceNo: '123' }, '发票号码须为8位数字');
  });

  it('checks the tax numbers by the GB 32100 rule', async () => {
    const bad = `${SUPPLIER.taxNo.slice(0, 17)}${SUPPLIER.taxNo[17] === '0' ? '1' : '0'}`;
    await refused({ sellerTaxNo: bad }, '销方税号校验位不正确，请核对统一社会信用代码');
    await refused({ buyerTaxNo: `${OUR.taxNo.slice(0, 17)}${OUR.taxNo[17] === '0' ? '1' : '0'}` }, '购方税号校验位不正确，请核对统一社会信用代码');
    await refused({ sellerTaxNo: '12-34' }, '销方税号须为15至20位字母或数字');
  });

  it('checks that the amounts add up', async () => {
    await refused({ amountIncl: 10901 }, '金额与税额之和不等于价税合计');
    await refused({ lines: [{ name: '*建筑服务*劳务', amount: 9000, taxRate: '0.09', tax: 900 }] }, '明细金额合计与发票金额不一致');
    await refused({ lines: [{ name: '*建筑服务*劳务', amount: 10000, taxRate: '0.09', tax: 800 }] }, '明细税额合计与发票税额不一致');
  });

  it('refuses a date in the future and accepts today', async () => {
    await refused({ issueDate: shanghaiDay(1) }, '开票日期不能晚于今天');
    expect((await s.call(SAVE, entry({ issueDate: shanghaiDay(0) }), t13)).code).toBe(20000);
  });

  it('keeps an invoice whose buyer is not the company, says so and flags it 购方非本公司', async () => {
    const other = creditCode('91320100MA1OTHERX'.replace('O', '0'));
    const a = await s.call(SAVE, entry({ buyerName: '别家公司', buyerTaxNo: other, amountExcl: 77700, tax: 6993, amountIncl: 84693, lines: [] }), t13);
    expect(a.code).toBe(20000);
    expect(a.r.warnings).toEqual([`购方名称「别家公司」不是本公司（${OUR.name}）`, `购方税号「${other}」不是本公司税号（${OUR.taxNo}）`]);
    const d = await s.call('/api/income/pool/detail', { id: a.r.id }, t13);
    expect(d.r.abnormalFlags).toEqual(['buyerNotOurs']);
  });

  it('flags a second invoice of the same seller, day and total as 疑似重复', async () => {
    const first = await s.call(SAVE, entry({ amountExcl: 50000, tax: 4500, amountIncl: 54500, lines: [] }), t13);
    const second = entry({ amountExcl: 50000, tax: 4500, amountIncl: 54500, lines: [] });
    const a = await s.call(SAVE, second, t13);
    expect(a.r.outcome).toBe('created');
    const firstNo = (await s.call('/api/income/pool/detail', { id: first.r.id }, t13)).r.digitalNo;
    expect(a.r.warnings).toEqual([`与票池中发票 ${firstNo} 的销方、开票日期和价税合计相同，疑似重复`]);
    expect((await s.call('/api/income/pool/detail', { id: a.r.id }, t13)).r.abnormalFlags).toEqual(['duplicate']);
  });

  it('refuses the same file as another invoice (duplicate by file hash)', async () => {
    const file = pdf(`hash-${nextDigital()}`);
    const first = entry({ files: [{ fileName: 'a.pdf', content: b64(file) }] });
    expect((await s.call(SAVE, first, t13)).code).toBe(20000);
    await refused({ files: [{ fileName: 'b.pdf', content: b64(file) }] }, `文件「a.pdf」已是票池中发票 ${first.digitalNo} 的文件，与本次的发票号码不同，请核对`);
  });

  it('refuses a file that is not what its name says', async () => {
    await refused({ files: [{ fileName: 'a.pdf', content: b64(Buffer.from('MZ not a pdf')) }] }, '文件内容与扩展名不符，只能上传PDF、OFD、XML、JPG或PNG文件');
  });

  it('validates the body with Chinese messages', async () => {
    const a = await s.call(SAVE, entry({ kind: '99' }), t13);
    expect(a.status).toBe(400);
    expect(a.message).toBe('参数错误：发票种类不正确');
    const b = await s.call(SAVE, entry({ sellerName: '' }), t13);
    expect(b.message).toBe('参数错误：请填写销方名称');
    const c = await s.call(SAVE, entry({ issueDate: '2026-02-30' }), t13);
    expect(c.message).toBe('参数错误：开票日期不是有效的日期');
  });
});
