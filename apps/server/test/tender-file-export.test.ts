/**
 * 投标文件导出 calls (/api/tender/export/*): the performance and certificate checks and their findings,
 * create's refusals, a job run end to end (create → runner → status → download: pages, bookmarks, the
 * export and download log rows), the job list and status by owner, and every page permission.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shanghaiDay } from '../src/platform/listing.js';
import { certKindId } from '../src/seed/tender-people.js';
import { demoId } from '../src/platform/ids.js';
import { startTestServer, type TestServer } from './helpers.js';
import { makeJpeg, makePdf } from './tender-export-fixtures.js';

let s: TestServer;
const tokens: Record<string, string> = {};
const db = () => s.db.kysely;
const today = shanghaiDay();
const yearsAgo = (n: number) => `${Number(today.slice(0, 4)) - n}${today.slice(4, 8)}01`;
const call = (path: string, body: unknown, who: string) => s.call(`/api/tender/${path}`, body, tokens[who]);
const ok = async (path: string, body: unknown, who: string) => {
  const a = await call(path, body, who);
  expect(a.status, `${path}: ${a.message}`).toBe(200);
  return a.r;
};

async function upload(who: string, ownerKind: string, ownerId: string, kind: number, name: string, body: Buffer) {
  const q = new URLSearchParams({ ownerKind, ownerId, kind: String(kind), name }).toString();
  const res = await s.app.inject({ method: 'POST', url: `/api/tender/attachment/upload?${q}`, headers: { 'content-type': 'application/octet-stream', 'x-token': tokens[who]! }, payload: body });
  expect(res.statusCode, res.body).toBe(200);
}

async function pdfInfo(bytes: Buffer) {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0 }).promise;
  const outline = ((await doc.getOutline()) ?? []).map((o: { title: string }) => o.title);
  return { pages: doc.numPages, outline };
}

async function finish(id: string, who: string) {
  for (let i = 0; i < 100; i++) {
    await s.app.tenderExports.runner.tick();
    const st = await ok('export/status', { id }, who);
    if (st.state === 'done' || st.state === 'failed') return st;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('export did not finish');
}

const WHO = ['demo1', 'demo3', 'demo6', 'demo7', 'demo9', 'demo15', 'demo23'];
let good: string; // complete single contract
let thin: string; // accepted long ago, pages missing
let cert: string; // valid certificate with a scan
let expired: string; // expires before the deadline
let title: string;
const deadline = today;

beforeAll(async () => {
  s = await startTestServer();
  for (const n of WHO) tokens[n] = await s.login(n);
  const add = (code: string, acceptedOn: string, amount: number) =>
    ok('contract/add', { contractType: 2, code, name: `业绩${code}`, customer: '南京城建', amount, signedOn: yearsAgo(8), acceptedOn }, 'demo6');
  good = (await add('YJ-1', yearsAgo(1), 5_000_000_00)).id;
  thin = (await add('YJ-2', yearsAgo(7), 1_000_00)).id;
  for (const [i, kind] of [2211, 2212, 2213, 2214, 2901].entries()) await upload('demo6', 'contract', good, kind, `页${kind}.pdf`, await makePdf(`p${i}`, kind === 2213 ? 2 : 1));
  await upload('demo6', 'contract', good, 2900, '审定单.jpg', makeJpeg(60, 80));
  await upload('demo6', 'contract', thin, 2211, '封面.pdf', await makePdf('c', 1));
  const holder = demoId('user:demo15');
  cert = (await ok('certificate/save', { userId: holder, kindId: certKindId('aq'), level: 'B', certNo: `AQ-X-${crypto.randomInt(1e6)}`, validFrom: yearsAgo(1), validTo: `${Number(today.slice(0, 4)) + 1}-12-31` }, 'demo15')).id;
  expired = (await ok('certificate/save', { userId: holder, kindId: certKindId('aq'), level: 'C', certNo: `AQ-Y-${crypto.randomInt(1e6)}`, validFrom: yearsAgo(4), validTo: yearsAgo(1) }, 'demo15')).id;
  title = (await ok('title/save', { userId: holder, level: 2, titleName: '工程师', certNo: `ZC-${crypto.randomInt(1e6)}`, issueDate: yearsAgo(3) }, 'demo15')).id;
  await upload('demo15', 'certificate', cert, 0, '安全证.pdf', await makePdf('aq', 1));
  await upload('demo15', 'certificate', expired, 0, '过期证.jpg', makeJpeg(40, 30));
  await upload('demo15', 'title', title, 0, '职称.pdf', await makePdf('zc', 1));
}, 240_000);
afterAll(() => s?.close());

const rule = { deadline, years: 5, thresholdFen: 100_000_00 };

describe('performance check and export', () => {
  it('checks pages, acceptance window and amount per contract', async () => {
    const rows = await ok('export/performance/check', { contractIds: [good, thin], ...rule }, 'demo9');
    expect(rows.map((r: { code: string }) => r.code)).toEqual(['YJ-1', 'YJ-2']);
    expect(rows[0]).toMatchObject({ problems: [], missingPages: [], fileCount: 6 });
    expect(rows[1].missingPages).toEqual([2212, 2213, 2214, 2901]);
    expect(rows[1].problems).toHaveLength(3);
    expect(rows[1].problems[1]).toMatch(/^竣工验收日期.*早于.*（近5年）$/);
    expect(rows[1].problems[2]).toBe('合同金额低于100000.00元');
    const gone = await call('export/performance/check', { contractIds: [crypto.randomUUID()], ...rule }, 'demo6');
    expect([gone.status, gone.message]).toEqual([404, '所选合同不存在或已删除，请重新选择']);
    const bad = await call('export/performance/check', { contractIds: [], ...rule, years: 0 }, 'demo6');
    expect(bad.status).toBe(400);
    expect(bad.message).toMatch(/请至少选择一个合同|年限须在1到10年之间/);
  });

  it('refuses a create whose check fails unless forced; a contract without files never', async () => {
    const body = { contractIds: [good, thin], ...rule, title: '某项目业绩', format: 'pdf' };
    const r = await call('export/performance/create', body, 'demo6');
    expect(r.status).toBe(409);
    expect(r.message).toMatch(/^有1个合同未通过核查（YJ-2 业绩YJ-2：缺少/);
    const none = await ok('contract/add', { contractType: 2, code: 'YJ-3', name: '空合同', customer: '甲', amount: 1, acceptedOn: yearsAgo(1) }, 'demo6');
    const e = await call('export/performance/create', { ...body, contractIds: [none.id], force: true }, 'demo6');
    expect([e.status, e.message]).toEqual([400, '合同「YJ-3 空合同」没有可导出的附件页，请先上传']);
    expect(await db().selectFrom('tender_exports').select('id').execute()).toEqual([]);
  });

  it('runs a job end to end: progress, status, download with pages, bookmarks and both log rows', async () => {
    const { id } = await ok('export/performance/create', { contractIds: [good], ...rule, title: '江北项目业绩', format: 'pdf', watermark: '仅供江北项目投标使用' }, 'demo6');
    const queued = await ok('export/status', { id }, 'demo6');
    expect(queued).toMatchObject({ kind: 'performance', state: 'queued', itemCount: 1, title: '江北项目业绩' });
    const done = await finish(id, 'demo6');
    // contents 1 + pages 1+1+2+1+1 + the 审定单 scan 1 (binding order: 2211 2212 2213 2214 2900 2901)
    expect(done).toMatchObject({ state: 'done', progress: 100, pageCount: 8, error: null });
    const res = await s.app.inject({ method: 'GET', url: `/api/tender/export/download?id=${id}`, headers: { 'x-token': tokens.demo6! } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const bytes = res.rawPayload;
    expect(bytes.length).toBe(done.size);
    const info = await pdfInfo(bytes);
    expect(info).toEqual({ pages: 8, outline: ['YJ-1 业绩YJ-1'] });
    const logs = await db().selectFrom('file_export_logs').selectAll().where('file_name', '=', done.fileName).orderBy('created_at').execute();
    expect(logs.map((l) => [l.kind, l.login_name, Number(l.size), l.sha256, Number(l.item_count)])).toEqual([
      ['export', 'demo6', bytes.length, crypto.createHash('sha256').update(bytes).digest('hex'), 1],
      ['download', 'demo6', bytes.length, crypto.createHash('sha256').update(bytes).digest('hex'), 1],
    ]);
    const items = await db().selectFrom('tender_export_items').select(['item_kind', 'item_id']).where('export_id', '=', id).execute();
    expect(items).toEqual([{ item_kind: 'contract', item_id: good }]);
  });

  it('a forced export with problems runs, as a zip of the files in folders', async () => {
    const { id } = await ok('export/performance/create', { contractIds: [good, thin], ...rule, title: '含问题', format: 'zip', force: true }, 'demo9');
    const done = await finish(id, 'demo9');
    expect(done).toMatchObject({ state: 'done', format: 'zip', pageCount: null, itemCount: 2 });
    const params = JSON.parse((await db().selectFrom('tender_exports').select('params').where('id', '=', id).executeTakeFirstOrThrow()).params);
    expect(params).toMatchObject({ watermark: '', forced: 1, years: 5 });
  });
});

describe('certificate check and export', () => {
  it('checks validity on the deadline, not today, and the scans; role 23 exports', async () => {
    const rows = await ok('export/certificate/check', { certificateIds: [cert, expired], titleIds: [title], deadline }, 'demo23');
    expect(rows.map((r: { kind: string; problems: string[]; scanCount: number }) => [r.kind, r.problems.length, r.scanCount])).toEqual([['certificate', 0, 1], ['certificate', 1, 1], ['title', 0, 1]]);
    expect(rows[1].problems[0]).toMatch(/到期，投标截止日.*已失效/);
    expect(rows[2]).toMatchObject({ name: '工程师', level: '中级' });
    // On a deadline before the expiry the expired one is valid.
    const earlier = await ok('export/certificate/check', { certificateIds: [expired], deadline: yearsAgo(2) }, 'demo23');
    expect(earlier[0].problems).toEqual([]);
    const refused = await call('export/certificate/create', { certificateIds: [cert, expired], deadline, title: '证书', format: 'pdf' }, 'demo23');
    expect(refused.status).toBe(409);
    const { id } = await ok('export/certificate/create', { certificateIds: [cert], titleIds: [title], deadline, title: '人员证书', format: 'pdf', watermark: '仅供测试' }, 'demo23');
    const done = await finish(id, 'demo23');
    expect(done).toMatchObject({ state: 'done', pageCount: 3 });
    const res = await s.app.inject({ method: 'GET', url: `/api/tender/export/download?id=${id}`, headers: { 'x-token': tokens.demo23! } });
    expect(res.statusCode).toBe(200);
    expect((await pdfInfo(res.rawPayload)).outline).toEqual([expect.stringContaining('安全生产考核合格证书 B'), expect.stringContaining('工程师 中级')]);
  });

  it('the pickers: 9 and 23 list certificates, titles and people here, not on the people pages', async () => {
    for (const who of ['demo9', 'demo23']) {
      const certs = await ok('export/certificate/list', { kindId: certKindId('aq'), keyword: 'AQ-X-', pageSize: 50 }, who);
      expect(certs.items.map((c: { id: string }) => c.id)).toEqual([cert]);
      expect((await ok('export/title/list', { level: 2, pageSize: 500 }, who)).items.map((t: { id: string }) => t.id)).toContain(title);
      expect((await ok('export/personnel/options', { keyword: 'demo15' }, who))[0].userId).toBe(demoId('user:demo15'));
      const mine = await ok('export/personnel/items', { userId: demoId('user:demo15') }, who);
      expect(mine.certificates.map((c: { id: string }) => c.id)).toEqual(expect.arrayContaining([cert, expired]));
      expect(mine.titles.map((t: { id: string }) => t.id)).toContain(title);
      expect((await call('certificate/list', {}, who)).status).toBe(403);
    }
  });

  it('a certificate without scans is refused even when forced', async () => {
    const bare = (await ok('certificate/save', { userId: demoId('user:demo15'), kindId: certKindId('aq'), level: 'A', certNo: `AQ-Z-${crypto.randomInt(1e6)}`, validFrom: yearsAgo(1) }, 'demo15')).id;
    const r = await call('export/certificate/create', { certificateIds: [bare], deadline, title: '证书', format: 'zip', force: true }, 'demo6');
    expect(r.status).toBe(400);
    expect(r.message).toMatch(/没有扫描件，无法导出，请先上传$/);
  });
});

describe('jobs, status and permissions', () => {
  it('lists my jobs; 1 and 6 may see all, 9 and 23 may not; another one’s job is refused', async () => {
    const mine9 = await ok('export/jobs', {}, 'demo9');
    expect(mine9.map((j: { title: string }) => j.title)).toEqual(['含问题']);
    expect((await ok('export/jobs', { kind: 'certificate' }, 'demo23')).map((j: { title: string }) => j.title)).toEqual(['人员证书']);
    expect((await ok('export/jobs', { all: true }, 'demo1')).length).toBe(3);
    expect((await call('export/jobs', { all: true }, 'demo23')).status).toBe(403);
    const other = mine9[0].id;
    expect((await call('export/status', { id: other }, 'demo23')).status).toBe(403);
    expect((await ok('export/status', { id: other }, 'demo6')).title).toBe('含问题');
    expect((await call('export/status', { id: crypto.randomUUID() }, 'demo6')).status).toBe(404);
    const dl = await s.app.inject({ method: 'GET', url: `/api/tender/export/download?id=${other}`, headers: { 'x-token': tokens.demo23! } });
    expect(dl.statusCode).toBe(403);
  });

  it('refuses roles outside the file group on every call; 23 gets 权限不足 on a contract edit', async () => {
    for (const who of ['demo3', 'demo7', 'demo15']) {
      for (const [path, body] of [['export/jobs', {}], ['export/status', { id: 'x' }], ['export/performance/check', { contractIds: [good], ...rule }], ['export/certificate/check', { certificateIds: [cert], deadline }], ['export/certificate/list', {}], ['export/title/list', {}], ['export/personnel/options', {}], ['export/personnel/items', { userId: demoId('user:demo15') }]] as const) {
        const a = await call(path, body, who);
        expect([who, path, a.status, a.message]).toEqual([who, path, 403, '权限不足']);
      }
      const dl = await s.app.inject({ method: 'GET', url: `/api/tender/export/download?id=x`, headers: { 'x-token': tokens[who]! } });
      expect(dl.statusCode).toBe(403);
    }
    const edit = await call('contract/edit', { id: good, contractType: 2, code: 'YJ-1', name: '改', customer: '甲', amount: 1 }, 'demo23');
    expect([edit.status, edit.message]).toEqual([403, '权限不足']);
  });

  it('roles 9 and 23 read the certificate scans (preview) but cannot upload them', async () => {
    for (const who of ['demo9', 'demo23']) {
      expect((await ok('attachment/list', { ownerKind: 'certificate', ownerIds: [cert] }, who)).length).toBe(1);
      const q = new URLSearchParams({ ownerKind: 'certificate', ownerId: cert, kind: '0', name: 'x.pdf' }).toString();
      const res = await s.app.inject({ method: 'POST', url: `/api/tender/attachment/upload?${q}`, headers: { 'content-type': 'application/octet-stream', 'x-token': tokens[who]! }, payload: await makePdf('x', 1) });
      expect(res.statusCode).toBe(403);
    }
  });

  it('refuses a download of an unfinished job in Chinese', async () => {
    await s.app.tenderExports.runner.stop();
    const { id } = await ok('export/performance/create', { contractIds: [good], ...rule, title: '未完成', format: 'pdf' }, 'demo6');
    const dl = await s.app.inject({ method: 'GET', url: `/api/tender/export/download?id=${id}`, headers: { 'x-token': tokens.demo6! } });
    expect([dl.statusCode, dl.json().message]).toEqual([409, '文件尚未生成完毕，请稍后再下载']);
  });
});
