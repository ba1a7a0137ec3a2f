/** What a paper (税控) invoice cannot do here, and the messages that tell the user where to go instead. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvoiceColour, InvoiceKind, InvoiceStatus } from '@zhyy/shared';
import type { TestServer } from './helpers.js';
import { startInvoiceServer } from './invoice-helpers.js';

let s: TestServer;
let t5: string;

beforeAll(async () => {
  s = await startInvoiceServer();
  t5 = await s.login('demo5');
});
afterAll(() => s?.close());

const paperInvoice = () =>
  s.db.kysely
    .selectFrom('invoices')
    .select(['id', 'issue_date'])
    .where('kind', 'in', [InvoiceKind.c, InvoiceKind.s])
    .where('colour', '=', InvoiceColour.blue)
    .where('status', '=', InvoiceStatus.created)
    .orderBy('issue_date')
    .executeTakeFirstOrThrow();

describe('paper invoices', () => {
  it('a paper invoice of an earlier month is not cancelled: the red invoice is issued in the 税控 system', async () => {
    const paper = await paperInvoice();
    await s.db.kysely.updateTable('invoices').set({ issue_date: '2025-01-15' }).where('id', '=', paper.id).execute();
    const r = await s.call('/api/invoice/invoice-cancellation', { ids: [paper.id], reason: '开具错误' }, t5);
    expect(r.r.results[0].message).toBe('只能作废当月开具的发票；跨月的纸质发票须在税控开票系统中凭红字信息表开具红字发票');
    // Nothing cancelled: a refusal, 30000 with the reason, never 20000 (issue 27 item 8).
    expect([r.code, r.message]).toEqual([30000, '只能作废当月开具的发票；跨月的纸质发票须在税控开票系统中凭红字信息表开具红字发票']);
    expect(r.r).toMatchObject({ succeeded: 0, failed: 1 });
    expect((await s.db.kysely.selectFrom('invoices').select('status').where('id', '=', paper.id).executeTakeFirstOrThrow()).status).toBe(InvoiceStatus.created);
  });

  it('a red-letter confirmation is for 数电 invoices only', async () => {
    const paper = await paperInvoice();
    const r = await s.call('/api/invoiceredconfirm/create', { blueInvoiceId: paper.id }, t5);
    expect([r.code, r.message]).toEqual([30000, '红字确认单只适用于数电发票；纸质发票请在当月作废，跨月的须在税控开票系统中开具红字发票']);
  });
});
