/**
 * Issue 17, the demo's year of tender file exports (seed/tender-exports.ts) at 40 a month: done ones
 * with a few failed, items pointing at real demo contracts, certificates and titles, made by users with
 * a file role (role 23 alone: certificates only), within the last year; each done export's log row and
 * its downloads carry its file name, size and hash; no stored file (purged), so a download answers the
 * retention message; a second run writes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_CATEGORY, EXPORT_PURGED_MESSAGE } from '../src/modules/tender/export/jobs.js';
import { fileExportActorOf } from '../src/modules/syslog/fileExports.js';
import { seedTenderExports } from '../src/seed/tender-exports.js';
import type { SeedContext } from '../src/seed/index.js';
import '../src/modules/tender/export/tables.js';
import '../src/modules/tender/people/tables.js';
import { startTestServer, TEST_DEMO, type TestServer } from './helpers.js';

let s: TestServer;
const k = () => s.db.kysely;

beforeAll(async () => {
  s = await startTestServer({ demoOptions: { ...TEST_DEMO, tenderExports: 40 } });
}, 300_000);
afterAll(() => s?.close());

describe('the demo export history', () => {
  it('about 480 exports over the last year, a few failed, by users with a file role', async () => {
    const jobs = await k().selectFrom('tender_exports').selectAll().execute();
    expect(jobs.length).toBeGreaterThan(420);
    expect(jobs.length).toBeLessThanOrEqual(480);
    const failed = jobs.filter((j) => j.state === 'failed');
    expect(failed.length).toBeGreaterThan(5);
    expect(failed.length).toBeLessThan(jobs.length * 0.12);
    expect(jobs.every((j) => ['done', 'failed'].includes(j.state) && j.storage_key === null)).toBe(true);
    expect(failed.every((j) => j.error && j.sha256 === null)).toBe(true);
    const yearAgo = new Date(Date.now() - 367 * 86_400_000).toISOString();
    expect(jobs.every((j) => j.created_at > yearAgo && j.created_at < new Date().toISOString())).toBe(true);
    expect(new Set(jobs.map((j) => j.created_at.slice(0, 7))).size).toBeGreaterThanOrEqual(12);
    const roles = await k().selectFrom('user_roles').select(['user_id', 'role']).execute();
    const of = (id: string) => roles.filter((r) => r.user_id === id).map((r) => r.role);
    for (const j of jobs) {
      const rs = of(j.created_by);
      expect(rs.some((r) => ['1', '6', '9', '23'].includes(r))).toBe(true);
      if (!rs.some((r) => ['1', '6', '9'].includes(r))) expect(j.kind).toBe('certificate');
    }
    expect(new Set(jobs.map((j) => j.created_by)).size).toBeGreaterThan(2);
  });

  it('items point at real contracts, certificates and titles, as many as each export counts', async () => {
    const items = await k().selectFrom('tender_export_items').selectAll().execute();
    const jobs = await k().selectFrom('tender_exports').select(['id', 'kind', 'item_count']).execute();
    const count = new Map<string, number>();
    for (const i of items) count.set(i.export_id, (count.get(i.export_id) ?? 0) + 1);
    for (const j of jobs) expect(count.get(j.id)).toBe(j.item_count);
    const ids = async (t: 'contracts' | 'tender_certificates' | 'tender_titles') => new Set((await k().selectFrom(t).select('id').execute()).map((r) => r.id));
    const known = { contract: await ids('contracts'), certificate: await ids('tender_certificates'), title: await ids('tender_titles') };
    for (const i of items) expect(known[i.item_kind].has(i.item_id), `${i.item_kind} ${i.item_id}`).toBe(true);
    const kinds = new Map(jobs.map((j) => [j.id, j.kind]));
    for (const i of items) expect(i.item_kind === 'contract').toBe(kinds.get(i.export_id) === 'performance');
  });

  it('each done export has its export log row and 0–3 downloads with its name, size and hash', async () => {
    const done = await k().selectFrom('tender_exports').selectAll().where('state', '=', 'done').execute();
    const logs = await k().selectFrom('file_export_logs').selectAll().where('category', '=', EXPORT_CATEGORY).execute();
    const bySha = new Map<string, typeof logs>();
    for (const l of logs) bySha.set(l.sha256!, [...(bySha.get(l.sha256!) ?? []), l]);
    expect(new Set(done.map((j) => j.sha256)).size).toBe(done.length);
    let downloads = 0;
    for (const j of done) {
      const mine = bySha.get(j.sha256!) ?? [];
      const exp = mine.filter((l) => l.kind === 'export');
      expect(exp.map((l) => [l.file_name, Number(l.size), l.user_id, l.item_count])).toEqual([[j.file_name, Number(j.size), j.created_by, j.item_count]]);
      const dl = mine.filter((l) => l.kind === 'download');
      expect(dl.length).toBeLessThanOrEqual(3);
      for (const d of dl) expect([d.file_name, d.created_at > j.finished_at!, d.login_name !== '']).toEqual([j.file_name, true, true]);
      downloads += dl.length;
    }
    expect(downloads).toBeGreaterThan(done.length * 0.8);
    expect(done.every((j) => /^[0-9a-f]{64}$/.test(j.sha256!) && Number(j.size) > 0 && j.file_name.endsWith(`.${j.format}`))).toBe(true);
  });

  it('a demo export cannot be downloaded: its file is gone; a second run of the seeder adds nothing', async () => {
    const one = await k().selectFrom('tender_exports').select(['id', 'created_by']).where('state', '=', 'done').limit(1).executeTakeFirstOrThrow();
    const actor = (await fileExportActorOf(k(), one.created_by))!;
    await expect(s.app.tenderExports.exports.download(one.id, actor)).rejects.toThrow(EXPORT_PURGED_MESSAGE);
    const before = (await k().selectFrom('tender_exports').select('id').execute()).length;
    await seedTenderExports({ db: k(), now: new Date(), users: [], tenderExports: 40 } as unknown as SeedContext);
    expect((await k().selectFrom('tender_exports').select('id').execute()).length).toBe(before);
  });
});
