/**
 * /api/tender/export/*: the calls of the tender file export pages (业绩核查, 业绩文件导出, 证书文件导出,
 * 人员证书导出) on the export engine (module.ts). Access: the file pages (1, 6, 9, 23). A check answers
 * each pick's problems; a create re-checks and refuses (409, the problems named) unless the body says
 * `force` — the page shows the problems and asks first. A pick without any file to bind is refused even
 * then (400). Jobs: the caller's own; roles 1 and 6 (the export log's pages) may ask for everyone's.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  canAccessAny, CertificateQuery, PersonnelOptionsQuery, PersonnelUserBody, TitleQuery, CertificateCheckBody, CertificateCreateBody, PerformanceCheckBody, PerformanceCreateBody, TenderExportIdBody, TenderExportJobQuery,
  type TenderExportJob,
} from '@zhyy/shared';
import { conflict, forbidden, notFound, ok, refuse } from '../../../platform/envelope.js';
import { typed } from '../../../platform/route.js';
import { contentDisposition } from '../../../platform/userFiles.js';
import { performanceCheck, registerPerformanceResolver } from '../contracts/exportResolver.js';
import { access, tags } from '../paths.js';
import { certificateCheck, itemsOf, registerCertificateResolver, sectionTitle } from '../people/exportResolver.js';
import { certPage, certsOfUser, personnelOptions, titlePage, titlesOfUser } from '../people/queries.js';
import type { TenderExportRow } from './jobs.js';
import { ExportInputError } from './types.js';

export function toJob(r: TenderExportRow): TenderExportJob {
  return {
    id: r.id, kind: r.kind, format: r.format, title: r.title, state: r.state, progress: r.progress, step: r.step, error: r.error, fileName: r.file_name,
    size: r.size === null ? null : Number(r.size), pageCount: r.page_count, itemCount: r.item_count, createdByName: r.created_by_name, createdAt: r.created_at, finishedAt: r.finished_at,
  };
}

/** The refusal of a create whose check found problems: the first few named. */
function problemsMessage(what: string, rows: { label: string; problems: string[] }[]): string {
  const bad = rows.filter((r) => r.problems.length);
  const shown = bad.slice(0, 3).map((r) => `${r.label}：${r.problems.join('；')}`).join('。');
  return `有${bad.length}个${what}未通过核查（${shown}${bad.length > 3 ? '…' : ''}），请调整后再导出，或确认后继续导出`;
}

export async function tenderExportHttpRoutes(app: FastifyInstance): Promise<void> {
  registerPerformanceResolver(app);
  registerCertificateResolver(app);
  const r = typed(app);
  const E = '/api/tender/export';
  const db = () => app.db.kysely;
  const exports = () => app.tenderExports.exports;
  const mayAll = (req: FastifyRequest) => !!req.user && access.exportAdmin.access.kind === 'pages' && canAccessAny(req.user.roles, access.exportAdmin.access.requirements);
  const mine = async (req: FastifyRequest, id: string) => {
    const job = await exports().get(id);
    if (!job) throw notFound('导出记录不存在');
    if (job.created_by !== req.user!.id && !mayAll(req)) throw forbidden();
    return job;
  };
  const create = async (req: FastifyRequest, input: Parameters<ReturnType<typeof exports>['create']>[0]) => {
    try {
      return await exports().create(input, { id: req.user!.id, name: req.user!.name });
    } catch (err) {
      if (err instanceof ExportInputError) throw refuse(err.message);
      throw err;
    }
  };

  r.post(`${E}/jobs`, { schema: { body: TenderExportJobQuery, summary: '我的投标文件导出任务（最近的在前；角色1、6可查看全部）', tags }, config: access.files }, async (req) => {
    if (req.body.all && !mayAll(req)) throw forbidden();
    let q = db().selectFrom('tender_exports').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(req.body.limit);
    if (!req.body.all) q = q.where('created_by', '=', req.user!.id);
    if (req.body.kind) q = q.where('kind', '=', req.body.kind);
    return ok((await q.execute()).map(toJob));
  });
  r.post(`${E}/status`, { schema: { body: TenderExportIdBody, summary: '导出任务的状态与进度', tags }, config: access.files }, async (req) => ok(toJob(await mine(req, req.body.id))));
  r.get(`${E}/download`, { schema: { querystring: TenderExportIdBody, summary: '下载已生成的投标文件（流式，记录下载日志）', tags }, config: access.files }, async (req, reply) => {
    const job = await mine(req, req.query.id);
    const u = req.user!;
    const actor = { id: u.id, loginName: u.loginName, name: u.name, deptName: u.deptName };
    let file;
    try {
      file = await exports().download(job.id, actor);
    } catch (err) {
      if (err instanceof ExportInputError) throw conflict(err.message);
      throw err;
    }
    return reply
      .header('content-type', job.format === 'pdf' ? 'application/pdf' : 'application/zip')
      .header('content-length', file.size)
      .header('content-disposition', contentDisposition('attachment', file.fileName))
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'private, no-store')
      .send(file.stream);
  });

  r.post(`${E}/performance/check`, { schema: { body: PerformanceCheckBody, summary: '业绩核查：所选合同的附件页、竣工验收日期（近N年）与金额', tags }, config: access.files }, async (req) =>
    ok(await performanceCheck(db(), req.body)),
  );
  r.post(`${E}/performance/create`, { schema: { body: PerformanceCreateBody, summary: '生成业绩文件（PDF或ZIP，后台任务）；核查未通过时须确认继续', tags }, config: access.files }, async (req) => {
    const b = req.body;
    const rows = await performanceCheck(db(), b);
    const empty = rows.find((c) => !c.fileCount);
    if (empty) throw refuse(`合同「${empty.code} ${empty.name}」没有可导出的附件页，请先上传`);
    const labelled = rows.map((c) => ({ label: `${c.code} ${c.name}`, problems: c.problems }));
    if (!b.force && labelled.some((c) => c.problems.length)) throw conflict(problemsMessage('合同', labelled));
    const id = await create(req, {
      kind: 'performance', format: b.format, title: b.title,
      params: { watermark: b.format === 'pdf' ? b.watermark : '', deadline: b.deadline, years: b.years, thresholdFen: b.thresholdFen, forced: labelled.filter((c) => c.problems.length).length },
      items: rows.map((c) => ({ kind: 'contract', id: c.id, label: `${c.code} ${c.name}` })),
    });
    return ok({ id }, '已开始生成');
  });

  // The certificate pages' pickers: the people pages' lists, read here by the file pages' roles (9 and 23 have no people pages).
  r.post(`${E}/certificate/list`, { schema: { body: CertificateQuery, summary: '证书导出选择：资格证书（种类、级别、持证人、状态），分页', tags }, config: access.files }, async (req) => ok(await certPage(db(), req.body)));
  r.post(`${E}/title/list`, { schema: { body: TitleQuery, summary: '证书导出选择：职称（姓名或编号、级别），分页', tags }, config: access.files }, async (req) => ok(await titlePage(db(), req.body)));
  r.post(`${E}/personnel/options`, { schema: { body: PersonnelOptionsQuery, summary: '人员证书导出：按姓名或登录名选人，最多50人', tags }, config: access.files }, async (req) => ok(await personnelOptions(db(), req.body.keyword)));
  r.post(`${E}/personnel/items`, { schema: { body: PersonnelUserBody, summary: '人员证书导出：一个人的资格证书与职称', tags }, config: access.files }, async (req) => {
    const [certificates, titles] = await Promise.all([certsOfUser(db(), req.body.userId), titlesOfUser(db(), req.body.userId)]);
    return ok({ certificates, titles });
  });

  r.post(`${E}/certificate/check`, { schema: { body: CertificateCheckBody, summary: '证书核查：所选证书、职称在投标截止日是否有效、是否有扫描件', tags }, config: access.files }, async (req) =>
    ok(await certificateCheck(db(), req.body)),
  );
  r.post(`${E}/certificate/create`, { schema: { body: CertificateCreateBody, summary: '生成证书文件（PDF或ZIP，后台任务）；核查未通过时须确认继续', tags }, config: access.files }, async (req) => {
    const b = req.body;
    const rows = await certificateCheck(db(), b);
    const empty = rows.find((c) => !c.scanCount);
    if (empty) throw refuse(`「${sectionTitle(empty)}」没有扫描件，无法导出，请先上传`);
    const labelled = rows.map((c) => ({ label: sectionTitle(c), problems: c.problems }));
    if (!b.force && labelled.some((c) => c.problems.length)) throw conflict(problemsMessage('证书', labelled));
    const items = itemsOf(b);
    const id = await create(req, {
      kind: 'certificate', format: b.format, title: b.title,
      params: { watermark: b.format === 'pdf' ? b.watermark : '', deadline: b.deadline },
      items: items.map((it, i) => ({ kind: it.kind, id: it.id, label: labelled[i]!.label })),
    });
    return ok({ id }, '已开始生成');
  });
}
