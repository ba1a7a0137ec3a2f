/**
 * Issue 17, the demo's outgoing invoices on the tender orders (seed/tender-invoices.ts), seeded with ten
 * frame contracts: 框架合同开票统计 shows invoiced amounts for most frames, no order invoiced above its
 * amount, so no row has a negative 未开票, while the invoices issued on a frame itself show apart in
 * 框架合同直接开票; the totals add up over the rows; each invoice's line multiplies out (单价 × 数量 =
 * 价税合计, tax computed), is issued after its contract was signed and not after today, and is allocated
 * to its contract and project as the issuing hook does. Each has exactly one PDF (and one XML), the
 * simulator's rendering of the invoice as stored (rendered again it is the same bytes; stored again it is
 * not duplicated), opened through a signed link as 发票台账's 打开PDF does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeLine, ContractType, InvoiceStatus, type FrameStatisticPage } from '@zhyy/shared';
import '../src/modules/invoice/apportionment/tables.js';
import { storeResultFiles } from '../src/modules/invoice/issuing/taxmap.js';
import { issuedFiles } from '../src/seed/tender-invoices.js';
import { startTestServer, TEST_DEMO, type TestServer } from './helpers.js';

let s: TestServer;
let token = '';
const k = () => s.db.kysely;

beforeAll(async () => {
  s = await startTestServer({ demoOptions: { ...TEST_DEMO, tenderFrames: 10 } });
  token = await s.login('demo1');
}, 300_000);
afterAll(() => s?.close());

const statistic = async (): Promise<FrameStatisticPage> => {
  const a = await s.call('/api/tender/contract/frame-statistic', { pageIndex: 1, pageSize: 500 }, token);
  expect(a.code, a.message).toBe(20000);
  return a.r as FrameStatisticPage;
};

/** The demo's invoices on tender contracts (TB-…), with their contract. */
const tenderInvoices = () =>
  k()
    .selectFrom('invoices as i')
    .innerJoin('contracts as c', 'c.id', 'i.contract_id')
    .where('c.code', 'like', 'TB-%')
    .select(['i.id', 'i.status', 'i.issue_date', 'i.amount_excl', 'i.tax', 'i.amount_incl', 'i.project_id', 'c.id as contract_id', 'c.contract_type', 'c.signed_on', 'c.amount', 'c.project_id as contract_project'])
    .execute();

describe('demo invoices on the tender orders', () => {
  it('most frames show invoiced amounts; no row has a negative 未开票; invoices on a frame show apart', async () => {
    const p = await statistic();
    const frames = p.items.filter((r) => r.code.startsWith('TB-KJ-'));
    expect(frames.length).toBe(10);
    expect(frames.filter((r) => r.invoiced > 0).length).toBeGreaterThan(frames.length / 2);
    for (const r of p.items) {
      expect(r.remaining, r.code).toBe(r.orderAmount - r.invoiced);
      expect(r.remaining, r.code).toBeGreaterThanOrEqual(0);
    }
    const direct = frames.filter((r) => r.frameInvoiced > 0);
    expect(direct.length).toBeGreaterThan(0);
    // A frame's 已开票 is what its orders' allocations hold, not its own invoices.
    const onOrders = await k()
      .selectFrom('invoice_allocations as a')
      .innerJoin('invoices as i', 'i.id', 'a.invoice_id')
      .innerJoin('contracts as o', 'o.id', 'a.target_id')
      .where('a.dim', '=', 'contract')
      .where('i.status', '=', InvoiceStatus.created)
      .where('o.contract_type', '=', ContractType.order)
      .select(['o.parent_id', 'a.amount_incl'])
      .execute();
    for (const r of direct) expect(r.invoiced).toBe(onOrders.filter((x) => x.parent_id === r.id).reduce((a, x) => a + Number(x.amount_incl), 0));
    // Some orders are invoiced in full, some in part, some not at all.
    const orders = await k().selectFrom('contracts').select(['id', 'amount']).where('code', 'like', 'TB-DD-%').execute();
    const byOrder = new Map<string, number>();
    for (const x of await tenderInvoices()) if (x.contract_type === ContractType.order) byOrder.set(x.contract_id, (byOrder.get(x.contract_id) ?? 0) + Number(x.amount_incl));
    const full = orders.filter((o) => byOrder.get(o.id) === Number(o.amount)).length;
    const none = orders.filter((o) => !byOrder.has(o.id)).length;
    expect(full).toBeGreaterThan(0);
    expect(none).toBeGreaterThan(0);
    expect(orders.length - full - none).toBeGreaterThan(0);
    expect(byOrder.size).toBeGreaterThan(orders.length / 4);
  });

  it('the totals add up over the rows', async () => {
    const p = await statistic();
    const sum = (f: (r: FrameStatisticPage['items'][number]) => number) => p.items.reduce((a, r) => a + f(r), 0);
    expect(p.totals).toEqual({
      frameAmount: sum((r) => r.frameAmount), orderAmount: sum((r) => r.orderAmount), invoiced: sum((r) => r.invoiced), frameInvoiced: sum((r) => r.frameInvoiced),
      remaining: sum((r) => r.remaining), orderCount: sum((r) => r.orderCount),
    });
    expect(p.totals.invoiced).toBeGreaterThan(0);
  });

  it('each invoice multiplies out, is dated after its contract was signed, never above its amount, and is allocated', async () => {
    const invoices = await tenderInvoices();
    expect(invoices.length).toBeGreaterThan(20);
    const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
    const lines = await k().selectFrom('invoice_lines').selectAll().where('invoice_id', 'in', invoices.map((i) => i.id)).execute();
    const allocations = await k().selectFrom('invoice_allocations').select(['invoice_id', 'dim', 'target_id', 'amount_incl']).where('invoice_id', 'in', invoices.map((i) => i.id)).execute();
    const perContract = new Map<string, number>();
    for (const i of invoices) {
      expect(i.status).toBe(InvoiceStatus.created);
      expect(i.issue_date! > i.signed_on!, `${i.id} ${i.issue_date} ${i.signed_on}`).toBe(true);
      expect(i.issue_date! <= today).toBe(true);
      const mine = lines.filter((l) => l.invoice_id === i.id);
      expect(mine).toHaveLength(1);
      const l = mine[0]!;
      expect(Math.round(Number(l.quantity) * Number(l.unit_price) * 100)).toBe(Number(l.amount_incl));
      const c = computeLine({ quantity: l.quantity, unitPrice: l.unit_price, priceIncludesTax: true, taxRate: l.tax_rate });
      expect([Number(l.amount_excl), Number(l.tax), Number(l.amount_incl)]).toEqual([c.amountExcl, c.tax, c.amountIncl]);
      expect([Number(i.amount_excl), Number(i.tax), Number(i.amount_incl)]).toEqual([c.amountExcl, c.tax, c.amountIncl]);
      expect(i.project_id).toBe(i.contract_project);
      const a = allocations.filter((x) => x.invoice_id === i.id);
      expect(a.map((x) => [x.dim, x.target_id, Number(x.amount_incl)]).sort()).toEqual([['contract', i.contract_id, c.amountIncl], ['project', i.project_id, c.amountIncl]].sort());
      perContract.set(i.contract_id, (perContract.get(i.contract_id) ?? 0) + c.amountIncl);
    }
    for (const i of invoices) expect(perContract.get(i.contract_id)!).toBeLessThanOrEqual(Number(i.amount));
  });

  it('each invoice has exactly one PDF (and one XML), the simulator\'s rendering of it as stored, opened through a signed link', async () => {
    const invoices = await tenderInvoices();
    const ids = invoices.map((i) => i.id);
    const files = await k()
      .selectFrom('invoice_files as f')
      .innerJoin('invoice_blobs as b', 'b.sha256', 'f.sha256')
      .select(['f.id', 'f.invoice_id', 'f.format', 'f.name', 'f.mime', 'f.sha256', 'b.content'])
      .where('f.invoice_id', 'in', ids)
      .execute();
    const numbers = new Map((await k().selectFrom('invoices').select(['id', 'invoice_no']).where('id', 'in', ids).execute()).map((i) => [i.id, i.invoice_no]));
    for (const id of ids) {
      const mine = files.filter((f) => f.invoice_id === id);
      expect(mine.map((f) => [f.format, f.name, f.mime]).sort(), id).toEqual([['pdf', `${numbers.get(id)}.pdf`, 'application/pdf'], ['xml', `${numbers.get(id)}.xml`, 'application/xml']]);
      const pdf = Buffer.from(mine.find((f) => f.format === 'pdf')!.content);
      expect(pdf.subarray(0, 5).toString('latin1'), id).toBe('%PDF-');
      expect(Buffer.from(mine.find((f) => f.format === 'xml')!.content).toString('utf8'), id).toContain(numbers.get(id)!);
    }
    // One invoice on an order and one on a frame: rendered again from the stored row, the same bytes; stored again, no second file.
    const picks = [invoices.find((i) => i.contract_type === ContractType.order)!, invoices.find((i) => i.contract_type === ContractType.frame)!];
    for (const p of picks) {
      const inv = await k().selectFrom('invoices').selectAll().where('id', '=', p.id).executeTakeFirstOrThrow();
      const lines = await k().selectFrom('invoice_lines').selectAll().where('invoice_id', '=', p.id).orderBy('line_no').execute();
      const again = await issuedFiles(inv, lines);
      const stored = files.find((f) => f.invoice_id === p.id && f.format === 'pdf')!;
      expect(again[0]!.content.equals(Buffer.from(stored.content))).toBe(true);
      await storeResultFiles(k(), p.id, { files: again });
      expect((await k().selectFrom('invoice_files').select('id').where('invoice_id', '=', p.id).execute()).length).toBe(2);
      // 发票台账's 打开PDF: a signed link that serves the PDF.
      const link = await s.call('/api/invoice/file-link', { fileId: stored.id }, token);
      expect([link.code, link.message]).toEqual([20000, undefined]);
      const got = await s.app.inject({ method: 'GET', url: link.r.url });
      expect(got.statusCode).toBe(200);
      expect(got.headers['content-type']).toContain('application/pdf');
      expect(Buffer.from(got.rawPayload).equals(Buffer.from(stored.content))).toBe(true);
    }
  });
});
