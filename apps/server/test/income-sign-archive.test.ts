/**
 * Issue 13: "signing asks the accounting/archive side through an interface with a simulator, like the
 * tax gateway". The HTTP client (ARCHIVE_MODE=http) against a local fake archive service that checks the
 * signature; the configuration from the environment; the simulator's deterministic failure; one sync log
 * row (system 2 财务系统) per exchange.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SyncSystem } from '@zhyy/shared';
import { ARCHIVE_SIM_REFUSAL, archiveConfigFromEnv, createArchiveGateway, ArchiveError } from '../src/integrations/archive/index.js';
import { startTestServer, type TestServer } from './helpers.js';

const SECRET = 'archive-secret';
let s: TestServer;
let fake: http.Server;
let base = '';
const seen: Array<{ path: string; body: any }> = [];

beforeAll(async () => {
  s = await startTestServer({ demo: false });
  fake = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const sign = createHmac('sha256', SECRET).update(`${req.headers['x-timestamp']}\n${body}`).digest('hex');
      res.setHeader('content-type', 'application/json');
      if (req.headers['x-app-key'] !== 'k1' || req.headers['x-sign'] !== sign) return res.writeHead(401).end(JSON.stringify({ code: '401', message: 'bad sign' }));
      const b = JSON.parse(body);
      seen.push({ path: req.url!, body: b });
      if (b.docNo === 'SLOW') return setTimeout(() => res.end(JSON.stringify({ code: '0', data: { voucherId: 'late' } })), 500);
      if (b.docNo === 'BAD') return res.end(JSON.stringify({ code: 'E2001', message: '会计期间已结账，不能归档' }));
      if (req.url === '/invoice/archive/query') {
        const data = b.signingId === 's-filed' ? { status: 'filed', voucherId: 'V-Q1' } : b.signingId === 's-busy' ? { status: 'unknown' } : b.signingId === 's-odd' ? { status: 'maybe' } : { status: 'notFiled' };
        return res.end(JSON.stringify({ code: '0', message: b.signingId === 's-busy' ? '归档处理中' : 'ok', data }));
      }
      res.end(JSON.stringify({ code: '0', message: 'ok', data: req.url === '/invoice/archive' ? { voucherId: `V-${b.invoiceKey}` } : {} }));
    });
  });
  await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => fake.close(r));
  await s?.close();
});

const req = (docNo: string, note = '', signingId = `s-${docNo}`) => ({ signingId, invoiceId: 'i1', invoiceKey: 'D:26110000000000000001', invoiceNo: '26110000000000000001', sellerName: '甲', sellerTaxNo: 'x', issueDate: '2026-11-01', amountIncl: 10900, docType: 'contract', docNo, note });

describe('configuration from the environment', () => {
  it('defaults to the simulator; http needs its URL and credentials', () => {
    expect(archiveConfigFromEnv({})).toEqual({ mode: 'simulator', delayMs: 0 });
    expect(() => archiveConfigFromEnv({ ARCHIVE_MODE: 'http', ARCHIVE_BASE_URL: base })).toThrow('ARCHIVE_MODE=http needs ARCHIVE_APP_KEY, ARCHIVE_APP_SECRET');
    expect(() => archiveConfigFromEnv({ ARCHIVE_MODE: 'ftp' })).toThrow('ARCHIVE_MODE must be simulator or http');
    expect(archiveConfigFromEnv({ ARCHIVE_MODE: 'http', ARCHIVE_BASE_URL: base, ARCHIVE_APP_KEY: 'k1', ARCHIVE_APP_SECRET: SECRET, ARCHIVE_TIMEOUT_MS: '200' })).toEqual({ mode: 'http', baseUrl: base, appKey: 'k1', appSecret: SECRET, timeoutMs: 200 });
  });
});

describe('the HTTP client', () => {
  const gw = (timeout = '5000') => createArchiveGateway({ db: s.db, synclog: s.app.synclog }, archiveConfigFromEnv({ ARCHIVE_MODE: 'http', ARCHIVE_BASE_URL: base, ARCHIVE_APP_KEY: 'k1', ARCHIVE_APP_SECRET: SECRET, ARCHIVE_TIMEOUT_MS: timeout }));

  it('signs each request and reads the voucher id; one sync log row per exchange, the secret never logged', async () => {
    expect(await gw().archive(req('HT-1'))).toEqual({ voucherId: 'V-D:26110000000000000001' });
    await gw().revoke({ invoiceKey: 'D:26110000000000000001', voucherId: 'V-1', archiveNo: 'GD2026110001', reason: '退回' });
    expect(seen.map((x) => x.path)).toEqual(['/invoice/archive', '/invoice/archive/revoke']);
    const logs = await s.db.kysely.selectFrom('sync_logs').select(['system', 'type', 'status', 'memo', 'request']).orderBy('created_at').execute();
    expect(logs.map((l) => [l.system, l.type, l.status])).toEqual([
      [SyncSystem.accounting, 'incomeArchive', 0],
      [SyncSystem.accounting, 'incomeArchiveRevoke', 0],
    ]);
    expect(logs[0]!.memo).toBe('发票 26110000000000000001 签收归档成功，凭证号 V-D:26110000000000000001');
    expect(logs.some((l) => (l.request ?? '').includes(SECRET))).toBe(false);
  });

  it('a refusal carries the archive side message; a slow answer times out; wrong credentials say so', async () => {
    await expect(gw().archive(req('BAD'))).rejects.toThrow('会计期间已结账，不能归档');
    await expect(gw('200').archive(req('SLOW'))).rejects.toThrow('档案系统0.2秒内未应答，请稍后重试');
    const wrong = createArchiveGateway({ db: s.db, synclog: s.app.synclog }, { mode: 'http', baseUrl: base, appKey: 'k1', appSecret: 'nope', timeoutMs: 1000 });
    await expect(wrong.archive(req('HT-2'))).rejects.toThrow('档案系统拒绝了接口凭据，请核对ARCHIVE_APP_KEY和ARCHIVE_APP_SECRET');
    const failed = await s.db.kysely.selectFrom('sync_logs').select('memo').where('status', '=', 1).execute();
    expect(failed.map((f) => f.memo)).toContain('会计期间已结账，不能归档');
  });

  it('asks about a filing by its signing id: filed (voucher id), not filed, unknown; an unreadable answer is an error', async () => {
    const q = (signingId: string) => gw().query({ signingId, invoiceKey: 'D:26110000000000000001', docNo: 'HT-Q' });
    expect(await q('s-filed')).toEqual({ status: 'filed', voucherId: 'V-Q1' });
    expect(await q('s-none')).toEqual({ status: 'notFiled' });
    expect(await q('s-busy')).toEqual({ status: 'unknown', message: '归档处理中' });
    await expect(q('s-odd')).rejects.toThrow('档案系统查询应答无法识别（maybe）');
    expect(seen.filter((x) => x.path === '/invoice/archive/query').map((x) => x.body)).toContainEqual({ signingId: 's-filed', invoiceKey: 'D:26110000000000000001', docNo: 'HT-Q' });
    const logs = await s.db.kysely.selectFrom('sync_logs').select(['type', 'status', 'memo']).where('type', '=', 'incomeArchiveQuery').orderBy('created_at').execute();
    expect(logs.map((l) => [l.status, l.memo])).toEqual([
      [0, '签收核对（单据 HT-Q）：档案系统已归档，凭证号 V-Q1'],
      [0, '签收核对（单据 HT-Q）：档案系统无该签收的归档（未收到或已撤销）'],
      [0, '签收核对（单据 HT-Q）：档案系统暂无结论（归档处理中），下一轮再核对'],
      [1, '档案系统查询应答无法识别（maybe）'],
    ]);
  });
});

describe('the simulator', () => {
  it('answers with its own voucher id, and refuses a document whose note contains 测试失败', async () => {
    const sim = createArchiveGateway({ db: s.db, synclog: s.app.synclog }, { mode: 'simulator' });
    expect((await sim.archive(req('HT-3'))).voucherId).toMatch(/^SIMV\d{8}[0-9A-F]{10}$/);
    const e = await sim.archive(req('HT-4', '测试失败')).catch((x) => x);
    expect(e).toBeInstanceOf(ArchiveError);
    expect(e.message).toBe(ARCHIVE_SIM_REFUSAL);
  });

  it('remembers what it filed in the database: a query (from another gateway, as after a restart) answers from its records', async () => {
    const sim = createArchiveGateway({ db: s.db, synclog: s.app.synclog }, { mode: 'simulator' });
    const { voucherId } = await sim.archive(req('HT-5', '', 'sim-1'));
    // The same signing filed again keeps its voucher id (one filing per signing id).
    expect((await sim.archive(req('HT-5', '', 'sim-1'))).voucherId).toBe(voucherId);
    await sim.archive(req('HT-6', '测试失败', 'sim-2')).catch(() => undefined);
    const again = createArchiveGateway({ db: s.db, synclog: s.app.synclog }, { mode: 'simulator' });
    const q = (signingId: string, docNo: string) => again.query({ signingId, invoiceKey: 'D:26110000000000000001', docNo });
    expect(await q('sim-1', 'HT-5')).toEqual({ status: 'filed', voucherId });
    expect(await q('sim-2', 'HT-6')).toEqual({ status: 'notFiled' });
    expect(await q('sim-3', 'HT-7')).toEqual({ status: 'notFiled' });
    const rows = await s.db.kysely.withTables<{ archivesim_filings: { signing_id: string; voucher_id: string } }>().selectFrom('archivesim_filings').select(['signing_id', 'voucher_id']).where('signing_id', 'like', 'sim-%').execute();
    expect(rows).toEqual([{ signing_id: 'sim-1', voucher_id: voucherId }]);
  });
});
