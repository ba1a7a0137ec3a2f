/**
 * 投标管理 files and settings: /api/tender/setting/* and /api/tender/attachment/* (with a test-only
 * owner), the signed file link, content sniffing, the size limit, and the s3 driver shared by two app servers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OperationLogType, SIGNED_TENDER_FILE_ROUTE, TENDER_SETTING_DEFAULTS } from '@zhyy/shared';
import { signedLink } from '../src/modules/invoice/files/service.js';
import { listAttachments, openAttachment, storeAttachment } from '../src/modules/tender/attachment/attachments.js';
import { hasRole, registerAttachmentOwner, unregisterAttachmentOwner } from '../src/modules/tender/attachment/owners.js';
import { s3Env, startFakeS3, type FakeS3 } from './fake-s3.js';
import { startTestServer, type TestServer } from './helpers.js';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 7)]);
const JPG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 3)]);

const OWNER = 'test-doc';
registerAttachmentOwner(OWNER, {
  canRead: (req) => hasRole(req, ['1', '6', '9']),
  canWrite: (req) => hasRole(req, ['1', '6']),
  describe: async (_db, id) => (id.startsWith('doc-') ? `测试文档${id}` : null),
  kinds: [0, 2900, 2901],
  locked: async (_db, id) => (id === 'doc-locked' ? '该文档已归档，不能修改附件' : null),
});
afterAll(() => unregisterAttachmentOwner(OWNER));

async function upload(s: TestServer, token: string | undefined, q: Record<string, string | number>, body: Buffer, contentType = 'application/octet-stream') {
  const qs = new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)] as [string, string])).toString();
  const res = await s.app.inject({ method: 'POST', url: `/api/tender/attachment/upload?${qs}`, headers: { 'content-type': contentType, ...(token ? { 'x-token': token } : {}) }, payload: body });
  const json = res.json();
  return { status: res.statusCode, code: json.code, message: json.message as string | undefined, r: json.r };
}

const oplogs = (s: TestServer, like: string) => s.db.kysely.selectFrom('operation_logs').select(['type', 'description', 'user_name']).where('description', 'like', `%${like}%`).execute();

describe('tender files and settings', () => {
  let s: TestServer;
  let t: Record<string, string>;
  beforeAll(async () => {
    s = await startTestServer();
    t = {};
    for (const n of ['demo1', 'demo3', 'demo5', 'demo6', 'demo9', 'demo15', 'demo23']) t[n] = await s.login(n);
  }, 240_000);
  afterAll(() => s.close());

  describe('settings', () => {
    it('demo6 reads the defaults and saves; reminder days are sorted; the change is logged', async () => {
      const g = await s.call('/api/tender/setting/get', {}, t.demo6);
      expect(g.status).toBe(200);
      expect(g.r).toMatchObject({ ...TENDER_SETTING_DEFAULTS, updatedBy: null });
      const saved = await s.call('/api/tender/setting/save', { watermark: '仅供某某项目投标使用', windowYears: 3, thresholdFen: 5_000_000_00, remindDays: [7, 90, 30] }, t.demo6);
      expect(saved.status).toBe(200);
      expect(saved.message).toBe('保存成功');
      expect(saved.r).toMatchObject({ watermark: '仅供某某项目投标使用', windowYears: 3, thresholdFen: 500000000, remindDays: [90, 30, 7], updatedBy: expect.any(String) });
      const again = await s.call('/api/tender/setting/get', {}, t.demo9);
      expect(again.r.remindDays).toEqual([90, 30, 7]);
      const logs = await oplogs(s, '修改投标设置');
      expect(logs).toHaveLength(1);
      expect(logs[0]).toMatchObject({ type: OperationLogType.edit });
      expect(logs[0]!.description).toContain('业绩年限3年');
      expect(logs[0]!.description).toContain('原为默认水印“仅供××项目投标使用”');
    });

    it('refuses bad values in Chinese', async () => {
      const base = { watermark: 'x', windowYears: 5, thresholdFen: 0, remindDays: [90] };
      for (const [patch, msg] of [
        [{ windowYears: 11 }, '业绩年限须在1至10年之间'],
        [{ windowYears: 0 }, '业绩年限须在1至10年之间'],
        [{ thresholdFen: -1 }, '业绩金额门槛不能为负数'],
        [{ thresholdFen: 1.5 }, '业绩金额门槛须精确到分'],
        [{ remindDays: [30, 30] }, '提醒天数不能重复'],
        [{ remindDays: [0] }, '提醒天数须在1至365天之间'],
        [{ remindDays: [366] }, '提醒天数须在1至365天之间'],
        [{ remindDays: [] }, '至少设置一个提醒天数'],
        [{ watermark: '  ' }, '请填写默认水印文字'],
      ] as const) {
        const a = await s.call('/api/tender/setting/save', { ...base, ...patch }, t.demo6);
        expect(a.status, JSON.stringify(patch)).toBe(400);
        expect(a.message).toContain(msg);
      }
    });

    it('demo9 and demo5 read but may not save; demo3 (outside the tender group) may do neither; demo1 may do both', async () => {
      const body = { watermark: 'x', windowYears: 5, thresholdFen: 0, remindDays: [90] };
      // Role 5 reads the contract list, whose pages read the settings (access.settingRead in paths.ts).
      for (const who of ['demo9', 'demo5']) {
        expect((await s.call('/api/tender/setting/get', {}, t[who])).status).toBe(200);
        const no = await s.call('/api/tender/setting/save', body, t[who]);
        expect([no.status, no.message]).toEqual([403, '权限不足']);
      }
      for (const url of ['/api/tender/setting/get', '/api/tender/setting/save']) {
        const a = await s.call(url, body, t.demo3);
        expect([a.status, a.message]).toEqual([403, '权限不足']);
      }
      expect((await s.call('/api/tender/setting/save', { ...body, windowYears: 5, thresholdFen: 0, watermark: TENDER_SETTING_DEFAULTS.watermark, remindDays: [90, 60, 30, 7] }, t.demo1)).status).toBe(200);
      expect((await s.call('/api/tender/setting/get', {}, t.demo15)).status).toBe(200);
      expect((await s.call('/api/tender/setting/get', {}, t.demo23)).status).toBe(200);
    });
  });

  describe('attachments', () => {
    it('uploads by content type, lists, links, serves the exact bytes and deletes; each step logged', async () => {
      const a = await upload(s, t.demo6, { ownerKind: OWNER, ownerId: 'doc-1', kind: 2900, name: '审定单.pdf' }, PDF);
      expect(a.status).toBe(200);
      expect(a.r).toMatchObject({ ownerKind: OWNER, ownerId: 'doc-1', kind: 2900, fileName: '审定单.pdf', mime: 'application/pdf', size: PDF.length });
      // A PNG named .pdf is a PNG.
      const b = await upload(s, t.demo6, { ownerKind: OWNER, ownerId: 'doc-1', kind: 2901, name: '验收证书.pdf' }, PNG);
      expect(b.r.mime).toBe('image/png');
      const c = await upload(s, t.demo1, { ownerKind: OWNER, ownerId: 'doc-2', kind: 0, name: '照片.jpg' }, JPG);
      expect(c.r.mime).toBe('image/jpeg');

      const list = await s.call('/api/tender/attachment/list', { ownerKind: OWNER, ownerIds: ['doc-1', 'doc-2', 'doc-none'] }, t.demo9);
      expect(list.status).toBe(200);
      expect(list.r.map((x: { fileName: string }) => x.fileName)).toEqual(['审定单.pdf', '验收证书.pdf', '照片.jpg']);
      expect(await listAttachments(s.db.kysely, OWNER, ['doc-2'])).toHaveLength(1);

      const link = await s.call('/api/tender/attachment/file-link', { id: a.r.id }, t.demo9);
      expect(link.status).toBe(200);
      expect(link.r).toMatchObject({ name: '审定单.pdf', type: 'application/pdf' });
      expect(link.r.url.startsWith(`${SIGNED_TENDER_FILE_ROUTE}/${a.r.id}?`)).toBe(true);
      const got = await s.app.inject({ method: 'GET', url: link.r.url });
      expect(got.statusCode).toBe(200);
      expect(got.headers['content-type']).toBe('application/pdf');
      expect(String(got.headers['content-disposition'])).toContain('inline');
      expect(got.headers['x-content-type-options']).toBe('nosniff');
      expect(got.rawPayload.equals(PDF)).toBe(true);

      const opened = await openAttachment(s.app, b.r.id);
      const parts: Buffer[] = [];
      for await (const ch of opened.stream) parts.push(Buffer.from(ch));
      expect(Buffer.concat(parts).equals(PNG)).toBe(true);

      const row = await s.db.kysely.selectFrom('tender_attachments').select('storage_key').where('id', '=', a.r.id).executeTakeFirstOrThrow();
      expect(await s.app.storage.exists(row.storage_key)).toBe(true);
      const del = await s.call('/api/tender/attachment/delete', { id: a.r.id }, t.demo6);
      expect([del.status, del.message]).toEqual([200, '删除成功']);
      expect(await s.app.storage.exists(row.storage_key)).toBe(false);
      expect((await s.call('/api/tender/attachment/delete', { id: a.r.id }, t.demo6)).message).toBe('附件不存在或已被删除');
      expect((await s.app.inject({ method: 'GET', url: link.r.url })).statusCode).toBe(404);

      expect((await oplogs(s, '上传投标附件：测试文档doc-1 审定单 审定单.pdf')).map((l) => l.type)).toEqual([OperationLogType.upload]);
      expect((await oplogs(s, '查看投标附件：测试文档doc-1 审定单 审定单.pdf')).map((l) => l.type)).toEqual([OperationLogType.view]);
      expect((await oplogs(s, '删除投标附件：测试文档doc-1 审定单 审定单.pdf')).map((l) => l.type)).toEqual([OperationLogType.delete]);
    });

    it('refuses other formats, empty files and files over 50 MB, storing nothing', async () => {
      const before = await listAttachments(s.db.kysely, OWNER, ['doc-3']);
      for (const body of [Buffer.from('<html><script>alert(1)</script></html>'), Buffer.from('PK\u0003\u0004 a zip'), Buffer.from('GIF89a......')]) {
        const r = await upload(s, t.demo6, { ownerKind: OWNER, ownerId: 'doc-3', kind: 0, name: '扫描件.pdf' }, body);
        expect([r.status, r.message]).toEqual([400, '只能上传PDF、JPG或PNG文件']);
      }
      const empty = await upload(s, t.demo6, { ownerKind: OWNER, ownerId: 'doc-3', kind: 0, name: 'a.pdf' }, Buffer.alloc(0));
      expect(empty.message).toBe('文件内容为空');
      const big = Buffer.alloc(50 * 1024 * 1024 + 1, 0x20);
      PDF.copy(big);
      const tooBig = await upload(s, t.demo6, { ownerKind: OWNER, ownerId: 'doc-3', kind: 0, name: 'big.pdf' }, big);
      expect([tooBig.status, tooBig.message]).toEqual([413, '文件不能超过50MB']);
      expect(await listAttachments(s.db.kysely, OWNER, ['doc-3'])).toEqual(before);
      const json = await upload(s, t.demo6, { ownerKind: OWNER, ownerId: 'doc-3', kind: 0, name: 'a.pdf' }, Buffer.from('{}'), 'application/json');
      expect(json.message).toBe('请以application/octet-stream上传文件内容');
    });

    it('checks the owner: unknown kind or record, types, lock, names', async () => {
      const up = (q: Record<string, string | number>) => upload(s, t.demo6, { ownerKind: OWNER, ownerId: 'doc-4', kind: 0, name: 'a.pdf', ...q }, PDF);
      expect((await up({ ownerKind: 'nobody' })).message).toBe('附件所属类型不正确');
      expect((await up({ ownerKind: '../etc' })).message).toContain('附件所属类型不正确');
      const missing = await up({ ownerId: 'x-1' });
      expect([missing.status, missing.message]).toEqual([404, '附件所属记录不存在']);
      expect((await up({ kind: 2111 })).message).toBe('附件类型不正确');
      expect((await up({ ownerId: 'doc-locked' })).message).toBe('该文档已归档，不能修改附件');
      expect((await up({ name: '../../etc/passwd' })).message).toContain('文件名不能包含斜杠');
      expect((await up({ name: '' })).message).toContain('请指定文件名');
      expect((await up({ kind: 'abc' })).message).toContain('附件类型不正确');
      expect((await s.call('/api/tender/attachment/list', { ownerKind: 'nobody', ownerIds: [] }, t.demo6)).message).toBe('附件所属类型不正确');
    });

    it('permissions: page access outside, the owner inside', async () => {
      const a = await upload(s, t.demo6, { ownerKind: OWNER, ownerId: 'doc-5', kind: 0, name: 'a.pdf' }, PDF);
      // demo9 (tender files) reads this owner's files but may not change them.
      const up9 = await upload(s, t.demo9, { ownerKind: OWNER, ownerId: 'doc-5', kind: 0, name: 'b.pdf' }, PDF);
      expect([up9.status, up9.message]).toEqual([403, '权限不足']);
      expect((await s.call('/api/tender/attachment/delete', { id: a.r.id }, t.demo9)).status).toBe(403);
      expect((await s.call('/api/tender/attachment/file-link', { id: a.r.id }, t.demo9)).status).toBe(200);
      // demo15 (people pages) reaches the calls, but this owner does not let role 15 read.
      expect((await s.call('/api/tender/attachment/list', { ownerKind: OWNER, ownerIds: ['doc-5'] }, t.demo15)).status).toBe(403);
      expect((await s.call('/api/tender/attachment/file-link', { id: a.r.id }, t.demo15)).status).toBe(403);
      // demo5 reaches the calls (the contract list) but this owner does not let role 5 read; demo3 has no tender page at all.
      expect((await s.call('/api/tender/attachment/list', { ownerKind: OWNER, ownerIds: ['doc-5'] }, t.demo5)).status).toBe(403);
      for (const [url, body] of [['/api/tender/attachment/list', { ownerKind: OWNER, ownerIds: ['doc-5'] }], ['/api/tender/attachment/file-link', { id: a.r.id }], ['/api/tender/attachment/delete', { id: a.r.id }]] as const) {
        const r = await s.call(url, body, t.demo3);
        expect([r.status, r.message]).toEqual([403, '权限不足']);
      }
      const up5 = await upload(s, t.demo3, { ownerKind: OWNER, ownerId: 'doc-5', kind: 0, name: 'b.pdf' }, PDF);
      expect([up5.status, up5.message]).toEqual([403, '权限不足']);
      expect((await upload(s, undefined, { ownerKind: OWNER, ownerId: 'doc-5', kind: 0, name: 'b.pdf' }, PDF)).status).toBe(401);
      // A locked owner's files may not be deleted either.
      const locked = await storeAttachment(s.app, { ownerKind: OWNER, ownerId: 'doc-locked', kind: 0, name: 'l.pdf', body: PDF, by: '系统' });
      expect((await s.call('/api/tender/attachment/delete', { id: locked.id }, t.demo6)).message).toBe('该文档已归档，不能修改附件');
    });

    it('storeAttachment works inside a transaction of the caller (as seeders use it)', async () => {
      const stored = await s.db.kysely.transaction().execute((trx) => storeAttachment({ storage: s.app.storage, db: trx, inTransaction: true }, { ownerKind: OWNER, ownerId: 'doc-seed', kind: 2900, name: 'seed.png', body: PNG, by: '系统' }));
      expect(stored).toMatchObject({ mime: 'image/png', size: PNG.length, uploadedBy: '系统' });
      expect((await listAttachments(s.db.kysely, OWNER, ['doc-seed'])).map((x) => x.id)).toEqual([stored.id]);
      await expect(s.db.kysely.transaction().execute((trx) => storeAttachment({ storage: s.app.storage, db: trx, inTransaction: true }, { ownerKind: OWNER, ownerId: 'doc-seed', kind: 0, name: 'x.txt', body: Buffer.from('hello'), by: '系统' }))).rejects.toMatchObject({ message: '只能上传PDF、JPG或PNG文件' });
    });

    it('the signed link: tampered or expired links are refused', async () => {
      const a = await storeAttachment(s.app, { ownerKind: OWNER, ownerId: 'doc-6', kind: 0, name: 'a.pdf', body: PDF, by: '系统' });
      const { url } = (await s.call('/api/tender/attachment/file-link', { id: a.id }, t.demo6)).r;
      const tampered = url.replace(/s=([^&])/, (_m: string, c: string) => `s=${c === 'A' ? 'B' : 'A'}`);
      const bad = await s.app.inject({ method: 'GET', url: tampered });
      expect([bad.statusCode, bad.json().message]).toEqual([403, '文件链接无效']);
      // Another file's id with this link's signature.
      const other = await storeAttachment(s.app, { ownerKind: OWNER, ownerId: 'doc-6', kind: 0, name: 'b.pdf', body: PDF, by: '系统' });
      expect((await s.app.inject({ method: 'GET', url: url.replace(a.id, other.id) })).statusCode).toBe(403);
      // A link made 11 minutes ago.
      const key = (await s.db.kysely.selectFrom('invoice_settings').select('file_key').executeTakeFirstOrThrow()).file_key;
      const old = signedLink(key, a.id, Date.now() - 11 * 60_000, SIGNED_TENDER_FILE_ROUTE);
      const expired = await s.app.inject({ method: 'GET', url: old.url });
      expect([expired.statusCode, expired.json().message]).toEqual([403, '文件链接已过期，请重新打开']);
      const fresh = signedLink(key, a.id, Date.now() - 9 * 60_000, SIGNED_TENDER_FILE_ROUTE);
      expect((await s.app.inject({ method: 'GET', url: fresh.url })).statusCode).toBe(200);
    });
  });
});

describe('tender attachments on S3, shared by two app servers', () => {
  let s3: FakeS3;
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    s3 = await startFakeS3();
    a = await startTestServer({ env: s3Env(s3) });
    b = await startTestServer({ sameDatabaseAs: a, env: s3Env(s3) });
  }, 240_000);
  afterAll(async () => {
    await b.close();
    await a.close();
    await s3.close();
  });

  it('a file uploaded through one server is served by the other', async () => {
    const up = await upload(a, await a.login('demo6'), { ownerKind: OWNER, ownerId: 'doc-s3', kind: 0, name: 's3.pdf' }, PDF);
    expect(up.status).toBe(200);
    expect([...s3.objects.keys()].some((k) => k.endsWith(up.r.id))).toBe(true);
    const link = await b.call('/api/tender/attachment/file-link', { id: up.r.id }, await b.login('demo9'));
    const got = await b.app.inject({ method: 'GET', url: link.r.url });
    expect(got.statusCode).toBe(200);
    expect(got.rawPayload.equals(PDF)).toBe(true);
    expect((await b.call('/api/tender/attachment/delete', { id: up.r.id }, await b.login('demo6'))).status).toBe(200);
    expect([...s3.objects.keys()].some((k) => k.endsWith(up.r.id))).toBe(false);
  });
});
