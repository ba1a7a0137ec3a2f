/** The tax service simulator: asynchronous progression, failures, re-issue limit, cancellation, restart, sync log. */
import { SyncLogStatus } from '@zhyy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaxErrorCode, TaxGatewayError, TaxMessages, taxMethodLabel } from '../src/integrations/tax/index.js';
import type { TestServer } from './helpers.js';
import { DELAY, TestClock, line, request, simulator, taxLogs, startGatewayTestServer } from './tax-helpers.js';

let s: TestServer;
beforeAll(async () => {
  s = await startGatewayTestServer();
});
afterAll(async () => {
  await s.close();
});

async function refusal(p: Promise<unknown>): Promise<TaxGatewayError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TaxGatewayError);
  return err as TaxGatewayError;
}

describe('issuing', () => {
  it('goes creating 20 → signing 21 → created 2 as the clock passes the delay', async () => {
    const clock = new TestClock();
    const gw = simulator(s, clock);
    const sub = await gw.submitInvoice(request('SIM-A1'));
    expect(sub).toMatchObject({ orderNo: 'SIM-A1', duplicate: false });
    expect(sub.serialNo).toMatch(/^\d{20}$/);

    let [r] = await gw.queryInvoices([sub.serialNo]);
    expect(r).toMatchObject({ status: 20, statusMessage: '开票中', files: [] });
    expect(r!.invoiceNo).toBeUndefined();
    clock.advance(DELAY - 1);
    [r] = await gw.queryInvoices([sub.serialNo]);
    expect(r!.status).toBe(20);
    clock.advance(1);
    [r] = await gw.queryInvoices([sub.serialNo]);
    expect(r!.status).toBe(21);
    clock.advance(DELAY);
    [r] = await gw.queryInvoices([sub.serialNo]);
    expect(r!.status).toBe(2);
    expect(r!.allElectronicNo).toMatch(/^\d{20}$/);
    expect(r!.invoiceNo).toBe(r!.allElectronicNo);
    expect(r!.issuedAt).toBe('2026-11-21 10:00:06');
    expect(r).toMatchObject({ kind: 9, colour: 1, amountExcludingTax: 1_300_050, tax: 108_003, amountIncludingTax: 1_408_053 });
    expect(r!.files.map((f) => f.type)).toEqual(['pdf', 'xml']);
    expect(r!.files[0]!.content.subarray(0, 5).toString()).toBe('%PDF-');
    expect(r!.files[1]!.content.toString()).toContain(`<InvoiceNumber>${r!.invoiceNo}</InvoiceNumber>`);

    const again = await gw.queryInvoicesByOrderNo(['SIM-A1']);
    expect(again[0]!.invoiceNo).toBe(r!.invoiceNo);
  });

  it('skips straight to the result when asked late, and numbers paper invoices with a code', async () => {
    const clock = new TestClock();
    const gw = simulator(s, clock);
    const sub = await gw.submitInvoice(request('SIM-P1', { kind: 2 }));
    clock.advance(10 * DELAY);
    const [r] = await gw.queryInvoices([sub.serialNo]);
    expect(r!.status).toBe(2);
    expect(r!.invoiceCode).toMatch(/^\d{10}$/);
    expect(r!.invoiceNo).toMatch(/^\d{8}$/);
    expect(r!.allElectronicNo).toBeUndefined();
  });

  it('answers a repeated order number with the first serial (E9106), also when sent twice at once', async () => {
    const clock = new TestClock();
    const gw = simulator(s, clock);
    const first = await gw.submitInvoice(request('SIM-D1'));
    const second = await gw.submitInvoice(request('SIM-D1'));
    expect(second).toEqual({ orderNo: 'SIM-D1', serialNo: first.serialNo, duplicate: true });
    const both = await Promise.all([gw.submitInvoice(request('SIM-D2')), gw.submitInvoice(request('SIM-D2'))]);
    expect(both[0].serialNo).toBe(both[1].serialNo);
    expect(both.filter((b) => b.duplicate)).toHaveLength(1);
    const rows = await s.db.kysely.selectFrom('sync_logs').select('memo').where('memo', 'like', '%SIM-D1%E9106%').execute();
    expect(rows).toHaveLength(1);
  });

  it('refuses invalid requests with the service-side Chinese message', async () => {
    const gw = simulator(s, new TestClock());
    const bad = await refusal(gw.submitInvoice(request('SIM-V1', { lines: [line({ taxCode: '305010' })] })));
    expect(bad.serviceCode).toBe(TaxErrorCode.invalid);
    expect(bad.message).toBe('第1行明细税收分类编码须为19位数字');
    expect((await refusal(gw.submitInvoice(request('SIM-V2', { lines: [line({ tax: 90_100, amountIncludingTax: 1_090_100 })] })))).message).toBe('第1行明细税额与金额×税率相差超过0.06元');
    expect((await refusal(gw.submitInvoice(request('SIM-V3', { lines: [line({ amountIncludingTax: 1 })] })))).message).toBe('第1行明细不含税金额与税额之和不等于含税金额');
    expect((await refusal(gw.submitInvoice(request('SIM-V4', { colour: 2, redReason: 1, blueInvoiceNo: '1' })))).message).toBe('第1行明细红字发票数量须为负数');
    expect((await refusal(gw.submitInvoice(request('SIM-V5', { specialFactor: 31 })))).message).toBe('建筑服务发票必须填写建筑项目名称和建筑服务发生地');
    const [log] = (await taxLogs(s)).filter((l) => l.request?.includes('SIM-V1'));
    expect(log).toMatchObject({ status: SyncLogStatus.failure, memo: '第1行明细税收分类编码须为19位数字', type: 'nuonuo.OpeMplatform.requestBillingNew' });
  });
});

describe('failures and re-issue', () => {
  it('fails a buyer named 测试失败 with 22, and refuses to re-issue it', async () => {
    const clock = new TestClock();
    const gw = simulator(s, clock);
    const sub = await gw.submitInvoice(request('SIM-F1', { buyer: { name: '测试失败有限公司', taxNumber: '91440101MA5CM2K81U' } }));
    clock.advance(DELAY);
    const [r] = await gw.queryInvoices([sub.serialNo]);
    expect(r!.status).toBe(22);
    expect(r!.failCause).toContain('税局校验未通过');
    clock.advance(10 * DELAY);
    expect((await gw.queryInvoices([sub.serialNo]))[0]!.status).toBe(22);
    expect((await refusal(gw.reissueInvoice(sub.serialNo))).message).toBe('开票失败的发票请修改后以新的订单号重新提交');
  });

  it('fails 测试失败签章 with 24 at every attempt, 20 re-issues a day, then E9613; a new day resets', async () => {
    const clock = new TestClock();
    const gw = simulator(s, clock);
    const sub = await gw.submitInvoice(request('SIM-F2', { buyer: { name: '测试失败签章公司', taxNumber: '91440101MA5CM2K81U' } }));
    expect((await refusal(gw.reissueInvoice(sub.serialNo))).message).toBe('开票中（重试中），请耐心等待开票结果');
    clock.advance(2 * DELAY);
    expect((await gw.queryInvoices([sub.serialNo]))[0]).toMatchObject({ status: 24, failCause: '电子签章服务异常，签章失败（模拟）' });
    for (let i = 0; i < 20; i++) {
      await gw.reissueInvoice(sub.serialNo);
      expect((await gw.queryInvoices([sub.serialNo]))[0]!.status).toBe(21);
      clock.advance(DELAY);
      expect((await gw.queryInvoices([sub.serialNo]))[0]!.status).toBe(24);
    }
    const limit = await refusal(gw.reissueInvoice(sub.serialNo));
    expect(limit.serviceCode).toBe('E9613');
    expect(limit.message).toBe(TaxMessages.reissueLimit);
    clock.advance(24 * 3600_000);
    await gw.reissueInvoice(sub.serialNo);
  });

  it('fails the order numbers in failOrders whatever the buyer, and draws re-issues as usual', async () => {
    const clock = new TestClock();
    const gw = simulator(s, clock, { failOrders: { 'SIM-O22': 22, 'SIM-O24': 24 } });
    const s22 = await gw.submitInvoice(request('SIM-O22'));
    const s24 = await gw.submitInvoice(request('SIM-O24'));
    const fine = await gw.submitInvoice(request('SIM-O00'));
    clock.advance(2 * DELAY);
    const states = await gw.queryInvoices([s22.serialNo, s24.serialNo, fine.serialNo]);
    expect(states.map((r) => r.status)).toEqual([22, 24, 2]);
    await gw.reissueInvoice(s24.serialNo);
    clock.advance(DELAY);
    expect((await gw.queryInvoices([s24.serialNo]))[0]!.status).toBe(2);
  });

  it('applies the failure rate at submit and lets a re-issue of a random 24 succeed', async () => {
    const clock = new TestClock();
    const draws = [0.1, 0.2];
    const failing = simulator(s, clock, { failureRate: 0.5 }, () => draws.shift() ?? 0.99);
    const sub = await failing.submitInvoice(request('SIM-R1'));
    clock.advance(2 * DELAY);
    expect((await failing.queryInvoices([sub.serialNo]))[0]!.status).toBe(24);
    await failing.reissueInvoice(sub.serialNo);
    clock.advance(DELAY);
    const [r] = await failing.queryInvoices([sub.serialNo]);
    expect(r!.status).toBe(2);
    expect(r!.failCause).toBeUndefined();
    const never = simulator(s, clock, { failureRate: 0 }, () => 0);
    const ok = await never.submitInvoice(request('SIM-R2'));
    clock.advance(2 * DELAY);
    expect((await never.queryInvoices([ok.serialNo]))[0]!.status).toBe(2);
    const always = simulator(s, clock, { failureRate: 1 }, () => 0.7);
    const ko = await always.submitInvoice(request('SIM-R3'));
    clock.advance(DELAY);
    expect((await always.queryInvoices([ko.serialNo]))[0]!.status).toBe(22);
  });

  it('refuses re-issuing a created invoice or an unknown serial', async () => {
    const clock = new TestClock();
    const gw = simulator(s, clock);
    const sub = await gw.submitInvoice(request('SIM-R4'));
    clock.advance(2 * DELAY);
    expect((await refusal(gw.reissueInvoice(sub.serialNo))).message).toBe('发票已生成，无需再重试开票');
    expect((await refusal(gw.reissueInvoice('99999999999999999999'))).serviceCode).toBe(TaxErrorCode.notFound);
  });
});

describe('restart', () => {
  it('continues in a new gateway instance on the same database, with no result lost or doubled', async () => {
    const clock = new TestClock();
    const before = simulator(s, clock);
    const sub = await before.submitInvoice(request('SIM-S1'));
    clock.advance(DELAY);
    expect((await before.queryInvoices([sub.serialNo]))[0]!.status).toBe(21);
    clock.advance(DELAY);
    const after = simulator(s, clock);
    const [r1] = await after.queryInvoices([sub.serialNo]);
    const [r2] = await before.queryInvoices([sub.serialNo]);
    expect(r1!.status).toBe(2);
    expect(r2!.invoiceNo).toBe(r1!.invoiceNo);
    const resubmitted = await after.submitInvoice(request('SIM-S1'));
    expect(resubmitted).toMatchObject({ serialNo: sub.serialNo, duplicate: true });
  });

  it('numbers each invoice once when many readers finish it at the same moment', async () => {
    const clock = new TestClock();
    const gw = simulator(s, clock);
    const sub = await gw.submitInvoice(request('SIM-S2'));
    clock.advance(2 * DELAY);
    const results = await Promise.all([0, 1, 2].map(() => simulator(s, clock).queryInvoices([sub.serialNo])));
    expect(new Set(results.map((r) => r[0]!.invoiceNo)).size).toBe(1);
  });
});

describe('cancellation and delivery', () => {
  it('cancels a paper invoice of the month: canceling 31 → cancelled 3', async () => {
    const clock = new TestClock();
    const gw = simulator(s, clock);
    const sub = await gw.submitInvoice(request('SIM-C1', { kind: 1 }));
    clock.advance(2 * DELAY);
    const [r] = await gw.queryInvoices([sub.serialNo]);
    const cancel = { serialNo: sub.serialNo, invoiceNo: r!.invoiceNo!, invoiceCode: r!.invoiceCode!, reason: '开票信息有误' };
    expect(await gw.cancelInvoice(cancel)).toEqual({ serialNo: sub.serialNo, status: 31 });
    expect((await gw.queryInvoices([sub.serialNo]))[0]!.status).toBe(31);
    clock.advance(DELAY);
    expect((await gw.queryInvoices([sub.serialNo]))[0]!.status).toBe(3);
    expect(await gw.cancelInvoice(cancel)).toEqual({ serialNo: sub.serialNo, status: 3 });
  });

  it('refuses 数电 invoices, invoices in progress and those of an earlier month', async () => {
    const clock = new TestClock();
    const gw = simulator(s, clock);
    const digital = await gw.submitInvoice(request('SIM-C2'));
    const paper = await gw.submitInvoice(request('SIM-C3', { kind: 2 }));
    clock.advance(2 * DELAY);
    const [d, p] = await gw.queryInvoices([digital.serialNo, paper.serialNo]).then((rs) => [rs.find((x) => x.serialNo === digital.serialNo)!, rs.find((x) => x.serialNo === paper.serialNo)!]);
    expect((await refusal(gw.cancelInvoice({ serialNo: d!.serialNo, invoiceNo: d!.invoiceNo!, reason: '错开' }))).message).toBe(TaxMessages.cancelDigital);
    const pending = await gw.submitInvoice(request('SIM-C4', { kind: 1 }));
    expect((await refusal(gw.cancelInvoice({ serialNo: pending.serialNo, invoiceNo: '', reason: '错开' }))).serviceCode).toBe(TaxErrorCode.notFound);
    clock.advance(40 * 86_400_000);
    expect((await refusal(gw.cancelInvoice({ serialNo: p!.serialNo, invoiceNo: p!.invoiceNo!, invoiceCode: p!.invoiceCode!, reason: '错开' }))).message).toBe('只能作废当月开具的发票，跨月发票请开具红字发票');
  });

  it('delivers an issued invoice by email or phone and refuses one not issued', async () => {
    const clock = new TestClock();
    const gw = simulator(s, clock);
    const sub = await gw.submitInvoice(request('SIM-E1'));
    expect((await refusal(gw.sendInvoice({ serialNo: sub.serialNo, email: 'a@example.com' }))).message).toBe('只能交付已开具的发票');
    clock.advance(2 * DELAY);
    expect((await refusal(gw.sendInvoice({ serialNo: sub.serialNo, email: 'not-an-email' }))).message).toBe('交付邮箱格式不正确');
    await gw.sendInvoice({ serialNo: sub.serialNo, email: 'a@example.com', mobile: '13800138000' });
    const rows = await s.db.kysely.withTables<{ taxsim_deliveries: { serial_no: string; email: string | null; mobile: string | null } }>().selectFrom('taxsim_deliveries').selectAll().where('serial_no', '=', sub.serialNo).execute();
    expect(rows).toMatchObject([{ email: 'a@example.com', mobile: '13800138000' }]);
  });
});

describe('sync log', () => {
  it('writes one row per exchange with method, bodies and memo, never the file contents', async () => {
    const clock = new TestClock();
    const gw = simulator(s, clock);
    const before = (await taxLogs(s)).length;
    const sub = await gw.submitInvoice(request('SIM-L1'), { userId: null });
    clock.advance(2 * DELAY);
    await gw.queryInvoices([sub.serialNo]);
    const rows = (await taxLogs(s)).slice(before);
    expect(rows.map((r) => r.type)).toEqual(['nuonuo.OpeMplatform.requestBillingNew', 'nuonuo.OpeMplatform.queryInvoiceResult']);
    expect(rows.map((r) => taxMethodLabel(r.type))).toEqual(['请求开票', '查询开票结果']);
    expect(rows[0]!.request).toContain('"orderNo": "SIM-L1"');
    expect(rows[0]!.memo).toBe(`订单号 SIM-L1：开票提交成功，流水号 ${sub.serialNo}`);
    expect(rows[1]!.response).toContain('"bytes"');
    expect(rows[1]!.response).not.toContain('JVBERi0');
    expect(rows[1]!.memo).toBe(`${sub.serialNo} 开票完成（最终状态）`);
    expect(rows.every((r) => r.status === SyncLogStatus.success)).toBe(true);
  });
});
