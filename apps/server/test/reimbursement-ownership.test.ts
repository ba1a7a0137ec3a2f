/**
 * Issue 27, critical: "anyone can take any invoice of the pool by its number". A plain employee uploads the
 * number of a real pool invoice with a made-up face; the server merged it and the employee could then put
 * the invoice on a bill and read its files. What holds now (docs/reimbursement.md "Whose invoice it is"):
 * a number already in the pool merges only with the same face (else refused, naming the fields, recorded);
 * holding a copy is not owning (a company invoice, a colleague's ticket, another person's upload cannot be
 * claimed, in the candidates nor in a crafted save or submit); nobody reads a file they did not upload unless
 * they may read a bill it backs or their role reads every bill (1, 12, 16); an unread file is a check.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IncomeSource, IncomeUsage } from '@zhyy/shared';
import { startTestServer, type TestServer } from './helpers.js';
import { b64, entry, pdf, shanghaiDay } from './income-helpers.js';
import { openHandlers } from './workflow-helpers.js';

let s: TestServer;
const A = { login: '', id: '', name: '', token: '' };
const B = { login: '', id: '', name: '', token: '' };
const NOW = new Date().toISOString();
const call = (url: string, body: unknown, token: string) => s.call(`/api/reimbursement${url}`, body, token);
const fixture = (name: string) => ({ fileName: name, content: fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/income', name)).toString('base64') });

/** Plain employees (no role that reads every bill, no department manager), of two departments. */
async function staff(excludeDept: string[]): Promise<{ login: string; id: string; name: string; dept: string }> {
  const k = s.db.kysely;
  const users = await k.selectFrom('users').select(['login_name', 'id', 'name', 'dept_id']).where('status', '=', 1).where('dept_id', 'is not', null).orderBy('login_name').execute();
  const roles = await k.selectFrom('user_roles').select(['user_id', 'role']).execute();
  const managers = new Set((await k.selectFrom('departments').select('manager_id').execute()).map((d) => d.manager_id));
  const strong = new Set(roles.filter((r) => ['1', '3', '12', '13', '14', '16'].includes(r.role)).map((r) => r.user_id));
  const u = users.find((x) => !managers.has(x.id) && !strong.has(x.id) && !excludeDept.includes(x.dept_id!) && !x.login_name.startsWith('demo') && x.login_name !== 'admin')!;
  return { login: u.login_name, id: u.id, name: u.name, dept: u.dept_id! };
}

const header = { periodFrom: shanghaiDay(-20), periodTo: shanghaiDay(), reason: '项目现场出差', payeeName: '收款人甲', payeeBank: '工商银行南京分行', payeeAccount: '6222020200112233445' };
const line = (over: Record<string, unknown> = {}) => ({ categoryCode: 'T27-OFFICE', expenseDate: shanghaiDay(-5), description: '办公用品', amount: 10_000, invoiceId: null, ...over });
const row = (id: string) => s.db.kysely.selectFrom('income_invoices').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const fileCount = async (id: string) => (await s.db.kysely.selectFrom('income_files').select('id').where('invoice_id', '=', id).execute()).length;
const candidateIds = async (token: string, keyword?: string) => ((await call('/invoice/candidates', keyword ? { keyword } : {}, token)).r as Array<{ id: string }>).map((c) => c.id);
const faceOf = (r: Awaited<ReturnType<typeof row>>) => ({
  kind: r.kind,
  invoiceCode: r.invoice_code,
  invoiceNo: r.invoice_no,
  digitalNo: r.digital_no,
  issueDate: r.issue_date,
  sellerName: r.seller_name,
  sellerTaxNo: r.seller_tax_no,
  buyerName: r.buyer_name,
  buyerTaxNo: r.buyer_tax_no,
  amountExcl: Number(r.amount_excl),
  tax: Number(r.tax),
  amountIncl: Number(r.amount_incl),
  checkCode: r.check_code,
  lines: [],
});

beforeAll(async () => {
  s = await startTestServer();
  await s.app.incomeJob.stop();
  await s.db.kysely
    .insertInto('reimb_categories')
    .values({ code: 'T27-OFFICE', name: '测试办公费27', travel_kind: '', subject_code: '660201', subject_name: '管理费用-办公费', default_tax_rate: '0.13', sort: 1, enabled: 1, updated_at: NOW })
    .onConflict((oc) => oc.doNothing())
    .execute();
  const a = await staff([]);
  Object.assign(A, a);
  Object.assign(B, await staff([a.dept]));
  A.token = await s.login(A.login);
  B.token = await s.login(B.login);
});
afterAll(() => s?.close());

describe('a pool invoice taken by its number', () => {
  let real: Awaited<ReturnType<typeof row>>;

  beforeAll(async () => {
    // A supplier's 数电专票 the company collected from its tax account, free.
    real = await s.db.kysely
      .selectFrom('income_invoices')
      .selectAll()
      .where('kind', '=', '81')
      .where('source', '=', IncomeSource.collected)
      .where('usage', '=', IncomeUsage.available)
      .where('sign_state', '=', 0)
      .where('invoice_state', '=', 0)
      .where('buyer_mismatch', '=', 0)
      .orderBy('amount_incl', 'desc')
      .executeTakeFirstOrThrow();
  });

  it('a forged face on a real number is refused naming the fields, recorded, and nothing merges', async () => {
    const files = await fileCount(real.id);
    const forged = { ...entry({ digitalNo: real.digital_no, sellerName: '随便写的销方', issueDate: '2025-01-01' }), invoiceCode: '', invoiceNo: '', checkCode: '' };
    const r = await call('/invoice/upload-save', { ...forged, files: [{ fileName: 'any.pdf', content: b64(pdf('one page')) }] }, A.token);
    expect(r.code).toBe(30000);
    expect(r.message).toBe(`票池中已有发票 ${real.digital_no}，本次填写的票面与之不一致（开票日期、销方税号、金额、税额、价税合计），不能合并，请核对后重新填写`);
    expect(await fileCount(real.id)).toBe(files);
    expect((await row(real.id)).arrivals).toBe(real.arrivals);
    const ev = await s.db.kysely.selectFrom('income_events').select(['message', 'user_name']).where('invoice_id', '=', real.id).where('kind', '=', 'mismatch').execute();
    expect(ev).toEqual([{ message: `上传的票面与票池记录不一致（开票日期、销方税号、金额、税额、价税合计），已拒绝合并：${A.name}（${A.login}）`, user_name: A.name }]);
    const log = await s.db.kysely.selectFrom('operation_logs').select('description').where('description', 'like', `%${real.digital_no}%不一致%`).execute();
    expect(log).toHaveLength(1);
    // The same through the pool's own upload route (a clerk's typo is refused the same way).
    const clerk = await s.login('demo13');
    const p = await s.call('/api/income/pool/upload-save', { ...forged, files: [{ fileName: 'any.pdf', content: b64(pdf('one page')) }] }, clerk);
    expect(p.code).toBe(30000);
    expect(p.message).toContain('（开票日期、销方税号、金额、税额、价税合计）');
    expect(await fileCount(real.id)).toBe(files);
  });

  it('the invoice is not among the employee\'s candidates, and a crafted bill line with it is refused', async () => {
    expect(await candidateIds(A.token, real.digital_no.slice(-10))).toEqual([]);
    const r = await call('/bill/save', { ...header, lines: [line({ invoiceId: real.id, amount: Number(real.amount_incl) })] }, A.token);
    expect(r.code).toBe(30000);
    expect(r.message).toBe(`第1行：发票 ${real.digital_no} 是公司采集的进项发票，不是本人上传的发票，不能报销`);
    expect((await row(real.id)).usage).toBe(IncomeUsage.available);
  });

  it('even its exact face uploaded merges the copy but does not make the employee its owner', async () => {
    const r = await call('/invoice/upload-save', { ...faceOf(real), files: [{ fileName: 'copy.pdf', content: b64(pdf(`copy ${real.digital_no}`)) }] }, A.token);
    expect(r.code, r.message).toBe(20000);
    expect(r.r.outcome).toBe('merged');
    expect(await candidateIds(A.token, real.digital_no.slice(-10))).toEqual([]);
    expect((await call('/bill/save', { ...header, lines: [line({ invoiceId: real.id })] }, A.token)).message).toContain('是公司采集的进项发票');
  });
});

describe('a colleague\'s ticket', () => {
  let ticket: Awaited<ReturnType<typeof row>>;
  let passenger = '';

  beforeAll(async () => {
    const t = await s.db.kysely
      .selectFrom('income_transport as t')
      .innerJoin('income_invoices as i', 'i.id', 't.invoice_id')
      .select(['i.id', 't.passenger_name'])
      .where('i.kind', '=', 'air')
      .where('t.passenger_name', '<>', '')
      .where('t.passenger_name', '<>', A.name)
      .where('i.usage', '=', IncomeUsage.available)
      .where('i.invoice_state', '=', 0)
      .orderBy('i.id')
      .executeTakeFirstOrThrow();
    ticket = await row(t.id);
    passenger = t.passenger_name;
  });

  it('a forged face is refused; the exact face merges a copy, yet the ticket stays its passenger\'s', async () => {
    const files = await fileCount(ticket.id);
    const forged = await call('/invoice/upload-save', { ...faceOf(ticket), amountExcl: 9_174, tax: 826, amountIncl: 10_000, issueDate: '2025-01-01', files: [{ fileName: 'ticket.pdf', content: b64(pdf('ticket')) }] }, A.token);
    expect(forged.code).toBe(30000);
    expect(forged.message).toContain('（开票日期、金额、税额、价税合计）');
    expect(await fileCount(ticket.id)).toBe(files);

    const copy = await call('/invoice/upload-save', { ...faceOf(ticket), files: [{ fileName: 'ticket-copy.pdf', content: b64(pdf(`ticket ${ticket.digital_no}`)) }] }, A.token);
    expect(copy.r?.outcome, copy.message).toBe('merged');
    expect(await candidateIds(A.token, ticket.digital_no.slice(-10))).toEqual([]);
    const r = await call('/bill/save', { ...header, lines: [line({ invoiceId: ticket.id, amount: Number(ticket.amount_incl) })] }, A.token);
    expect(r.code).toBe(30000);
    expect(r.message).toBe(`第1行：发票 ${ticket.digital_no} 是${passenger}的客票，只能由乘车（机）人本人报销`);
  });
});

describe('whose file it is', () => {
  let inv = '';
  let aFile = '';
  let bFile = '';
  let billId = '';

  it('B\'s copy of A\'s invoice merges with the same face, but B cannot claim it nor read A\'s file', async () => {
    const face = { ...entry(), invoiceCode: '', invoiceNo: '', checkCode: '' };
    const a = await call('/invoice/upload-save', { ...face, files: [{ fileName: 'a-original.pdf', content: b64(pdf(`A ${face.digitalNo}`)) }] }, A.token);
    expect(a.r?.outcome, a.message).toBe('created');
    inv = a.r.id;
    const b = await call('/invoice/upload-save', { ...face, files: [{ fileName: 'b-copy.pdf', content: b64(pdf(`B ${face.digitalNo}`)) }] }, B.token);
    expect(b.r?.outcome, b.message).toBe('merged');
    const files = await s.db.kysely.selectFrom('income_files').select(['id', 'name']).where('invoice_id', '=', inv).execute();
    aFile = files.find((f) => f.name === 'a-original.pdf')!.id;
    bFile = files.find((f) => f.name === 'b-copy.pdf')!.id;
    expect(await candidateIds(B.token, face.digitalNo.slice(-10))).toEqual([]);
    expect(await candidateIds(A.token, face.digitalNo.slice(-10))).toEqual([inv]);
    const save = await call('/bill/save', { ...header, lines: [line({ invoiceId: inv })] }, B.token);
    expect(save.message).toBe(`第1行：发票 ${face.digitalNo} 由${A.name}上传，只能由上传人报销`);
    expect((await call('/invoice/file', { id: aFile }, B.token)).status).toBe(403);
    expect((await call('/invoice/file', { id: bFile }, B.token)).status).toBe(200);
    expect((await call('/invoice/file', { id: aFile }, A.token)).status).toBe(200);
  });

  it('an approver of the bill it backs reads A\'s file, and so do roles 1, 12 and 16', async () => {
    const x = await call('/bill/save', { ...header, lines: [line({ invoiceId: inv, amount: 10_900 })] }, A.token);
    expect(x.code, x.message).toBe(20000);
    billId = x.r.id;
    const sub = await call('/bill/submit', { id: billId }, A.token);
    expect(sub.code, sub.message).toBe(20000);
    const handler = (await openHandlers(s, sub.r.workId))[0]!;
    expect((await call('/invoice/file', { id: aFile }, await s.login(handler))).status).toBe(200);
    for (const login of ['admin', 'demo12', 'demo16']) expect((await call('/invoice/file', { id: aFile }, await s.login(login))).status, login).toBe(200);
    expect((await call('/invoice/file', { id: aFile }, B.token)).status).toBe(403);
  });

  it('a file that shows no invoice number is no evidence: the line carries a check the approvers see', async () => {
    const d = await call('/bill/get', { id: billId }, A.token);
    expect(d.r.lines[0].checks).toContainEqual({ code: 'invoiceFileUnread', level: 'warn', message: '发票文件（a-original.pdf、b-copy.pdf）未能识别出发票号码，票面由上传人填写，请核对原件' });
    // A recognised file (数电 XML showing its number) raises no such check.
    const rec = await call('/invoice/upload-recognise', fixture('invoice-sd.xml'), A.token);
    const xml = await call('/invoice/upload-save', { ...rec.r.draft, invoiceCode: '', invoiceNo: '', checkCode: '', files: [fixture('invoice-sd.xml')] }, A.token);
    expect(xml.code, xml.message).toBe(20000);
    const y = await call('/bill/save', { ...header, lines: [line({ invoiceId: xml.r.id, amount: 10_000 })] }, A.token);
    expect(y.code, y.message).toBe(20000);
    const g = await call('/bill/get', { id: y.r.id }, A.token);
    expect(g.r.lines[0].checks.map((c: { code: string }) => c.code)).not.toContain('invoiceFileUnread');
  });
});

describe('a submit re-checks the claim', () => {
  it('a draft holding an invoice that is no longer mine to claim is refused at submit', async () => {
    // Another day than the other uploads (their seller + day + total would be a duplicate claim).
    const face = { ...entry({ issueDate: shanghaiDay(-3) }), invoiceCode: '', invoiceNo: '', checkCode: '' };
    const a = await call('/invoice/upload-save', { ...face, files: [{ fileName: 'c.pdf', content: b64(pdf(`C ${face.digitalNo}`)) }] }, A.token);
    const x = await call('/bill/save', { ...header, lines: [line({ invoiceId: a.r.id, amount: 10_900 })] }, A.token);
    expect(x.code, x.message).toBe(20000);
    // Booked meanwhile (入账): the invoice went into another process.
    await s.db.kysely.updateTable('income_invoices').set({ booking_state: '02' }).where('id', '=', a.r.id).execute();
    const sub = await call('/bill/submit', { id: x.r.id }, A.token);
    expect(sub.code).toBe(30000);
    expect(sub.message).toBe(`第1行：发票 ${face.digitalNo} 已入账（企业所得税税前扣除），不能报销`);
  });
});
