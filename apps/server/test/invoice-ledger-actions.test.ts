/** The ledger's detail history, files of history invoices, re-sending, and the 数电红字 ledger (issue 7). */
import ExcelJS from 'exceljs';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvoiceColour, InvoiceStatus, OperationLogType, SourceKind } from '@zhyy/shared';
import { seedLarge } from '../src/seed/large.js';
import type { TestServer } from './helpers.js';
import { startInvoiceServer } from './invoice-helpers.js';

let s: TestServer;
let t5: string;
let t11: string;
let t1: string;
let history: { id: string };

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR-demo-scan')]);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const OFD = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from('\u0000\u0000OFD.xml<ofd:OFD/>')]);
const b64 = (b: Buffer) => b.toString('base64');

beforeAll(async () => {
  s = await startInvoiceServer();
  await seedLarge(s.db, { invoices: 80, batch: 40 });
  [t5, t11, t1] = await Promise.all([s.login('demo5'), s.login('demo11'), s.login('demo1')]);
  history = await s.db.kysely.selectFrom('invoices').select('id').where('source', '=', SourceKind.history).where('order_no', 'like', 'LG%').executeTakeFirstOrThrow();
});
afterAll(() => s?.close());

describe('detail history', () => {
  it('a red invoice shows its blue original; the blue one its red-letter confirmations, sync log and operations', async () => {
    const red = await s.db.kysely.selectFrom('invoices').select(['id', 'blue_invoice_id']).where('colour', '=', InvoiceColour.red).where('status', '=', InvoiceStatus.created).where('order_no', 'not like', 'LG%').executeTakeFirstOrThrow();
    const a = await s.call('/api/invoice/detail-history', { id: red.id }, t11);
    expect(a.r.blue.id).toBe(red.blue_invoice_id);
    expect(a.r.canChange).toBe(false);
    const b = await s.call('/api/invoice/detail-history', { id: red.blue_invoice_id }, t5);
    expect(b.r.blue).toBeNull();
    expect(b.r.canChange).toBe(true);
    expect(b.r.redConfirms.length).toBeGreaterThan(0);
    expect(b.r.redConfirms[0].redInvoiceId).toBe(red.id);
    expect(b.r.syncLogs.length).toBeGreaterThan(0);
    expect(b.r.syncLogs.map((l: { type: string }) => l.type).join()).toMatch(/requestBillingNew|开票/);
    const order = (await s.db.kysely.selectFrom('invoices').select('order_no').where('id', '=', red.blue_invoice_id!).executeTakeFirstOrThrow()).order_no;
    expect(b.r.operations.some((o: { description: string }) => o.description.includes(order))).toBe(true);
    expect((await s.call('/api/invoice/detail-history', { id: '00000000-0000-0000-0000-000000000001' }, t5)).message).toBe('发票不存在');
  });
});

describe('files of history invoices', () => {
  it('role 5 attaches a scan and an original; invoice-image lists them; role 11 reads them', async () => {
    const up = await s.call('/api/invoice/upload-invoiceimg', { id: history.id, type: 1010, fileName: '扫描件.png', content: b64(PNG) }, t5);
    expect(up.code).toBe(20000);
    expect((await s.call('/api/invoice/upload-invoiceimg', { id: history.id, type: 1000, fileName: '原件.pdf', content: b64(PDF) }, t1)).code).toBe(20000);
    expect((await s.call('/api/invoice/upload-invoiceimg', { id: history.id, type: 1000, fileName: '原件.ofd', content: b64(OFD) }, t5)).code).toBe(20000);
    const list = await s.call('/api/invoice/invoice-image', { id: history.id }, t11);
    expect(list.r.files.map((f: { name: string; format: string; type: number }) => [f.name, f.format, f.type])).toEqual([['扫描件.png', 'png', 1010], ['原件.pdf', 'pdf', 1000], ['原件.ofd', 'ofd', 1000]]);
    expect(list.r.files[0].createdByName).not.toBe('系统');
    const link = await s.call('/api/invoice/file-link', { fileId: up.r.fileId }, t11);
    const got = await s.app.inject({ method: 'GET', url: link.r.url });
    expect(Buffer.from(got.rawPayload).equals(PNG)).toBe(true);
    const log = await s.db.kysely.selectFrom('operation_logs').select('description').where('type', '=', OperationLogType.upload).execute();
    expect(log.map((l) => l.description).join()).toContain('上传发票文件：扫描件.png');
  });

  it("the detail's operation history is read by record: its own uploads and views, not text that merely names it", async () => {
    const inv = await s.db.kysely.selectFrom('invoices').select(['order_no']).where('id', '=', history.id).executeTakeFirstOrThrow();
    // An operation about something else whose text quotes this invoice's order number.
    await s.call('/api/syslog/add-operation-log', { type: OperationLogType.view, description: `备注：参见 ${inv.order_no}` }, t5);
    const h = await s.call('/api/invoice/detail-history', { id: history.id }, t11);
    const texts = h.r.operations.map((o: { description: string }) => o.description);
    expect(texts.filter((t: string) => t.startsWith('上传发票文件：'))).toHaveLength(3);
    expect(texts.some((t: string) => t.startsWith('查看发票文件：扫描件.png'))).toBe(true);
    expect(texts.some((t: string) => t.startsWith('备注：'))).toBe(false);
    const rows = await s.db.kysely.selectFrom('operation_logs').select(['record_kind', 'record_id']).where('description', 'like', '上传发票文件：%').execute();
    expect(rows.every((r) => r.record_kind === 'invoice' && r.record_id === history.id)).toBe(true);
  });

  it('checks the type, the content, the size and the invoice', async () => {
    const send = (body: Record<string, unknown>) => s.call('/api/invoice/upload-invoiceimg', { id: history.id, type: 1010, ...body }, t5);
    expect((await send({ fileName: 'a.exe', content: b64(PNG) })).message).toContain('只能上传PDF、OFD、XML、JPG或PNG文件');
    expect((await send({ fileName: 'a.jpg', content: b64(PNG) })).message).toContain('文件内容与扩展名不符');
    expect((await send({ fileName: 'a.pdf', content: b64(Buffer.from('MZ not a pdf')) })).message).toContain('文件内容与扩展名不符');
    expect((await send({ fileName: 'a.png', type: 1000, content: b64(Buffer.concat([PNG, Buffer.from('x')])) })).message).toBe('发票原件须为PDF、OFD或XML文件');
    expect((await send({ fileName: '再次.png', content: b64(PNG) })).message).toBe('该文件已上传过（扫描件.png）');
    const big = Buffer.alloc(10 * 1024 * 1024 + 10, 1);
    PDF.copy(big);
    expect((await send({ fileName: 'big.pdf', content: b64(big) })).message).toContain('文件不能超过10MB');
    const notHistory = await s.db.kysely.selectFrom('invoices').select('id').where('source', '!=', SourceKind.history).executeTakeFirstOrThrow();
    expect((await s.call('/api/invoice/upload-invoiceimg', { id: notHistory.id, type: 1010, fileName: 'a.png', content: b64(PNG) }, t5)).message).toBe('只能为历史发票上传文件');
  });
});

describe('re-sending to the buyer', () => {
  it('sends an issued invoice through the tax gateway (sync log and delivery) and refuses others', async () => {
    const inv = await s.db.kysely.selectFrom('invoices').select(['id', 'serial_no', 'digital_no']).where('status', '=', InvoiceStatus.created).where('order_no', 'like', 'KP%').where('colour', '=', 1).executeTakeFirstOrThrow();
    const a = await s.call('/api/invoice/send-invoice', { id: inv.id, email: 'cw@example.cn', mobile: '13912345678' }, t5);
    expect(a.code).toBe(20000);
    expect(a.message).toBe('已交付至 cw@example.cn、13912345678');
    const sent = await (s.db.kysely as unknown as Kysely<Record<string, { serial_no: string; email: string; mobile: string }>>).selectFrom('taxsim_deliveries').selectAll().where('serial_no', '=', inv.serial_no!).execute();
    expect(sent.map((d) => [d.email, d.mobile])).toEqual([['cw@example.cn', '13912345678']]);
    const hist = await s.call('/api/invoice/detail-history', { id: inv.id }, t5);
    expect(hist.r.operations[0].description).toContain('重新交付发票');
    const pending = await s.db.kysely.selectFrom('invoices').select('id').where('status', '=', InvoiceStatus.none).executeTakeFirstOrThrow();
    expect((await s.call('/api/invoice/send-invoice', { id: pending.id, email: 'cw@example.cn' }, t5)).message).toBe('只能交付已开具的发票');
    expect((await s.call('/api/invoice/send-invoice', { id: inv.id }, t5)).message).toContain('请填写邮箱或手机号');
    expect((await s.call('/api/invoice/send-invoice', { id: inv.id, mobile: '123' }, t5)).message).toBe('参数错误：手机号须为11位手机号码');
    const unknown = await s.call('/api/invoice/send-invoice', { id: history.id, email: 'cw@example.cn' }, t5);
    expect(unknown.message).toMatch(/^交付失败：|只能交付已开具的发票/);
  });
});

describe('数电红字 ledger', () => {
  it('lists every confirmation with its state and red invoice; the detail has its lines; the export re-reads', async () => {
    const list = await s.call('/api/invoiceredconfirm/digital-electric-red-ledger', { pageSize: 50 }, t11);
    const n = Number((await s.db.kysely.selectFrom('invoice_red_confirms').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    expect(list.r.total).toBe(n);
    const withRed = list.r.items.find((r: { redInvoiceId: string | null }) => r.redInvoiceId);
    expect(withRed.redInvoiceNo).not.toBe('');
    const d = await s.call('/api/invoiceredconfirm/digital-electric-red-ledger-detail', { id: withRed.id }, t11);
    expect(d.r.lines.length).toBeGreaterThan(0);
    expect(d.r.can).toBeUndefined();
    const only = await s.call('/api/invoiceredconfirm/digital-electric-red-ledger', { direction: 'buyer' }, t11);
    expect(only.r.items.every((r: { direction: string }) => r.direction === 'buyer')).toBe(true);
    const res = await s.app.inject({ method: 'POST', url: '/api/invoiceredconfirm/export-digital-electric-red-ledger', headers: { 'content-type': 'application/json', 'x-token': t11 }, payload: '{}' });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(ws.rowCount).toBe(n + 1);
    expect(ws.getRow(1).getCell(1).value).toBe('确认单编号');
    const bills = new Set<string>();
    ws.eachRow((row, i) => i > 1 && bills.add(String(row.getCell(10).value ?? '')));
    expect(bills.has(withRed.redInvoiceNo)).toBe(true);
  });
});

describe('role 11 reads every ledger and changes nothing', () => {
  it('gets 403 权限不足 on upload and send', async () => {
    const inv = await s.db.kysely.selectFrom('invoices').select('id').where('status', '=', InvoiceStatus.created).executeTakeFirstOrThrow();
    for (const [url, body] of [
      ['/api/invoice/upload-invoiceimg', { id: history.id, type: 1010, fileName: 'b.png', content: b64(PNG) }],
      ['/api/invoice/send-invoice', { id: inv.id, email: 'a@b.cn' }],
    ] as const) {
      const a = await s.call(url, body, t11);
      expect(a.status, url).toBe(403);
      expect(a.message, url).toBe('权限不足');
    }
    for (const url of ['/api/invoice/list', '/api/invoice/invoice-image', '/api/invoice/detail-history', '/api/invoice/detail']) {
      const a = await s.call(url, url === '/api/invoice/list' ? {} : { id: inv.id }, t11);
      expect(a.code, url).toBe(20000);
    }
  });
});
