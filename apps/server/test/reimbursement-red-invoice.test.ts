/**
 * Issue 29 item 2, reimbursement: a red invoice received is no money to pay out — it is not offered in the picker,
 * picking it or saving a line on it is refused (红字发票不能用于报销) — and a blue invoice partly reversed by a red
 * one backs a claim only up to its net amount (10,900.00 − 1,090.00 = 9,810.00).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IncomeUsage } from '@zhyy/shared';
import { RED_NOT_CLAIMABLE } from '../src/modules/income/identity/locks.js';
import type { TestServer } from './helpers.js';
import { nextDigital, shanghaiDay } from './income-helpers.js';
import { applyHelpers, header, line, person, startApplyServer } from './reimbursement-apply-fixture.js';

let s: TestServer;
const A = person();
const B = person();
const { call, invoice, usage } = applyHelpers(() => s);

beforeAll(async () => {
  ({ s } = await startApplyServer(A, B));
});
afterAll(() => s?.close());

const lines = (amount: number, tax: number) => [{ name: '*办公用品*打印纸', spec: '', unit: '箱', quantity: amount < 0 ? '-1' : '1', unitPrice: '100.00', amount, taxRate: '0.09', tax }];

describe('red invoices received and reimbursement', () => {
  let blueId = '';
  let redId = '';
  beforeAll(async () => {
    const blueNo = nextDigital();
    blueId = await invoice(A.id, { digitalNo: blueNo, issueDate: shanghaiDay(-8), amountExcl: 1_000_000, tax: 90_000, amountIncl: 1_090_000, lines: lines(1_000_000, 90_000) });
    redId = await invoice(A.id, { issueDate: shanghaiDay(-6), amountExcl: -100_000, tax: -9_000, amountIncl: -109_000, lines: lines(-100_000, -9_000), blueInvoiceNo: blueNo });
  });

  it('the picker offers the blue invoice, not the red one; asking for the red one says why', async () => {
    const all = await call('/invoice/candidates', {}, A.token);
    expect(all.code, all.message).toBe(20000);
    const ids = all.r.map((c: { id: string }) => c.id);
    expect(ids).toContain(blueId);
    expect(ids).not.toContain(redId);
    const one = await call('/invoice/candidates', { invoiceId: redId }, A.token);
    expect([one.code, one.message]).toEqual([30000, RED_NOT_CLAIMABLE]);
  });

  it('a line on the red invoice is refused and holds nothing', async () => {
    const a = await call('/bill/save', { ...header(), lines: [line({ invoiceId: redId, amount: 10_900 })] }, A.token);
    expect([a.code, a.message]).toEqual([30000, RED_NOT_CLAIMABLE]);
    expect((await usage(redId)).usage).toBe(IncomeUsage.available);
  });

  it('the blue invoice backs at most its net amount: 9,810.00 passes, 10,900.00 is short', async () => {
    const net = await call('/bill/save', { ...header(), lines: [line({ invoiceId: blueId, amount: 981_000 })] }, A.token);
    expect(net.code, net.message).toBe(20000);
    const d = (await call('/bill/get', { id: net.r.id }, A.token)).r;
    expect(d.lines[0].checks.map((c: { code: string }) => c.code)).not.toContain('invoiceShort');
    const full = await call('/bill/save', { id: net.r.id, ...header(), lines: [line({ invoiceId: blueId, amount: 1_090_000 })] }, A.token);
    expect(full.code, full.message).toBe(20000);
    const d2 = (await call('/bill/get', { id: net.r.id }, A.token)).r;
    expect(d2.lines[0].checks).toContainEqual({ code: 'invoiceShort', level: 'block', message: '发票金额 9,810.00 元小于报销金额 10,900.00 元' });
  });
});
