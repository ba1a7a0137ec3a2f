/** The entry form's save call: amount-only lines from 开票申请, 含税/不含税 lines, 规格型号 and 单位, 交付手机 and 交付邮箱. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeLine, FlowState, type InvoiceSaveBody } from '@zhyy/shared';
import { importRequest } from '../src/modules/invoice/issuing/entry.js';
import { wf } from '../src/modules/workflow/tables.js';
import type { TestServer } from './helpers.js';
import { buyer, entryBody, startInvoiceServer } from './invoice-helpers.js';

let s: TestServer;
let t5: string;
const BUYER = '江苏长江路桥建设有限公司';

beforeAll(async () => {
  s = await startInvoiceServer();
  t5 = await s.login('demo5');
});
afterAll(() => s?.close());

/** A completed 开票申请 (KP01) with the given lines, copied from a demo one, turned into a request; returns its id. */
async function importedRequest(lines: Array<Record<string, unknown>>): Promise<string> {
  const k = wf(s.db.kysely);
  const { work_id: _, ...model } = await k.selectFrom('wf_instances').selectAll().where('flow_no', '=', 'KP01').where('state', '=', FlowState.complete).executeTakeFirstOrThrow();
  const form = { ...(JSON.parse(model.form_data) as object), buyer: BUYER, lines };
  const row = await k.insertInto('wf_instances').values({ ...model, form_data: JSON.stringify(form), record_type: null, record_id: null }).returning('work_id').executeTakeFirstOrThrow();
  const settings = await s.db.kysely.selectFrom('invoice_settings').selectAll().executeTakeFirstOrThrow();
  const id = await importRequest(s.db.kysely, { workId: Number(row.work_id), form, starterId: model.starter_id, starterName: model.starter_name, at: model.finished_at ?? '' }, settings);
  expect(id).toBeTruthy();
  return id!;
}

async function detail(id: string) {
  const a = await s.call('/api/invoice/detail', { id }, t5);
  expect(a.code).toBe(20000);
  return a.r;
}

/** The save body the drawer sends for an existing request. */
function editBody(d: Record<string, any>, lines: InvoiceSaveBody['lines']): InvoiceSaveBody {
  return {
    id: d.id, kind: d.kind, buyerId: d.buyerId, buyerName: d.buyerName, buyerTaxNo: d.buyerTaxNo, buyerAddress: d.buyerAddress, buyerPhone: d.buyerPhone, buyerBank: d.buyerBank,
    buyerAccount: d.buyerAccount, buyerEmail: d.buyerEmail, buyerMobile: d.buyerMobile, projectId: d.projectId, contractId: d.contractId, specialFactor: d.specialFactor,
    constructionSite: d.constructionSite, constructionProject: d.constructionProject, remark: d.remark, clerk: d.clerk, payee: d.payee, checker: d.checker, lines,
  };
}

const stripNo = (lines: Array<Record<string, unknown>>) => lines.map(({ lineNo: _, ...l }) => l) as InvoiceSaveBody['lines'];

describe('amount-only lines from 开票申请', () => {
  it('imports a line without quantity and unit price with its amount, and saves it again unchanged', async () => {
    const id = await importedRequest([
      { goods: '*建筑服务*工程服务', spec: '', unit: '', taxRate: '9%', amount: 109000 },
      { goods: '*现代服务*技术咨询', spec: 'A型', unit: '次', quantity: 0, taxRate: '6%', amount: 10600 },
    ]);
    const d = await detail(id);
    expect(d.lines.map((l: any) => [l.quantity, l.unitPrice, l.amountExcl, l.tax, l.amountIncl])).toEqual([['', '', 100000, 9000, 109000], ['', '', 10000, 600, 10600]]);
    const saved = await s.call('/api/invoice/save', editBody(d, stripNo(d.lines)), t5);
    expect(saved.code, saved.message).toBe(20000);
    const again = await detail(id);
    expect(again.lines.map((l: any) => [l.quantity, l.unitPrice, l.spec, l.unit, l.amountIncl])).toEqual([['', '', '', '', 109000], ['', '', 'A型', '次', 10600]]);
    expect(again.amountIncl).toBe(119600);
  });

  it('cuts an imported 规格型号 and 单位 to their limits so the request stays editable', async () => {
    const id = await importedRequest([{ goods: '*建筑服务*工程服务', spec: 'S'.repeat(50), unit: 'U'.repeat(30), quantity: 2, taxRate: '9%', amount: 218000 }]);
    const d = await detail(id);
    expect([d.lines[0].spec.length, d.lines[0].unit.length, d.lines[0].quantity, d.lines[0].unitPrice]).toEqual([40, 20, '2', '1090']);
    expect((await s.call('/api/invoice/save', editBody(d, stripNo(d.lines)), t5)).code).toBe(20000);
  });
});

describe('含税 and 不含税 lines', () => {
  it('stores a line priced excluding tax as computed, and reads it back', async () => {
    const b = entryBody(await buyer(s, BUYER));
    const a = computeLine({ quantity: '2', unitPrice: '500', priceIncludesTax: false, taxRate: '0.09' });
    b.lines = [{ ...b.lines[0]!, quantity: '2', unitPrice: '500', priceIncludesTax: false, ...a }];
    const saved = await s.call('/api/invoice/save', b, t5);
    expect(saved.code).toBe(20000);
    const d = await detail(saved.r.id);
    expect(d.lines[0]).toMatchObject({ priceIncludesTax: false, quantity: '2', unitPrice: '500', amountExcl: 100000, tax: 9000, amountIncl: 109000 });
    expect([d.amountExcl, d.tax, d.amountIncl]).toEqual([100000, 9000, 109000]);
  });

  it('refuses amounts computed on the other basis than the line says', async () => {
    const b = entryBody(await buyer(s, BUYER));
    b.lines = [{ ...b.lines[0]!, priceIncludesTax: false }];
    const a = await s.call('/api/invoice/save', b, t5);
    expect(a.code).toBe(30000);
    expect(a.message).toContain('第1行：数量×单价与金额不符');
  });
});

describe('规格型号, 单位, 交付手机 and 交付邮箱', () => {
  it('saves them and refuses them too long or malformed, in Chinese', async () => {
    const b = entryBody(await buyer(s, BUYER));
    b.lines[0] = { ...b.lines[0]!, spec: 'DN100×2.5', unit: '米' };
    const saved = await s.call('/api/invoice/save', { ...b, buyerMobile: '13812345678', buyerEmail: 'finance@example.com' }, t5);
    expect(saved.code).toBe(20000);
    const d = await detail(saved.r.id);
    expect([d.lines[0].spec, d.lines[0].unit, d.buyerMobile, d.buyerEmail]).toEqual(['DN100×2.5', '米', '13812345678', 'finance@example.com']);

    const cases: Array<[Partial<InvoiceSaveBody>, string]> = [
      [{ lines: [{ ...b.lines[0]!, spec: 'S'.repeat(41) }] }, '规格型号不能超过40个字符'],
      [{ lines: [{ ...b.lines[0]!, unit: 'U'.repeat(21) }] }, '单位不能超过20个字符'],
      [{ buyerMobile: '025-83451234' }, '交付手机须为11位手机号码'],
      [{ buyerMobile: '1381234567' }, '交付手机须为11位手机号码'],
      [{ buyerEmail: 'finance@' }, '邮箱格式不正确'],
    ];
    for (const [change, message] of cases) {
      const a = await s.call('/api/invoice/save', { ...b, ...change }, t5);
      expect([a.status, a.message]).toEqual([400, expect.stringContaining(message)]);
    }
  });
});
