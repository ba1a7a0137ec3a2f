import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
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
    expect((await s.call('/api/syslog/add-operation-log', { description: 'x', type: 999 }, token)).message).toBe('参数错误：日志类型不正确');
    expect((await s.call('/api/syslog/add-operation-log', { description: ' ', type: 30 }, token)).message).toBe('参数错误：请填写日志内容');
  });

  it('accepts from a client only what it may honestly report, marked as client-reported', async () => {
    for (const type of [OperationLogType.login, OperationLogType.logout, OperationLogType.add, OperationLogType.edit, OperationLogType.delete, OperationLogType.import, OperationLogType.upload, OperationLogType.fail]) {
      const a = await s.call('/api/syslog/add-operation-log', { description: `伪造 ${type}`, type }, token);
      expect(a.code, String(type)).toBe(30000);
      expect(a.message).toBe('客户端只能上报查看、下载、打印、导出操作，其他操作由系统自动记录');
    }
    expect(await s.db.kysely.selectFrom('operation_logs').select('id').where('description', 'like', '伪造 %').execute()).toEqual([]);
    for (const type of [OperationLogType.view, OperationLogType.download, OperationLogType.print, OperationLogType.export]) {
      expect((await s.call('/api/syslog/add-operation-log', { description: `上报 ${type}`, type }, token)).code).toBe(20000);
    }
    const admin = await s.login('demo1');
    const list = await s.call('/api/syslog/list', { text: '上报 ', user: 'demo5' }, admin);
    expect(list.r.total).toBe(4);
    expect(list.r.items.every((x: { clientReported: boolean }) => x.clientReported)).toBe(true);
    // What the server records itself (the sign-in) is not marked.
    const logins = await s.call('/api/syslog/list', { type: OperationLogType.login, user: 'demo5' }, admin);
    expect(logins.r.items[0].clientReported).toBe(false);
  });

  it('records downloads as type 74, marked as client-reported', async () => {
    await s.call('/api/syslog/add-file-down-log', { description: '下载发票PDF 12345678' }, token);
    const row = await s.db.kysely.selectFrom('operation_logs').select(['type', 'client_reported']).where('description', '=', '下载发票PDF 12345678').executeTakeFirstOrThrow();
    expect(row).toEqual({ type: OperationLogType.download, client_reported: 1 });
  });
});

describe('integrated sync log', () => {
  it('records an exchange reported by the client (system 3, status 1 = failure)', async () => {
    const a = await s.call('/api/syslog/add-integrated-synclog-detail', { status: 1, memo: '推送失败：超时', type: '报销推送', system: 3 }, token);
    expect(a.code).toBe(20000);
    const row = await s.db.kysely.selectFrom('sync_logs').selectAll().where('id', '=', a.r.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ system: SyncSystem.platform, status: SyncLogStatus.failure, memo: '推送失败：超时', type: '报销推送', client_reported: 1 });
  });

  it("refuses a client's report of an outside system's exchange, or of a pending one", async () => {
    for (const system of [SyncSystem.tax, SyncSystem.accounting, SyncSystem.oa, SyncSystem.pms]) {
      for (const url of ['/api/syslog/add-integrated-synclog', '/api/syslog/add-integrated-synclog-detail']) {
        const a = await s.call(url, { status: 0, memo: '开票成功', type: '伪造开票', system }, token);
        expect(a.code, `${url} ${system}`).toBe(30000);
        expect(a.message).toBe('客户端只能上报综合运营支撑平台的同步记录，与外部系统的交互由系统自动记录');
      }
    }
    expect(await s.db.kysely.selectFrom('sync_logs').select('id').where('type', '=', '伪造开票').execute()).toEqual([]);
    expect((await s.call('/api/syslog/add-integrated-synclog', { status: SyncLogStatus.pending, type: 'x' }, token)).message).toBe('参数错误：状态不正确');
    const admin = await s.login('demo1');
    const mine = await s.call('/api/syslog/integratedsync-log', { type: '报销推送' }, admin);
    expect(mine.r.items[0].clientReported).toBe(true);
  });

  it('writes the row of an exchange, with its request and refs, before the call, and completes it after', async () => {
    let during: { status: number; request: string | null } | undefined;
    let refsDuring: string[] = [];
    await s.app.synclog.track({ system: SyncSystem.tax, type: '开票-先写', request: { orderNo: 'P1' }, refs: ['P1'] }, async () => {
      during = await s.db.kysely.selectFrom('sync_logs').select(['status', 'request']).where('type', '=', '开票-先写').executeTakeFirst();
      refsDuring = (await s.db.kysely.selectFrom('sync_log_refs').select('ref').where('ref', '=', 'P1').execute()).map((r) => r.ref);
      return { serial: 'S9' };
    });
    expect(during?.status).toBe(SyncLogStatus.pending);
    expect(JSON.parse(during!.request!)).toEqual({ orderNo: 'P1' });
    expect(refsDuring).toEqual(['P1']);
    const done = await s.db.kysely.selectFrom('sync_logs').selectAll().where('type', '=', '开票-先写').executeTakeFirstOrThrow();
    expect(done).toMatchObject({ status: SyncLogStatus.success, memo: '成功', client_reported: 0 });
    expect(JSON.parse(done.response!)).toEqual({ serial: 'S9' });
    expect(done.duration_ms).not.toBeNull();
  });

  it('a crash after the outside call leaves the row, with its request, as pending (结果未知)', async () => {
    // The tax service accepts the submission; the process "dies" before the row is completed.
    const spy = vi.spyOn(s.app.synclog, 'complete').mockRejectedValueOnce(new Error('进程中断'));
    const accepted = vi.fn(async () => ({ serial: 'S10' }));
    await expect(s.app.synclog.track({ system: SyncSystem.tax, type: '开票-中断', request: { orderNo: 'C1' }, refs: ['C1'] }, accepted)).rejects.toThrow('进程中断');
    spy.mockRestore();
    expect(accepted).toHaveBeenCalledOnce();
    const row = await s.db.kysely.selectFrom('sync_logs').selectAll().where('type', '=', '开票-中断').executeTakeFirstOrThrow();
    expect(row.status).toBe(SyncLogStatus.pending);
    expect(JSON.parse(row.request!)).toEqual({ orderNo: 'C1' });
    expect(row.response).toBeNull();
    // The screens show it, filterable by its state and found by its order number.
    const admin = await s.login('demo1');
    const unknown = await s.call('/api/syslog/integratedsync-log', { status: SyncLogStatus.pending, type: '开票-中断' }, admin);
    expect(unknown.r.items.map((x: { status: number }) => x.status)).toEqual([SyncLogStatus.pending]);
    expect((await s.db.kysely.selectFrom('sync_log_refs').select('sync_log_id').where('ref', '=', 'C1').execute()).map((r) => r.sync_log_id)).toEqual([row.id]);
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
    expect((await s.call('/api/syslog/add-integrated-synclog-detail', { status: 7, memo: '', type: 'x' }, token)).message).toBe('参数错误：状态不正确');
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

  it('writes a session\'s presence at most once in 30 seconds, however often it beats', async () => {
    const t = await s.login('demo7');
    const { hashToken } = await import('../src/platform/tokens.js');
    const seen = async () => (await s.db.kysely.selectFrom('sessions').select('last_seen_at').where('token_hash', '=', hashToken(t)).executeTakeFirstOrThrow()).last_seen_at;
    const set = (ago: number) => s.db.kysely.updateTable('sessions').set({ last_seen_at: new Date(Date.now() - ago).toISOString() }).where('token_hash', '=', hashToken(t)).execute();
    await set(10_000);
    const recent = await seen();
    for (let i = 0; i < 3; i++) expect((await s.call('/api/useronline/heartBeat', {}, t)).code).toBe(20000);
    expect(await seen()).toBe(recent);
    await set(40_000);
    const stale = await seen();
    await s.call('/api/useronline/heartBeat', {}, t);
    await s.call('/api/useronline/heartBeat', {}, t);
    // Still online (seen 40 s ago): the touch waits for the server's next batch of touches (every 2 s).
    expect(await seen()).toBe(stale);
    await s.app.sessions.flushTouches();
    expect(Date.parse(await seen())).toBeGreaterThan(Date.now() - 5_000);
    // No longer counted online (seen 3 minutes ago): written at once, so the count is right at once.
    await set(3 * 60_000);
    await s.call('/api/useronline/heartBeat', {}, t);
    expect(Date.parse(await seen())).toBeGreaterThan(Date.now() - 5_000);
  });

  it('resolves a token with all its roles, and with none', async () => {
    const t = await s.login('demo7');
    const info = (await s.call('/api/account/userinfo', {}, t)).r;
    const { hashToken } = await import('../src/platform/tokens.js');
    const userId = (await s.db.kysely.selectFrom('sessions').select('user_id').where('token_hash', '=', hashToken(t)).executeTakeFirstOrThrow()).user_id;
    const stored = (await s.db.kysely.selectFrom('user_roles').select('role').where('user_id', '=', userId).execute()).map((r) => r.role);
    expect(stored.length).toBeGreaterThan(0);
    expect([...(await s.app.sessions.resolve(t))!.roles].sort()).toEqual([...stored].sort());
    expect(info).toBeTruthy();
    const roles = await s.db.kysely.selectFrom('user_roles').selectAll().where('user_id', '=', userId).execute();
    await s.db.kysely.deleteFrom('user_roles').where('user_id', '=', userId).execute();
    const bare = await s.app.sessions.resolve(t);
    expect(bare?.roles).toEqual([]);
    await s.db.kysely.insertInto('user_roles').values(roles).execute();
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
    expect(a.message).toMatch(/^参数错误：类型.*[\u4e00-\u9fa5]/);
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
