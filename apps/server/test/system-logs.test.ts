import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OperationLogType, SyncSystem } from '@zhyy/shared';
import { recordAiCall, trackAiCall } from '../src/integrations/ai/calls.js';
import { startTestServer, type TestServer } from './helpers.js';

let s: TestServer;
let demo1: string;
let demo3: string;

const download = (url: string, body: unknown, token: string) => s.download(url, body, token);

beforeAll(async () => {
  s = await startTestServer();
  demo1 = await s.login('demo1');
  demo3 = await s.login('demo3');
});
afterAll(() => s.close());

describe('operation log (role 1)', () => {
  it('filters by user, type, time range and text, newest first', async () => {
    await s.call('/api/syslog/add-operation-log', { description: '查看发票 INV-7731', type: OperationLogType.view }, demo3);
    await s.call('/api/syslog/add-operation-log', { description: '打印发票 INV-7731', type: OperationLogType.print }, demo3);
    const byText = await s.call('/api/syslog/list', { text: 'inv-7731' }, demo1);
    expect(byText.r.items.map((x: { type: number }) => x.type)).toEqual([OperationLogType.print, OperationLogType.view]);
    const byType = await s.call('/api/syslog/list', { type: OperationLogType.print, user: '李晓燕' }, demo1);
    expect(byType.r.total).toBe(1);
    expect(byType.r.items[0]).toMatchObject({ loginName: 'demo3', userName: '李晓燕', description: '打印发票 INV-7731' });
    const future = await s.call('/api/syslog/list', { from: new Date(Date.now() + 3600_000).toISOString() }, demo1);
    expect(future.r.total).toBe(0);
    const logins = await s.call('/api/syslog/list', { type: OperationLogType.login, pageSize: 5 }, demo1);
    expect(logins.r.total).toBeGreaterThan(50);
    expect((await s.call('/api/syslog/list', { type: 31 }, demo1)).message).toBe('参数错误：日志类型不正确');
    expect((await s.call('/api/syslog/list', { from: 'yesterday' }, demo1)).message).toBe('参数错误：开始时间格式不正确');
  });

  it('a % or _ in the text is matched literally', async () => {
    await s.call('/api/syslog/add-operation-log', { description: '税率调整为 13%', type: OperationLogType.view }, demo3);
    expect((await s.call('/api/syslog/list', { text: '13%' }, demo1)).r.total).toBe(1);
    expect((await s.call('/api/syslog/list', { text: '%' }, demo1)).r.total).toBe(1);
  });

  it('exports the filtered log as xlsx and logs the export', async () => {
    // An import is recorded by the server (a client may not report one).
    await s.app.oplog.write({ type: OperationLogType.import, description: '@SUM(A1:A9) 导入', actor: { id: null, loginName: 'demo3', name: '李晓燕' } });
    const { res, ws } = await download('/api/syslog/export', { type: OperationLogType.import }, demo1);
    expect(res.statusCode).toBe(200);
    expect(ws!.rowCount).toBe(2);
    expect(ws!.getRow(2).getCell(5).value).toBe("'@SUM(A1:A9) 导入");
    expect(ws!.getRow(2).getCell(4).value).toBe('导入');
    const log = await s.call('/api/syslog/list', { type: OperationLogType.export, user: 'demo1' }, demo1);
    expect(log.r.items[0].description).toBe('导出操作日志（类型：导入）');
  });
});

describe('integrated sync log (role 1)', () => {
  it('lists exchanges with filters, counts failures and shows the full bodies on demand', async () => {
    await s.app.synclog.write({ system: SyncSystem.tax, type: '开票', status: 0, memo: '开票成功 流水号 S1', request: { orderNo: 'A1' }, response: { serial: 'S1' }, durationMs: 120 });
    await s.app.synclog.write({ system: SyncSystem.tax, type: '开票', status: 1, memo: '税务端超时', request: { orderNo: 'A2' }, response: 'timeout', durationMs: 30000 });
    await s.app.synclog.write({ system: SyncSystem.accounting, type: '报销推送', status: 1, memo: '凭证号重复', request: { no: 'R1' } });
    const all = await s.call('/api/syslog/integratedsync-log', {}, demo1);
    expect(all.r.total).toBeGreaterThanOrEqual(3);
    expect(all.r.failures).toBeGreaterThanOrEqual(2);
    const failures = await s.call('/api/syslog/integratedsync-log', { status: 1, system: SyncSystem.tax }, demo1);
    expect(failures.r.items.map((x: { memo: string }) => x.memo)).toEqual(['税务端超时']);
    expect(failures.r.items[0]).not.toHaveProperty('request');
    const byType = await s.call('/api/syslog/integratedsync-log', { type: '报销' }, demo1);
    expect(byType.r.items.map((x: { memo: string }) => x.memo)).toEqual(['凭证号重复']);
    const d = await s.call('/api/syslog/integratedsync-log-details', { id: failures.r.items[0].id }, demo1);
    expect(JSON.parse(d.r.request)).toEqual({ orderNo: 'A2' });
    expect(d.r).toMatchObject({ response: 'timeout', durationMs: 30000, status: 1 });
    expect((await s.call('/api/syslog/integratedsync-log-details', { id: '00000000-0000-0000-0000-000000000001' }, demo1)).status).toBe(404);
  });
});

describe('file exports and downloads', () => {
  it('records downloads and exports and reports them by category, user and day', async () => {
    expect((await s.call('/api/syslog/add-file-down-log', { description: '下载投标文件 城南污水厂.zip' }, demo3)).code).toBe(20000);
    await download('/api/user/export', {}, demo3);
    const list = await s.call('/api/syslog/file-export-log', { user: 'demo3' }, demo1);
    expect(list.r.items.map((x: { kind: string; category: string }) => [x.kind, x.category])).toEqual([
      ['export', '用户列表'],
      ['download', '文件下载'],
    ]);
    expect((await s.call('/api/syslog/file-export-log', { kind: 'download', text: '污水厂' }, demo1)).r.total).toBe(1);
    const byCategory = await s.call('/api/syslog/file-export-log-statistic', { groupBy: 'category' }, demo1);
    expect(byCategory.r.find((x: { key: string }) => x.key === '用户列表')).toMatchObject({ exports: 1, downloads: 0, total: 1 });
    const byUser = await s.call('/api/syslog/file-export-log-statistic', { groupBy: 'user' }, demo1);
    expect(byUser.r.find((x: { key: string }) => x.key === 'demo3')).toMatchObject({ label: '李晓燕（demo3）', exports: 1, downloads: 1, total: 2 });
    const byDay = await s.call('/api/syslog/file-export-log-statistic', { groupBy: 'day' }, demo1);
    expect(byDay.r[0].key).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('tender administrators (role 6) read the export log; demo3 does not', async () => {
    const t6 = await s.login('demo6');
    expect((await s.call('/api/syslog/file-export-log', {}, t6)).code).toBe(20000);
    expect((await s.call('/api/syslog/file-export-log-statistic', {}, t6)).code).toBe(20000);
    expect((await s.call('/api/syslog/file-export-log', {}, demo3)).message).toBe('权限不足');
  });
});

describe('AI interface statistic (role 1)', () => {
  it('reports calls per interface, user and day with success rate and average duration', async () => {
    const from = new Date(Date.now() - 1000).toISOString();
    const user = { id: null, loginName: 'ocr.tester', name: '识别测试' };
    await recordAiCall(s.db, { interfaceCode: 'invoice-ocr', user, success: true, durationMs: 1000 });
    await recordAiCall(s.db, { interfaceCode: 'invoice-ocr', user, success: false, durationMs: 3000, message: '识别超时' });
    await expect(trackAiCall(s.db, { interfaceCode: 'contract-ocr', user }, async () => Promise.reject(new Error('文件损坏')))).rejects.toThrow('文件损坏');
    expect(await trackAiCall(s.db, { interfaceCode: 'contract-ocr', user }, async () => 'ok')).toBe('ok');
    const a = await s.call('/api/syslog/ai-interface-statistic', { from, groupBy: 'interface' }, demo1);
    expect(a.r.rows.find((x: { key: string }) => x.key === 'invoice-ocr')).toMatchObject({ label: '发票识别', calls: 2, successes: 1, successRate: 0.5, avgDurationMs: 2000 });
    expect(a.r.rows.find((x: { key: string }) => x.key === 'contract-ocr')).toMatchObject({ label: '合同识别', calls: 2, successes: 1 });
    expect(a.r.total).toMatchObject({ calls: 4, successes: 2, successRate: 0.5 });
    expect(a.r.daily.reduce((n: number, d: { failures: number }) => n + d.failures, 0)).toBe(2);
    const byUser = await s.call('/api/syslog/ai-interface-statistic', { from, groupBy: 'user' }, demo1);
    expect(byUser.r.rows).toEqual([expect.objectContaining({ key: 'ocr.tester', label: '识别测试（ocr.tester）', calls: 4 })]);
    const failed = await s.db.kysely.selectFrom('ai_call_logs').select('message').where('interface_code', '=', 'contract-ocr').where('success', '=', 0).executeTakeFirstOrThrow();
    expect(failed.message).toBe('文件损坏');
  });

  it('the demo company has a month of calls', async () => {
    const a = await s.call('/api/syslog/ai-interface-statistic', { groupBy: 'day' }, demo1);
    expect(a.r.rows.length).toBeGreaterThanOrEqual(28);
    expect(a.r.total.successRate).toBeGreaterThan(0.8);
  });

  it('exports the statistic as xlsx with a total row', async () => {
    const { res, ws } = await download('/api/syslog/export-ai-interface-statistic', { groupBy: 'interface' }, demo1);
    expect(res.statusCode).toBe(200);
    expect(ws!.getRow(1).getCell(1).value).toBe('接口');
    expect(ws!.getRow(ws!.rowCount).getCell(1).value).toBe('合计');
    const log = await s.db.kysely.selectFrom('file_export_logs').select('category').where('category', '=', 'AI接口统计').executeTakeFirst();
    expect(log).toBeDefined();
  });
});

describe('permissions', () => {
  it('demo3 gets 权限不足 on every log and the AI statistic', async () => {
    for (const url of ['/api/syslog/list', '/api/syslog/export', '/api/syslog/integratedsync-log', '/api/syslog/integratedsync-log-details', '/api/syslog/ai-interface-statistic', '/api/syslog/export-ai-interface-statistic']) {
      const a = await s.call(url, {}, demo3);
      expect([url, a.status, a.message]).toEqual([url, 403, '权限不足']);
    }
  });
});
