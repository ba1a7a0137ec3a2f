import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OperationLogType, SyncLogStatus, SyncSystem } from '@zhyy/shared';
import { startTestServer, type TestServer } from './helpers.js';

let s: TestServer;
let token: string;
beforeAll(async () => {
  s = await startTestServer();
  token = await s.login('demo5');
});
afterAll(() => s.close());

describe('operation log', () => {
  it('records events the client reports, with who and when', async () => {
    const a = await s.call('/api/syslog/add-operation-log', { description: '查看发票台账', type: OperationLogType.view }, token);
    expect(a.code).toBe(20000);
    const row = await s.db.kysely.selectFrom('operation_logs').selectAll().where('description', '=', '查看发票台账').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ login_name: 'demo5', user_name: '刘芳', type: 30 });
    expect(Date.now() - Date.parse(row.created_at)).toBeLessThan(60_000);
  });

  it('refuses an unknown type or an empty description', async () => {
    expect((await s.call('/api/syslog/add-operation-log', { description: 'x', type: 999 }, token)).message).toBe('参数错误：type 日志类型不正确');
    expect((await s.call('/api/syslog/add-operation-log', { description: ' ', type: 30 }, token)).message).toBe('参数错误：description 请填写日志内容');
  });

  it('records downloads as type 74', async () => {
    await s.call('/api/syslog/add-file-down-log', { description: '下载发票PDF 12345678' }, token);
    const row = await s.db.kysely.selectFrom('operation_logs').select('type').where('description', '=', '下载发票PDF 12345678').executeTakeFirstOrThrow();
    expect(row.type).toBe(OperationLogType.download);
  });
});

describe('integrated sync log', () => {
  it('records an exchange reported by the client (system 3, status 1 = failure)', async () => {
    const a = await s.call('/api/syslog/add-integrated-synclog-detail', { status: 1, memo: '推送失败：超时', type: '报销推送', system: 3 }, token);
    expect(a.code).toBe(20000);
    const row = await s.db.kysely.selectFrom('sync_logs').selectAll().where('id', '=', a.r.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ system: SyncSystem.platform, status: SyncLogStatus.failure, memo: '推送失败：超时', type: '报销推送' });
  });

  it('the service logs both outcomes of a tracked exchange', async () => {
    const result = await s.app.synclog.track({ system: SyncSystem.tax, type: '开票', request: { orderNo: 'A1' } }, async () => ({ serial: 'S1' }), (r) => `流水号 ${r.serial}`);
    expect(result).toEqual({ serial: 'S1' });
    await expect(s.app.synclog.track({ system: SyncSystem.tax, type: '开票', request: { orderNo: 'A2' } }, async () => Promise.reject(new Error('税务端超时')))).rejects.toThrow('税务端超时');
    const rows = await s.db.kysely.selectFrom('sync_logs').select(['status', 'memo', 'request']).where('type', '=', '开票').orderBy('created_at').orderBy('id').execute();
    expect(rows.map((r) => [r.status, r.memo])).toEqual([
      [0, '流水号 S1'],
      [1, '税务端超时'],
    ]);
    expect(JSON.parse(rows[0]!.request!)).toEqual({ orderNo: 'A1' });
  });

  it('records an exchange through the header call too, status defaulting to success', async () => {
    const a = await s.call('/api/syslog/add-integrated-synclog', { type: '凭证推送', memo: '推送3张凭证' }, token);
    expect(a.code).toBe(20000);
    const row = await s.db.kysely.selectFrom('sync_logs').selectAll().where('id', '=', a.r.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ system: SyncSystem.platform, status: SyncLogStatus.success, type: '凭证推送', memo: '推送3张凭证' });
  });

  it('rejects a status other than 0 or 1', async () => {
    expect((await s.call('/api/syslog/add-integrated-synclog-detail', { status: 7, memo: '', type: 'x' }, token)).message).toBe('参数错误：status 状态不正确');
  });
});

describe('presence', () => {
  it('heartBeat marks the session seen and counts sessions seen in the last 2 minutes', async () => {
    const other = await s.login('demo6');
    const before = (await s.call('/api/useronline/heartBeat', {}, token)).r.onlineCount as number;
    expect(before).toBeGreaterThanOrEqual(2);
    // A session last seen 3 minutes ago no longer counts.
    const { hashToken } = await import('../src/platform/tokens.js');
    await s.db.kysely.updateTable('sessions').set({ last_seen_at: new Date(Date.now() - 3 * 60_000).toISOString() }).where('token_hash', '=', hashToken(other)).execute();
    expect((await s.call('/api/useronline/heartBeat', {}, token)).r.onlineCount).toBe(before - 1);
    // Its own heartbeat brings it back.
    expect((await s.call('/api/useronline/heartBeat', {}, other)).r.onlineCount).toBe(before);
    // Logging out takes it away.
    await s.call('/api/account/logout', {}, other);
    expect((await s.call('/api/useronline/heartBeat', {}, token)).r.onlineCount).toBe(before - 1);
  });
});

describe('client errors', () => {
  it('accepts at most 25 entries', async () => {
    const entry = { message: 'TypeError: x is undefined', time: new Date().toISOString() };
    expect((await s.call('/api/syslog/client-error', { entries: [entry] }, token)).code).toBe(20000);
    expect((await s.call('/api/syslog/client-error', { entries: Array(26).fill(entry) }, token)).code).toBe(30000);
  });
});

describe('validation messages are Chinese even where no rule of ours applies', () => {
  it('a wrong type', async () => {
    const a = await s.call('/api/syslog/add-operation-log', { description: 'x', type: 'abc' }, token);
    expect(a.code).toBe(30000);
    expect(a.message).toMatch(/^参数错误：type .*[\u4e00-\u9fa5]/);
    expect(a.message).not.toMatch(/expected|received/i);
  });
});

describe('sync log refs', () => {
  it('indexes the business keys of an exchange, so the log can be filtered by record', async () => {
    const { refsOf } = await import('../src/integrations/tax/exchange.js');
    const request = { order: { orderNo: 'ORD-9' }, serialNos: ['S-1', 'S-2'], note: 'x' };
    expect(refsOf(request)).toEqual(['ORD-9', 'S-1', 'S-2']);
    // Nuonuo's deliveryInvoice names the invoice by invoiceNum.
    expect(refsOf({ taxnum: '91320000', invoiceCode: '', invoiceNum: '26322000000012345678', mail: 'a@b.cn' })).toEqual(['26322000000012345678']);
    await s.app.synclog.track({ system: SyncSystem.tax, type: '查询', request, refs: refsOf(request) }, async () => ({ ok: true }));
    const ids = (await s.app.synclog.idsByRef(['S-2']).execute()).map((r) => r.sync_log_id);
    expect(ids).toHaveLength(1);
    const row = await s.db.kysely.selectFrom('sync_logs').select('type').where('id', '=', ids[0]!).executeTakeFirstOrThrow();
    expect(row.type).toBe('查询');
  });

  it('keeps the outside system’s answer of a failed exchange', async () => {
    const err = Object.assign(new Error('税务端拒绝'), { response: { code: 'E9999', describe: '拒绝' } });
    await expect(s.app.synclog.track({ system: SyncSystem.tax, type: '拒绝测试' }, async () => Promise.reject(err))).rejects.toThrow('税务端拒绝');
    const row = await s.db.kysely.selectFrom('sync_logs').select(['memo', 'response']).where('type', '=', '拒绝测试').executeTakeFirstOrThrow();
    expect(row.memo).toBe('税务端拒绝');
    expect(JSON.parse(row.response!)).toEqual({ code: 'E9999', describe: '拒绝' });
  });
});
