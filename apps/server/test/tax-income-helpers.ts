/** Shared pieces of the incoming-invoice gateway tests: the company (the buyer) and collecting a whole window. */
import { expect } from 'vitest';
import type { IncomeCollectPage, IncomingInvoice, TaxGateway } from '../src/integrations/tax/index.js';

export const COMPANY = { name: '华建工程技术服务有限公司', taxNumber: '91110000600037341L' };

/** Every page of a window (checks that the pages add up to the total). */
export async function collectAll(gw: TaxGateway, from: string, to: string, pageSize = 500): Promise<IncomingInvoice[]> {
  const out: IncomingInvoice[] = [];
  let cursor: string | undefined;
  let page: IncomeCollectPage;
  do {
    page = await gw.collectIncoming({ from, to, pageSize, ...(cursor ? { cursor } : {}) });
    out.push(...page.invoices);
    cursor = page.nextCursor;
  } while (cursor);
  expect(out.length).toBe(page.total);
  return out;
}
