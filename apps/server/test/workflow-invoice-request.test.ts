/**
 * The live path of 开票申请 (KP01): started and approved node by node through the workflow API by
 * the handlers the engine assigns, then seen by 一键开票 (/api/invoice/list-for-creation) as a
 * request ready to issue, once, with the form's buyer, kind and amount.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FlowState, InvoiceKind, InvoiceStatus, SourceKind } from '@zhyy/shared';
import { wf } from '../src/modules/workflow/tables.js';
import { startTestServer, type TestServer } from './helpers.js';
import { openHandlers } from './workflow-helpers.js';

const WF = '/api/miswf/workflow';
let s: TestServer;
const tokens = new Map<string, string>();

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

async function tokenOf(login: string): Promise<string> {
  if (!tokens.has(login)) tokens.set(login, await s.login(login));
  return tokens.get(login)!;
}

const loginOf = async (userId: string) =>
  (await wf(s.db.kysely).selectFrom('users').select('login_name').where('id', '=', userId).executeTakeFirstOrThrow()).login_name;

/** The pending requests of 一键开票 for one buyer, as demo5 (销项会计) sees them. */
async function pendingFor(buyerName: string) {
  const a = await s.call('/api/invoice/list-for-creation', { tab: 'pending', buyerName, pageSize: 100 }, await tokenOf('demo5'));
  expect(a.code).toBe(20000);
  return a.r.items as Array<Record<string, unknown>>;
}

describe('开票申请 (KP01) from the workflow to 一键开票', () => {
  it('approved through every node over HTTP, it becomes one request ready to issue', async () => {
    const k = s.db.kysely;
    const buyer = await k.selectFrom('invoice_buyers').selectAll().orderBy('name').executeTakeFirstOrThrow();
    const project = await k.selectFrom('projects').select(['id', 'name']).orderBy('code').executeTakeFirstOrThrow();
    // More than 100万元: 部门负责人, 销项会计 and 财务负责人 all approve.
    const lines = [
      { goods: '*建筑服务*工程施工', spec: '', unit: '项', quantity: 1, taxRate: '9%', amount: 100_000_000 },
      { goods: '*现代服务*技术咨询', spec: '', unit: '项', quantity: 2, taxRate: '6%', amount: 20_000_000 },
    ];
    const form = { buyer: buyer.name, buyerTaxNo: buyer.tax_no ?? '', invoiceKind: '数电普票', basis: '项目', reference: project.name, lines, amount: 120_000_000, remark: `项目名称：${project.name}` };
    const title = `开票申请：${buyer.name}（接口测试）`;
    const started = await s.call(`${WF}/start`, { flowNo: 'KP01', title, form }, await tokenOf('demo7'));
    expect([started.code, started.message]).toEqual([20000, '已发送至「部门负责人审批」：张伟']);
    const workId = started.r.workId as number;

    const visited: string[] = [];
    for (let hop = 0; hop < 5; hop++) {
      const d = (await s.call(`${WF}/workdetail`, { workId }, await tokenOf('demo7'))).r;
      if (d.State === FlowState.complete) break;
      expect(d.State).toBe(FlowState.running);
      expect(await pendingFor(buyer.name)).not.toContainEqual(expect.objectContaining({ requestWorkId: workId }));
      visited.push(d.NodeName);
      const logins = await Promise.all((d.Handlers as Array<{ id: string }>).map((h) => loginOf(h.id)));
      expect(logins.sort()).toEqual(await openHandlers(s, workId));
      // The last of several 销项会计 approves, so 财务负责人 (demo5, also a 销项会计) acts in a later step.
      const who = logins.at(-1);
      const others = logins.slice(0, -1);
      const todo = await s.call(`${WF}/todo`, {}, await tokenOf(who!));
      expect(todo.r.items.find((i: { WorkID: number }) => i.WorkID === workId)).toMatchObject({ Title: title, NodeName: d.NodeName, StarterName: '杨帆' });
      const sent = await s.call(`${WF}/send`, { workId, opinion: '同意开票' }, await tokenOf(who!));
      expect(sent.code).toBe(20000);
      // Any one 销项会计 approves for all: the others' to-dos at this node are gone.
      for (const other of others) {
        const items = (await s.call(`${WF}/todo`, {}, await tokenOf(other))).r.items as Array<{ WorkID: number; NodeName: string }>;
        expect(items.filter((i) => i.WorkID === workId && i.NodeName === d.NodeName)).toEqual([]);
      }
    }
    expect(visited).toEqual(['部门负责人审批', '销项会计审核', '财务负责人审批']);
    const done = (await s.call(`${WF}/workdetail`, { workId }, await tokenOf('demo7'))).r;
    expect(done).toMatchObject({ State: FlowState.complete, Handlers: [] });
    expect(done.track.at(-1).action).toBe('complete');

    const [request, ...more] = (await pendingFor(buyer.name)).filter((i) => i.requestWorkId === workId);
    expect(more).toEqual([]);
    expect(request).toMatchObject({
      requestWorkId: workId,
      buyerName: buyer.name,
      buyerTaxNo: buyer.tax_no ?? '',
      projectName: project.name,
      kind: InvoiceKind.pc,
      status: InvoiceStatus.none,
      source: SourceKind.mis,
      amountIncl: 120_000_000,
      invalid: false,
      createdByName: '杨帆',
    });
    expect((request!.amountExcl as number) + (request!.tax as number)).toBe(120_000_000);
    const stored = await k.selectFrom('invoice_lines').select(['goods_name', 'amount_incl']).where('invoice_id', '=', request!.id as string).orderBy('line_no').execute();
    expect(stored.map((l) => [l.goods_name, Number(l.amount_incl)])).toEqual([
      ['*建筑服务*工程施工', 100_000_000],
      ['*现代服务*技术咨询', 20_000_000],
    ]);

    // It was imported once, in the last approval's own transaction (the workflow service's outcome event).
    expect(await s.db.kysely.selectFrom('invoices').select('id').where('request_work_id', '=', workId).execute()).toHaveLength(1);
    expect((await pendingFor(buyer.name)).filter((i) => i.requestWorkId === workId)).toHaveLength(1);
    expect((await s.call('/api/invoice/list-for-creation', { tab: 'pending' }, await tokenOf('demo7'))).status).toBe(403);
  });
});
