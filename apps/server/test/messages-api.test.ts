/**
 * 站内消息 (/api/messages/*) and issue 14's "that document is flagged and its owner notified": a signed
 * invoice turned 作废 leaves its signer one unread message linking to the invoice; reading it clears the
 * count; another user cannot read it (消息不存在); read-all; the list puts unread first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raiseCases } from '../src/modules/income/abnormal/raise.js';
import { notifyUser } from '../src/modules/messages/service.js';
import { newId } from '../src/platform/ids.js';
import { startTestServer, type TestServer } from './helpers.js';
import { entry, nextDigital } from './income-helpers.js';

let s: TestServer;
let t13: string;
let signer: string;
let other: string;
let signerId: string;
const M = '/api/messages';

beforeAll(async () => {
  s = await startTestServer();
  [t13, signer, other] = (await Promise.all(['demo13', 'demo16', 'demo14'].map((n) => s.login(n)))) as [string, string, string];
  signerId = (await s.db.kysely.selectFrom('users').select('id').where('login_name', '=', 'demo16').executeTakeFirstOrThrow()).id;
  // A clean start for the signer: the demo's seeded messages are read.
  await s.call(`${M}/read-all`, {}, signer);
});
afterAll(() => s?.close());

const unread = async (token: string) => (await s.call(`${M}/unread-count`, {}, token)).r.unread as number;

describe('a signed invoice turned 作废', () => {
  it('its signer gets one unread message linking to the invoice; reading it clears the count; another user cannot read it', async () => {
    const no = nextDigital();
    const a = await s.call('/api/income/pool/save', entry({ digitalNo: no, amountExcl: 30000, tax: 900, amountIncl: 30900, lines: [{ name: '*建筑服务*劳务分包', spec: '', unit: '项', quantity: '1', unitPrice: '300.00', amount: 30000, taxRate: '0.03', tax: 900 }] }), t13);
    expect(a.code, a.message).toBe(20000);
    const id = a.r.id as string;
    await s.db.kysely
      .insertInto('income_signings')
      .values({ id: newId(), invoice_id: id, doc_type: 'contract', doc_no: 'QS-TEST-0001', note: '', state: 'signed', archive_no: '', voucher_id: '', fail_reason: '', user_id: signerId, user_name: '签收人', created_at: new Date().toISOString(), finished_at: null } as never)
      .execute();
    expect(await unread(signer)).toBe(0);
    await s.db.kysely.updateTable('income_invoices').set({ invoice_state: 2 }).where('id', '=', id).execute();
    await raiseCases(s.db.kysely, id);
    await raiseCases(s.db.kysely, id); // raising again notifies no one again

    expect(await unread(signer)).toBe(1);
    const l = await s.call(`${M}/list`, { pageSize: 10 }, signer);
    expect(l.code, l.message).toBe(20000);
    const m = l.r.items[0];
    expect(m.title).toBe('发票已作废：签收单 QS-TEST-0001');
    expect(m.content).toContain(no);
    expect(m.link).toBe(`/income/invoicePool/detail/${id}`);
    expect(m.readAt).toBeNull();

    const stranger = await s.call(`${M}/read`, { id: m.id }, other);
    expect([stranger.status, stranger.message]).toEqual([404, '消息不存在']);
    expect((await s.call(`${M}/list`, { pageSize: 500 }, other)).r.items.some((x: { id: string }) => x.id === m.id)).toBe(false);
    expect(await unread(signer)).toBe(1);

    const r = await s.call(`${M}/read`, { id: m.id }, signer);
    expect([r.code, r.message]).toEqual([20000, '已读']);
    expect(await unread(signer)).toBe(0);
    expect((await s.call(`${M}/read`, { id: m.id }, signer)).code).toBe(20000);
  });
});

describe('list, read-all and the inputs', () => {
  it('unread first, newest first; unreadOnly; read-all answers how many', async () => {
    await notifyUser(s.db.kysely, signerId, { title: '第一条', content: 'a', link: '/income/invoicePool' });
    await new Promise((r) => setTimeout(r, 5));
    await notifyUser(s.db.kysely, signerId, { title: '第二条', content: 'b', link: 'https://evil.example/x' });
    const l = await s.call(`${M}/list`, { pageSize: 3 }, signer);
    expect(l.r.items.map((x: { title: string }) => x.title)).toEqual(['第二条', '第一条', '发票已作废：签收单 QS-TEST-0001']);
    expect(l.r.items[0].link).toBe(''); // not an app path: dropped
    expect(l.r.items[1].link).toBe('/income/invoicePool');
    const u = await s.call(`${M}/list`, { unreadOnly: true }, signer);
    expect(u.r.total).toBe(2);
    const all = await s.call(`${M}/read-all`, {}, signer);
    expect([all.r.count, all.message]).toEqual([2, '已将2条消息标记为已读']);
    expect((await s.call(`${M}/read-all`, {}, signer)).message).toBe('没有未读消息');
    expect(await unread(signer)).toBe(0);
  });

  it('refuses a bad id and a call without a token', async () => {
    expect((await s.call(`${M}/read`, { id: '' }, signer)).message).toBe('参数错误：缺少消息ID');
    expect((await s.call(`${M}/read`, { id: '00000000-0000-4000-8000-000000000000' }, signer)).message).toBe('消息不存在');
    expect((await s.call(`${M}/unread-count`, {})).status).toBe(401);
  });
});
