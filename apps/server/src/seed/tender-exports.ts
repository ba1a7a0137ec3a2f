/**
 * A year of tender file export history (投标管理, issue 17; docs/tender.md "导出日志 and 导出统计"):
 * tender_exports rows (most done, a few failed) with their items pointing at the demo contracts,
 * certificates and titles, and the file export log's rows (the export, and 0–3 downloads of each done
 * one) made by the demo users who have a file role (1, 6, 9, 23; role 23 exports certificates only).
 *
 * The demo's exports have no stored file (storage_key null): their download answers that the file was
 * removed after the retention period (TenderExports.download). Runs after the tender contracts and
 * people seeders; deterministic (its own seeded random and the seed's day) and written once (a second
 * run finds the first export and does nothing). `tenderExports` exports a month (default 40; test
 * servers 0, as other tests count the file export log; tender-exports-demo.test.ts seeds 40).
 */
import crypto from 'node:crypto';
import type { FileExportLogTable } from '../modules/system/tables.js';
import { EXPORT_CATEGORY, exportFileName } from '../modules/tender/export/jobs.js';
import type { TenderExportItemTable, TenderExportTable } from '../modules/tender/export/tables.js';
import '../modules/tender/people/tables.js';
import '../modules/tender/tables.js';
import { demoId } from '../platform/ids.js';
import { shanghaiDay } from '../platform/listing.js';
import { bulkInsert } from './bulk.js';
import { DEPARTMENTS, type DemoUser } from './company.js';
import type { SeedContext } from './context.js';
import { Rng } from './rng.js';

export const TENDER_EXPORTS_PER_MONTH = 40;
const FILE_ROLES = ['1', '6', '9', '23'];
const PLACES = ['南京', '苏州', '无锡', '常州', '南通', '扬州', '镇江', '泰州', '盐城', '淮安', '宿迁', '徐州'];
const WORKS = ['市政道路改造工程', '污水管网工程', '智慧园区弱电工程', '安置房项目施工总承包', '学校综合楼工程', '河道整治工程', '变电站土建工程', '医院门诊楼装修工程', '轨道交通配套工程', '老旧小区改造工程'];
const FAILURES = ['文件「验收证书.pdf」已加密，无法合并，请上传未加密的文件', '文件「合同首页.pdf」不是有效的 PDF 或已损坏，请重新上传', '导出失败：生成文件时出错，请重试'];

/** A stable hex digest for a demo file (the demo has no bytes to hash). */
const fakeSha = (key: string) => crypto.createHash('sha256').update(`demo-export:${key}`).digest('hex');

/** Picks `n` distinct entries, favouring the first `hot` ones (some contracts and people are used far more often). */
function pickSome<T>(rng: Rng, all: readonly T[], n: number, hot: number): T[] {
  const out = new Set<T>();
  for (let tries = 0; out.size < Math.min(n, all.length) && tries < n * 20; tries++) {
    out.add(rng.chance(0.6) ? all[rng.int(0, Math.min(hot, all.length) - 1)]! : rng.pick(all));
  }
  return [...out];
}

export async function seedTenderExports(ctx: SeedContext): Promise<void> {
  const { db, now } = ctx;
  if (await db.selectFrom('tender_exports').select('id').where('id', '=', demoId('tender-export:0')).executeTakeFirst()) return;
  const rng = new Rng(20261123);
  const perMonth = ctx.tenderExports ?? TENDER_EXPORTS_PER_MONTH;
  const exporters = ctx.users.filter((u) => u.roles.some((r) => FILE_ROLES.includes(r)));
  const contracts = await db.selectFrom('contracts').select(['id', 'code', 'name']).where('is_temp', '=', 0).where('contract_type', 'in', [1, 2, 3]).orderBy('code').execute();
  const certs = await db
    .selectFrom('tender_certificates as c')
    .innerJoin('tender_cert_kinds as k', 'k.id', 'c.kind_id')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .select(['c.id', 'c.cert_no', 'k.name as kind', 'u.name as holder'])
    .orderBy('c.id')
    .execute();
  const titles = await db.selectFrom('tender_titles as t').innerJoin('users as u', 'u.id', 't.user_id').select(['t.id', 't.title_name', 'u.name as holder']).orderBy('t.id').execute();
  if (!exporters.length || (!contracts.length && !certs.length) || perMonth <= 0) return;
  const deptName = new Map(DEPARTMENTS.map((d) => [d.key, d.name]));
  const who = (u: DemoUser) => ({ user_id: u.id, login_name: u.loginName, user_name: u.name, dept_name: deptName.get(u.dept) ?? '' });

  const jobs: TenderExportTable[] = [];
  const items: TenderExportItemTable[] = [];
  const logs: FileExportLogTable[] = [];
  const total = perMonth * 12;
  for (let n = 0; n < total; n++) {
    const id = demoId(`tender-export:${n}`);
    const user = rng.pick(exporters);
    const certOnly = !user.roles.some((r) => r !== '23' && FILE_ROLES.includes(r));
    const kind = certOnly || !contracts.length || (certs.length && rng.chance(0.45)) ? 'certificate' : 'performance';
    const format = rng.chance(0.75) ? 'pdf' : 'zip';
    // Working hours of a day within the last 365 days (Shanghai: 08:30–19:00 is 00:30–11:00 UTC).
    const created = new Date(Date.parse(`${shanghaiDay(new Date(now.getTime() - rng.int(1, 365) * 86_400_000))}T00:30:00Z`) + rng.int(0, 630) * 60_000);
    if (created >= now) continue;
    const place = rng.pick(PLACES);
    const work = rng.pick(WORKS);
    const title = `${place}${work}投标${kind === 'performance' ? '业绩文件' : '人员证书'}`;
    const picked =
      kind === 'performance'
        ? pickSome(rng, contracts, rng.int(3, 8), 12).map((c) => ({ kind: 'contract' as const, id: c.id, label: `${c.code} ${c.name}` }))
        : [
            ...pickSome(rng, certs, rng.int(2, 7), 25).map((c) => ({ kind: 'certificate' as const, id: c.id, label: `${c.holder} ${c.kind} ${c.cert_no}` })),
            ...(titles.length && rng.chance(0.3) ? pickSome(rng, titles, rng.int(1, 2), 10).map((t) => ({ kind: 'title' as const, id: t.id, label: `${t.holder} ${t.title_name}` })) : []),
          ];
    if (!picked.length) continue;
    const failed = rng.chance(0.05);
    const finished = new Date(created.getTime() + rng.int(8, 240) * 1000);
    const pages = format === 'pdf' && !failed ? picked.length * rng.int(4, 14) + 1 : null;
    const size = failed ? null : rng.int(picked.length * 600_000, picked.length * 9_000_000);
    const sha = failed ? null : fakeSha(`${n}`);
    const fileName = exportFileName(title, format, created);
    jobs.push({
      id, kind, format, title, params: JSON.stringify({ watermark: `仅供${place}${work}投标使用` }), state: failed ? 'failed' : 'done', progress: failed ? rng.int(5, 60) : 100,
      step: failed ? '导出失败' : '已完成', error: failed ? rng.pick(FAILURES) : null, attempt: 1, file_name: fileName, storage_key: null, size, sha256: sha,
      item_count: picked.length, page_count: pages, created_by: user.id, created_by_name: user.name, created_at: created.toISOString(),
      started_at: new Date(created.getTime() + 2000).toISOString(), finished_at: finished.toISOString(),
    });
    picked.forEach((it, i) => items.push({ export_id: id, position: i + 1, item_kind: it.kind, item_id: it.id, label: it.label.slice(0, 200) }));
    if (failed) continue;
    const label = kind === 'performance' ? '业绩文件' : '证书文件';
    const log = (k: 'export' | 'download', u: DemoUser, at: Date, i: number): FileExportLogTable => ({
      id: demoId(`tender-export-log:${n}:${i}`), kind: k, category: EXPORT_CATEGORY, description: `${k === 'export' ? '导出' : '下载'}投标${label}：${fileName}`, file_name: fileName,
      row_count: null, size, sha256: sha, item_count: picked.length, ...who(u), day: shanghaiDay(at), created_at: at.toISOString(),
    });
    logs.push(log('export', user, finished, 0));
    const downloads = rng.pick([0, 1, 1, 1, 2, 2, 3]);
    for (let d = 1; d <= downloads; d++) {
      const at = new Date(finished.getTime() + rng.int(1, d === 1 ? 120 : 4 * 24 * 60) * 60_000);
      if (at < now) logs.push(log('download', rng.chance(0.75) ? user : rng.pick(exporters), at, d));
    }
  }
  await bulkInsert(db, 'tender_exports', jobs);
  await bulkInsert(db, 'tender_export_items', items);
  await bulkInsert(db, 'file_export_logs', logs);
}
