/**
 * Issue 13, the pool screens (roles 1, 13): invoicePool/list (every invoice, filters on every field,
 * totals of the filtered set, Excel export streamed), detail/:id, other (customs notes, withholding
 * certificates, passenger tickets, tolls), abnormal (voided, red-reversed or with a pending red
 * confirmation, 失控, 异常凭证, buyer not ours, duplicate, verification mismatch) and its count
 * abnormalInvoicePoolCount. "Role 14 signs but gets 权限不足 on the pool"; the route table gives the
 * invoicePool pages roles 1 and 13 only (SPEC section 2), so role 16 is refused there too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IncomeAbnormalFlag, IncomeInvoiceState, IncomeRiskLevel, IncomeUsage, IncomeVerifyState, OTHER_INCOME_KINDS } from '@zhyy/shared';
import { INCOME_DEMO_DAYS } from '../src/seed/income.js';
import { INCOME_SUPPLIERS } from '../src/seed/incomeData.js';
import { startTestServer, TEST_DEMO, type TestServer } from './helpers.js';
import { b64, entry, pdf } from './income-helpers.js';

let s: TestServer;
let tAdmin: string;
let t1: string;
let t13: string;
let t14: string;
let t16: string;

beforeAll(async () => {
  s = await startTestServer();
  [tAdmin, t1, t13, t14, t16] = (await Promise.all(['admin', 'demo1', 'demo13', 'demo14', 'demo16'].map((n) => s.login(n)))) as [string, string, string, string, string];
});
afterAll(() => s?.close());

type Row = Awaited<ReturnType<typeof all>>[number];
async function all() {
  const rows = await s.db.kysely.selectFrom('income_invoices').selectAll().execute();
  return rows.map((r) => ({ ...r, amount_excl: Number(r.amount_excl), tax: Number(r.tax), amount_incl: Number(r.amount_incl) }));
}
const sums = (rows: Row[]) => ({ count: rows.length, amountExcl: rows.reduce((a, r) => a + r.amount_excl, 0), tax: rows.reduce((a, r) => a + r.tax, 0), amountIncl: rows.reduce((a, r) => a + r.amount_incl, 0) });
const abnormal = (r: Row) => r.invoice_state !== 0 || r.red_pending === 1 || r.risk_level === '02' || r.risk_level === '03' || r.buyer_mismatch === 1 || r.duplicate_of !== null || r.verify_state === 2;

describe('the demo pool', () => {
  it('holds the seed\'s invoices over 12 months, every kind of its suppliers, each abnormal flag at least once', async () => {
    // The income seed's invoices (the demo reimbursements' own invoices, seed/reimbursement.ts, aside).
    const reimb = new Set((await s.db.kysely.selectFrom('reimb_lines').select('invoice_id').execute()).map((l) => l.invoice_id));
    const rows = (await all()).filter((r) => !reimb.has(r.id));
    expect(rows.length).toBe(INCOME_DEMO_DAYS * TEST_DEMO.incomePerDay);
    expect(new Set(rows.map((r) => r.issue_date.slice(0, 7))).size).toBeGreaterThanOrEqual(12);
    // The suppliers' kinds, and the 数电 tolls drawn from the toll suppliers (issue 29, seed/incomeData.ts).
    expect(new Set(rows.map((r) => r.kind))).toEqual(new Set([...INCOME_SUPPLIERS.flatMap(([sup]) => sup.kinds), 'dtoll']));
    const a = await s.call('/api/income/pool/abnormal', { pageSize: 500 }, t13);
    expect(a.r.total).toBeLessThan(500);
    const flags = new Set(a.r.items.flatMap((i: { abnormalFlags: string[] }) => i.abnormalFlags));
    expect(flags).toEqual(new Set(IncomeAbnormalFlag.values));
  });
});

describe('permissions (roles 1 and 13; 14 and 16 get 权限不足, except manual entry)', () => {
  const ROUTES: Array<[string, Record<string, unknown>]> = [
    ['/api/income/pool/list', {}],
    ['/api/income/pool/export', {}],
    ['/api/income/pool/other', {}],
    ['/api/income/pool/other-export', {}],
    ['/api/income/pool/abnormal', {}],
    ['/api/income/pool/abnormal-export', {}],
    ['/api/income/pool/abnormal-count', {}],
    ['/api/income/pool/detail', { id: '00000000-0000-4000-8000-000000000000' }],
  ];
  it.each(ROUTES)('%s', async (url, body) => {
    for (const t of [tAdmin, t1, t13]) {
      const a = await s.call(url, body, t);
      expect(a.status, `${url} admitted`).not.toBe(403);
      expect(a.status).toBeLessThan(500);
    }
    for (const t of [t14, t16]) {
      const a = await s.call(url, body, t);
      expect([a.status, a.code, a.message]).toEqual([403, 30000, '权限不足']);
    }
    expect((await s.call(url, body)).code).toBe(50008);
  });
  it('/api/income/pool/save: a line rate outside the shared list is refused (issue 27)', async () => {
    const e = entry();
    const a = await s.call('/api/income/pool/save', { ...e, lines: [{ ...e.lines[0], taxRate: '0.5' }] }, t13);
    expect([a.code, a.status]).toEqual([30000, 400]);
    expect(a.message).toContain('税率不在税率表中');
  });

  it('/api/income/pool/save: also from 进项发票编辑 (roles 14 and 16 enter paper invoices there)', async () => {
    for (const t of [tAdmin, t1, t13, t14, t16]) {
      const a = await s.call('/api/income/pool/save', { kind: '99' }, t);
      expect(a.status, 'admitted').not.toBe(403);
      expect(a.status).toBeLessThan(500);
    }
    expect((await s.call('/api/income/pool/save', { kind: '99' })).code).toBe(50008);
  });
});

describe('/api/income/pool/list', () => {
  it('lists every invoice, newest first, with the totals of the whole set', async () => {
    const rows = await all();
    const a = await s.call('/api/income/pool/list', { pageSize: 50 }, t13);
    expect(a.code).toBe(20000);
    expect(a.r.total).toBe(rows.length);
    expect(a.r.totals).toEqual(sums(rows));
    expect(a.r.items).toHaveLength(50);
    const days = a.r.items.map((i: { issueDate: string }) => i.issueDate);
    expect(days).toEqual([...days].sort().reverse());
  });

  it('answers each filter like an independent filter of the same rows, with its totals', async () => {
    const rows = await all();
    const some = rows.find((r) => r.kind === '81' && r.archive_no)!;
    const coded = rows.find((r) => r.kind === '01')!;
    const held = rows.find((r) => r.doc_no)!;
    const cases: Array<[Record<string, unknown>, (r: Row) => boolean]> = [
      [{ kind: '81' }, (r) => r.kind === '81'],
      [{ kind: 'rail' }, (r) => r.kind === 'rail'],
      [{ issueFrom: some.issue_date, issueTo: some.issue_date }, (r) => r.issue_date === some.issue_date],
      [{ number: some.digital_no }, (r) => r.digital_no === some.digital_no],
      [{ number: coded.invoice_no }, (r) => r.invoice_no === coded.invoice_no],
      [{ invoiceCode: coded.invoice_code }, (r) => r.invoice_code === coded.invoice_code],
      [{ sellerName: '建材' }, (r) => r.seller_name.includes('建材')],
      [{ sellerTaxNo: some.seller_tax_no.toLowerCase() }, (r) => r.seller_tax_no === some.seller_tax_no],
      [{ buyerName: '南京' }, (r) => r.buyer_name.includes('南京')],
      [{ buyerTaxNo: some.buyer_tax_no }, (r) => r.buyer_tax_no === some.buyer_tax_no],
      [{ amountMin: 1_000_000, amountMax: 5_000_000 }, (r) => r.amount_incl >= 1_000_000 && r.amount_incl <= 5_000_000],
      [{ invoiceState: IncomeInvoiceState.voided }, (r) => r.invoice_state === 2],
      [{ riskLevel: IncomeRiskLevel.abnormalVoucher }, (r) => r.risk_level === '02'],
      [{ verifyState: IncomeVerifyState.none }, (r) => r.verify_state === 0],
      [{ signState: 1 }, (r) => r.sign_state === 1],
      [{ bookingState: '02' }, (r) => r.booking_state === '02'],
      [{ source: 2 }, (r) => r.source === 2],
      [{ usage: 1 }, (r) => r.usage === 1],
      [{ archiveNo: some.archive_no }, (r) => r.archive_no === some.archive_no],
      [{ docNo: held.doc_no }, (r) => r.doc_no === held.doc_no],
      [{ checkCode: coded.check_code }, (r) => r.check_code === coded.check_code],
      [{ abnormalFlag: 'duplicate' }, (r) => r.duplicate_of !== null],
      [{ abnormalFlag: 'red' }, (r) => [3, 7, 8].includes(r.invoice_state)],
      [{ kind: '01', signState: 0, issueFrom: '2000-01-01' }, (r) => r.kind === '01' && r.sign_state === 0],
    ];
    for (const [filter, keep] of cases) {
      const expected = rows.filter(keep);
      const a = await s.call('/api/income/pool/list', { ...filter, pageSize: 500 }, t13);
      expect(a.code, JSON.stringify(filter)).toBe(20000);
      expect(a.r.totals, JSON.stringify(filter)).toEqual(sums(expected));
      expect(a.r.total).toBe(expected.length);
      // The first page (500 at most) of the expected set, newest first.
      const ids = new Set(expected.map((r) => r.id));
      expect(a.r.items, JSON.stringify(filter)).toHaveLength(Math.min(500, expected.length));
      expect(a.r.items.every((i: { id: string }) => ids.has(i.id)), JSON.stringify(filter)).toBe(true);
      const days = a.r.items.map((i: { issueDate: string }) => i.issueDate);
      expect(days).toEqual([...days].sort().reverse());
      if (expected.length > 500) expect(days.at(-1) >= [...expected.map((r) => r.issue_date)].sort().reverse()[499]!).toBe(true);
    }
    expect(cases.every(([f]) => f)).toBe(true);
  });

  it('pages through the whole set without repeats, sorted by amount', async () => {
    const rows = await all();
    const seen: string[] = [];
    for (let page = 1; ; page++) {
      const a = await s.call('/api/income/pool/list', { pageIndex: page, pageSize: 100, sort: { field: 'amountIncl', order: 'ascend' } }, t13);
      seen.push(...a.r.items.map((i: { id: string }) => i.id));
      if (a.r.items.length < 100) break;
    }
    expect(seen).toHaveLength(rows.length);
    expect(new Set(seen).size).toBe(rows.length);
    const byId = new Map(rows.map((r) => [r.id, r.amount_incl]));
    const amounts = seen.map((id) => byId.get(id)!);
    expect(amounts).toEqual([...amounts].sort((x, y) => x - y));
  });

  it('refuses bad filters in Chinese', async () => {
    expect((await s.call('/api/income/pool/list', { kind: 'x' }, t13)).message).toBe('参数错误：发票种类不正确');
    expect((await s.call('/api/income/pool/list', { issueFrom: '2026-05-01', issueTo: '2026-04-01' }, t13)).message).toBe('参数错误：开票日期起不能晚于止');
    expect((await s.call('/api/income/pool/list', { invoiceState: 5 }, t13)).message).toBe('参数错误：发票状态不正确');
  });
});

describe('other and abnormal', () => {
  it('other: only customs notes, withholding certificates, passenger tickets and tolls, with their totals', async () => {
    const rows = (await all()).filter((r) => OTHER_INCOME_KINDS.includes(r.kind as 'rail'));
    expect(new Set(rows.map((r) => r.kind))).toEqual(new Set(['rail', 'air', 'road', '14', 'dtoll', 'customs', 'withholding']));
    const a = await s.call('/api/income/pool/other', { pageSize: 500 }, t13);
    expect(a.r.totals).toEqual(sums(rows));
    expect(a.r.items).toHaveLength(Math.min(500, rows.length));
    expect(a.r.items.every((i: { kind: string }) => OTHER_INCOME_KINDS.includes(i.kind as 'rail'))).toBe(true);
    const air = await s.call('/api/income/pool/other', { kind: 'air', pageSize: 500 }, t13);
    expect(air.r.total).toBe(rows.filter((r) => r.kind === 'air').length);
  });

  it('abnormal: every invoice with a flag; the count, the badge for roles 1 and 13, none for 14', async () => {
    const rows = (await all()).filter(abnormal);
    expect(rows.length).toBeGreaterThanOrEqual(9);
    const a = await s.call('/api/income/pool/abnormal', { pageSize: 500 }, t13);
    expect(a.r.totals).toEqual(sums(rows));
    expect(a.r.items.every((i: { abnormalFlags: string[] }) => i.abnormalFlags.length > 0)).toBe(true);
    expect((await s.call('/api/income/pool/abnormal-count', {}, t13)).r).toEqual({ abnormalInvoicePoolCount: rows.length });
    for (const t of [t13, t1]) expect((await s.call('/api/invoice/billing-cancellation-count', {}, t)).r.abnormalInvoicePoolCount).toBe(rows.length);
    expect((await s.call('/api/invoice/billing-cancellation-count', {}, t14)).r.abnormalInvoicePoolCount).toBe(0);
    // A new invoice for another buyer joins the list and the count at once.
    const added = await s.call('/api/income/pool/save', entry({ buyerName: '别家公司', amountExcl: 12300, tax: 0, amountIncl: 12300, lines: [] }), t13);
    expect(added.r.warnings[0]).toContain('不是本公司');
    expect((await s.call('/api/income/pool/abnormal-count', {}, t13)).r.abnormalInvoicePoolCount).toBe(rows.length + 1);
    const filtered = await s.call('/api/income/pool/abnormal', { abnormalFlag: 'buyerNotOurs', pageSize: 500 }, t13);
    expect(filtered.r.items.map((i: { id: string }) => i.id)).toContain(added.r.id);
  });

  it('detail: face, lines, files, history, uses; an unknown id is 发票不存在', async () => {
    const held = (await all()).find((r) => r.use_kind === 'reimbursement' && r.usage === IncomeUsage.locked)!;
    const lines = await s.db.kysely.selectFrom('income_invoice_lines').select('line_no').where('invoice_id', '=', held.id).execute();
    const d = await s.call('/api/income/pool/detail', { id: held.id }, t13);
    expect(d.r).toMatchObject({ id: held.id, docNo: held.doc_no, useKind: held.use_kind, sellerName: held.seller_name });
    expect(d.r.lines).toHaveLength(lines.length);
    expect(lines.length).toBeGreaterThan(0);
    expect(d.r.uses[0]).toMatchObject({ docNo: held.doc_no, state: 'locked' });
    // Newest first: held by the reimbursement after it arrived.
    const kinds = d.r.history.map((h: { kind: string }) => h.kind);
    expect([kinds[0], kinds.at(-1)]).toEqual(['lock', 'arrive']);
    const none = await s.call('/api/income/pool/detail', { id: '00000000-0000-4000-8000-000000000000' }, t13);
    expect([none.status, none.message]).toEqual([404, '发票不存在']);
  });
});

describe('files through /file/view', () => {
  it('a reader of the detail gets a 10-minute signed link; the link serves the file without a token, bound to its route', async () => {
    const content = pdf('income-file-link');
    const face = entry({ files: [{ fileName: '进项发票.pdf', content: b64(content) }] });
    const saved = await s.call('/api/income/pool/save', face, t13);
    expect(saved.code).toBe(20000);
    const fileId = (await s.call('/api/income/pool/detail', { id: saved.r.id }, t13)).r.files[0].id;
    // Roles 1 and 13 from the pool, 14 and 16 from 发票签收's detail; the link is logged.
    for (const t of [t1, t13, t14, t16]) expect((await s.call('/api/income/pool/file-link', { fileId }, t)).code).toBe(20000);
    const link = await s.call('/api/income/pool/file-link', { fileId }, t13);
    expect(link.r).toMatchObject({ name: '进项发票.pdf', type: 'application/pdf' });
    expect(link.r.url).toMatch(/^\/signed\/income-file\/[0-9a-f-]{36}\?e=\d+&s=/);
    const got = await s.app.inject({ method: 'GET', url: link.r.url });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('application/pdf');
    expect(got.rawPayload.equals(content)).toBe(true);
    const forged = await s.app.inject({ method: 'GET', url: link.r.url.replace(/s=[^&]+/, 's=AAAA') });
    expect([forged.statusCode, JSON.parse(forged.body).message]).toEqual([403, '文件链接无效']);
    // The same signature on the outgoing invoices' file route is not valid there.
    const elsewhere = await s.app.inject({ method: 'GET', url: link.r.url.replace('/signed/income-file/', '/signed/invoice-file/') });
    expect(elsewhere.statusCode).toBe(403);
    expect((await s.call('/api/income/pool/file-link', { fileId })).status).toBe(401);
    const none = await s.call('/api/income/pool/file-link', { fileId: '00000000-0000-4000-8000-000000000000' }, t13);
    expect([none.status, none.message]).toEqual([404, '文件不存在']);
    const logged = await s.db.kysely.selectFrom('operation_logs').select('description').where('description', '=', `查看进项发票文件：进项发票.pdf（${face.digitalNo}）`).execute();
    expect(logged.length).toBe(5);
  });
});

describe('export', () => {
  it('streams the filtered set as Excel, one row per invoice, money in 元', async () => {
    const rows = (await all()).filter((r) => r.kind === '81');
    const { res, ws } = await s.download('/api/income/pool/export', { kind: '81', sort: { field: 'amountIncl', order: 'descend' } }, t13);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(ws!.rowCount).toBe(rows.length + 1);
    expect(ws!.getRow(1).getCell(1).value).toBe('发票种类');
    const top = [...rows].sort((x, y) => y.amount_incl - x.amount_incl || (y.id > x.id ? 1 : -1))[0]!;
    expect(ws!.getRow(2).getCell(4).value).toBe(top.digital_no);
    expect(ws!.getRow(2).getCell(12).value).toBe(top.amount_incl / 100);
  });

  it('the abnormal export holds the abnormal set with its flags in Chinese', async () => {
    const n = (await all()).filter(abnormal).length;
    const { ws } = await s.download('/api/income/pool/abnormal-export', {}, t13);
    expect(ws!.rowCount).toBe(n + 1);
    const flags = new Set<string>();
    ws!.eachRow((row, i) => i > 1 && flags.add(String(row.getCell(24).value)));
    expect([...flags].some((f) => f.includes('疑似重复'))).toBe(true);
  });

  it('is logged', async () => {
    await s.download('/api/income/pool/other-export', { kind: 'rail' }, t13);
    const log = await s.db.kysely.selectFrom('operation_logs').select('description').where('description', 'like', '导出其他票池%').executeTakeFirst();
    expect(log?.description).toMatch(/^导出其他票池 \d+ 条$/);
  });
});
