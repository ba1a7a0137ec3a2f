/**
 * Issue 31 #11: the Excel exports of 抵扣勾选 / 退税勾选 (deduction/export, rebate-export), 进项发票登记 and
 * 签收归档 (entry/export for the waiting invoices, entry/signings-export for the signing records) and
 * 签收撤销 (entry/revoke/export). Each: its columns, as many rows as its list's total for the same filter,
 * an export log row, and a role without the list refused 权限不足.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type ExcelJS from 'exceljs';
import { D, startTicking, tickHelpers, type TickEnv } from './income-deduction-helpers.js';
import { candidateBatches } from '../src/modules/income/deduction/queries.js';
import { revokeBatches, signingBatches, waitingBatches } from '../src/modules/income/signing/exports.js';
import { entry, signDocs } from './income-helpers.js';

let env: TickEnv;
let t3: string;
let docs: Awaited<ReturnType<typeof signDocs>>;
const h = tickHelpers(() => env);
const E = '/api/income/entry';

beforeAll(async () => {
  env = await startTicking();
  t3 = await env.s.login('demo3');
  docs = await signDocs(env.s);
});
afterAll(() => env?.s.close());

const header = (ws: ExcelJS.Worksheet | undefined) => (ws!.getRow(1).values as unknown[]).slice(1);
/** The data rows of a sheet (the header row left out). */
const dataRows = (ws: ExcelJS.Worksheet | undefined) => ws!.rowCount - 1;
const logged = (category: string) => env.s.db.kysely.selectFrom('file_export_logs').select(['row_count', 'description']).where('category', '=', category).orderBy('created_at', 'desc').executeTakeFirst();

async function expectExport(url: string, body: Record<string, unknown>, listUrl: string, columns: string[], category: string, least = 1) {
  const { s, t13 } = env;
  const list = await s.call(listUrl, body, t13);
  expect(list.code, list.message).toBe(20000);
  expect(list.r.total).toBeGreaterThanOrEqual(least);
  const { res, ws } = await s.download(url, body, t13);
  expect(res.statusCode, res.body).toBe(200);
  expect(String(res.headers['content-type'])).toContain('spreadsheetml');
  expect(header(ws)).toEqual(columns);
  expect(dataRows(ws)).toBe(list.r.total);
  expect(await logged(category)).toMatchObject({ row_count: list.r.total });
  return ws!;
}

const CANDIDATE_COLUMNS = ['开票日期', '发票代码', '发票号码', '金额（元）', '税额（元）', '价税合计（元）', '种类', '状态', '销方名称', '勾选状态', '用途', '不抵扣原因', '有效税额（元）', '所属期', '疑点'];

describe('抵扣勾选 and 退税勾选', () => {
  it('exports the filtered candidates with the page columns, money in 元', async () => {
    const seller = `导出勾选测试供应商${Date.now()}有限公司`;
    const a = await h.fresh({ sellerName: seller, tax: 1234 });
    await h.fresh({ sellerName: seller });
    const ws = await expectExport(`${D}/export`, { sellerName: seller }, `${D}/list`, CANDIDATE_COLUMNS, '抵扣勾选', 2);
    expect(dataRows(ws)).toBe(2);
    const row = [2, 3].map((i) => ws.getRow(i)).find((r) => r.getCell(3).value === a.no)!;
    expect(row.getCell(5).value).toBe(12.34);
    expect(row.getCell(9).value).toBe(seller);
    expect(row.getCell(10).value).toBe('未勾选');
    // A ticked one shows its usage and period.
    expect((await h.tick({ items: [{ id: a.id, effectiveTax: 1234 }] })).code).toBe(20000);
    const ticked = await expectExport(`${D}/export`, { sellerName: seller, tickState: 1 }, `${D}/list`, CANDIDATE_COLUMNS, '抵扣勾选');
    expect(dataRows(ticked)).toBe(1);
    expect(ticked.getRow(2).getCell(10).value).toBe('已勾选');
    expect(ticked.getRow(2).getCell(11).value).toBe('抵扣');
    expect(ticked.getRow(2).getCell(13).value).toBe(12.34);
    expect(ticked.getRow(2).getCell(14).value).toBe(env.period.period);
  });

  it('退税勾选 exports its own list', async () => {
    const seller = `导出退税测试供应商${Date.now()}有限公司`;
    await h.fresh({ sellerName: seller });
    await expectExport(`${D}/rebate-export`, { sellerName: seller }, `${D}/rebate-list`, CANDIDATE_COLUMNS, '退税勾选');
  });

  it.each(['export', 'rebate-export'])('%s: roles without the page are refused', async (path) => {
    for (const t of [env.t14, env.t16, t3]) {
      const a = await env.s.call(`${D}/${path}`, {}, t);
      expect(a.status).toBe(403);
      expect(a.message).toBe('权限不足');
    }
  });
});

const POOL_HEAD = ['发票种类', '发票代码', '发票号码', '数电号码', '开票日期', '销方名称', '销方税号', '购方名称', '购方税号', '金额（元）', '税额（元）', '价税合计（元）', '校验码', '发票状态', '风险等级', '查验状态', '查验时间', '签收状态', '档案号', '使用状态', '业务单据', '入账状态', '来源', '异常'];
const SIGNING_HEAD = ['签收时间', '发票号码', '销方名称', '价税合计（元）', '单据类型', '单据号', '状态', '档案号', '失败原因', '说明', '签收人', '完成时间'];
const REVOKE_HEAD = ['档案号', '发票号码', '销方名称', '价税合计（元）', '签收单据', '撤销原因', '撤销人', '撤销时间'];

async function freshEntry(sellerName: string): Promise<{ id: string; no: string }> {
  const body = entry({ sellerName });
  const a = await env.s.call('/api/income/pool/save', body, env.t13);
  expect(a.code, a.message).toBe(20000);
  return { id: a.r.id, no: body.digitalNo as string };
}

describe('进项发票登记, 签收归档 and 签收撤销', () => {
  it('entry/export: the waiting invoices of the filter, the pool columns', async () => {
    const seller = `导出待签收测试供应商${Date.now()}有限公司`;
    await freshEntry(seller);
    await freshEntry(seller);
    const ws = await expectExport(`${E}/export`, { sellerName: seller }, `${E}/list`, POOL_HEAD, '待签收发票', 2);
    expect(dataRows(ws)).toBe(2);
    expect(ws.getRow(2).getCell(18).value).toBe('未签收');
    // Every waiting invoice (the demo's too).
    await expectExport(`${E}/export`, {}, `${E}/list`, POOL_HEAD, '待签收发票');
  });

  it('entry/signings-export and entry/revoke/export: the records of the filter', async () => {
    const seller = `导出签收测试供应商${Date.now()}有限公司`;
    const a = await freshEntry(seller);
    const b = await freshEntry(seller);
    const signed = await env.s.call(`${E}/sign`, { invoiceIds: [a.id, b.id], docType: 'reimbursement', docNo: docs.reimbursement }, env.t14);
    expect(signed.code, signed.message).toBe(20000);
    const one = await expectExport(`${E}/signings-export`, { number: a.no }, `${E}/signings`, SIGNING_HEAD, '签收记录');
    expect(dataRows(one)).toBe(1);
    expect(one.getRow(2).getCell(2).value).toBe(a.no);
    expect(one.getRow(2).getCell(5).value).toBe('报销单');
    expect(one.getRow(2).getCell(6).value).toBe(docs.reimbursement);
    expect(one.getRow(2).getCell(7).value).toBe('已签收');
    expect(String(one.getRow(2).getCell(8).value)).toMatch(/^GD\d{10,}$/);
    await expectExport(`${E}/signings-export`, { docType: 'reimbursement' }, `${E}/signings`, SIGNING_HEAD, '签收记录', 2);

    const r = await env.s.call(`${E}/revoke/add`, { invoiceId: a.id, reason: '导出测试撤销' }, env.t14);
    expect(r.code, r.message).toBe(20000);
    const rv = await expectExport(`${E}/revoke/export`, { number: a.no }, `${E}/revoke/list`, REVOKE_HEAD, '签收撤销记录');
    expect(dataRows(rv)).toBe(1);
    expect(rv.getRow(2).getCell(2).value).toBe(a.no);
    expect(rv.getRow(2).getCell(3).value).toBe(seller);
    expect(rv.getRow(2).getCell(5).value).toBe(`报销单 ${docs.reimbursement}`);
    expect(rv.getRow(2).getCell(6).value).toBe('导出测试撤销');
    await expectExport(`${E}/revoke/export`, {}, `${E}/revoke/list`, REVOKE_HEAD, '签收撤销记录');
  });

  it('role 16 reads the lists, so exports them; a role without the pages is refused', async () => {
    for (const path of ['export', 'signings-export', 'revoke/export']) {
      const a = await env.s.call(`${E}/${path}`, {}, t3);
      expect(a.status, path).toBe(403);
      expect(a.message).toBe('权限不足');
      const { res } = await env.s.download(`${E}/${path}`, {}, env.t16);
      expect(res.statusCode, path).toBe(200);
    }
  });

  it('a bad filter is a Chinese refusal, not a 5xx', async () => {
    const a = await env.s.call(`${E}/revoke/export`, { from: 'x' }, env.t13);
    expect(a.status).toBe(400);
    expect(a.message).toMatch(/[\u4e00-\u9fa5]/);
  });
});

describe('the batches go on after the first (keyset paging)', () => {
  async function ids<T extends { id: string }>(it: AsyncIterable<T[]>): Promise<string[]> {
    const out: string[] = [];
    for await (const b of it) out.push(...b.map((r) => r.id));
    return out;
  }
  it('small batches give the list\'s rows in the list\'s order, each once', async () => {
    const db = env.s.db.kysely;
    const w = { windowFrom: env.period.windowFrom, windowTo: env.period.windowTo };
    const seller = `导出分批测试供应商${Date.now()}有限公司`;
    for (let i = 0; i < 3; i++) await h.fresh({ sellerName: seller });
    const sorts = [{}, { sort: { field: 'amountExcl', order: 'ascend' } }] as const;
    for (const sort of sorts) {
      const list = await env.s.call(`${D}/list`, { sellerName: seller, ...sort }, env.t13);
      const want = list.r.items.map((r: { id: string }) => r.id);
      expect(want).toHaveLength(3);
      for (const size of [1, 2]) expect(await ids(candidateBatches(db, { sellerName: seller, ...sort } as never, 'deduction', w, size))).toEqual(want);
    }
    // The demo's waiting invoices and signings run past one page of 500: the first page, the total, none twice.
    const same = async (listUrl: string, got: string[]) => {
      const page = await env.s.call(listUrl, { pageSize: 500 }, env.t13);
      expect(got.slice(0, page.r.items.length)).toEqual(page.r.items.map((r: { id: string }) => r.id));
      expect(got).toHaveLength(page.r.total);
      expect(new Set(got).size).toBe(got.length);
    };
    await same(`${E}/list`, await ids(waitingBatches(db, {} as never, 7)));
    await same(`${E}/signings`, await ids(signingBatches(db, {} as never, 7)));
    await same(`${E}/revoke/list`, await ids(revokeBatches(db, {} as never, 1)));
  });
});
