/**
 * Incoming invoices, 发票签收 (issue 13): /api/income/entry/* for the /income/invoice-entry pages
 * (roles 1, 13, 14, 16 read; 1, 13, 14 change — signing/access.ts). The settlement of unfinished signings
 * (signing/settle.ts, app.incomeSignJob) starts when the server is ready and stops when it closes.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { IncomeSignState, type SignAnswer, EntryQuery, IncomeAllocationMoveBody, IncomeAllocationSetBody, IncomeChangeQuery, PoolExportQuery, PoolIdBody, RevokeBody, RevokeQuery, SignBody, SigningQuery, TargetLookup } from '@zhyy/shared';
import { currentUser } from '../../../platform/context.js';
import { ok, refuse } from '../../../platform/envelope.js';
import { typed } from '../../../platform/route.js';
import { access, assertWriter, ENTRY, tags } from './access.js';
import { changePage, moveAllocation, setAllocations, allocationRows } from './apportion.js';
import { exportRevokes, exportSignings, exportWaiting } from './exports.js';
import { entryDetail, revokePage, signCount, signingPage, waitingPage } from './queries.js';
import { archiveConfigFromEnv } from '../../../integrations/archive/index.js';
import { archiveGatewayOf, refuseWhenNoneSigned, revokeSigning, signInvoices, signSummary } from './service.js';
import { settleGraceFor, SignSettleJob } from './settle.js';
import { pages } from '../../../platform/access.js';
import { lookupTargets } from '../../invoice/apportionment/repo.js';
import { sendQueuedBookings } from '../booking/routes.js';

/** The invoices a signing call signed (a contract's is booked 02: its flag is sent at once). */
const signedIds = (a: SignAnswer) => a.outcomes.filter((o) => o.signState === IncomeSignState.signed).map((o) => o.invoiceId);
const InvoiceRef = z.object({ invoiceId: PoolIdBody.shape.id });
const ProjectLookup = TargetLookup.pick({ keyword: true });

async function incomeSignModule(app: FastifyInstance): Promise<void> {
  const r = typed(app);
  const db = () => app.db.kysely;
  const P = '/api/income/entry';
  // Read once at start-up: an incomplete ARCHIVE_MODE=http setting stops the server with its message.
  const archiveConfig = archiveConfigFromEnv();
  const gateway = () => archiveGatewayOf(app, archiveConfig);
  const job = new SignSettleJob({ db: app.db, log: app.log, oplog: app.oplog, gateway }, { graceMs: settleGraceFor(archiveConfig.timeoutMs) });
  app.decorate('incomeSignJob', job);
  app.addHook('onReady', async () => job.start());
  app.addHook('onClose', async () => job.stop());

  r.post(`${P}/list`, { schema: { body: EntryQuery, summary: '进项发票登记：待签收的发票（未签收或签收失败、未被占用、未作废红冲、购方为本公司），筛选同票池', tags }, config: access.list }, async (req) => ok(await waitingPage(db(), req.body)));
  r.post(`${P}/export`, { schema: { body: PoolExportQuery, summary: '导出待签收发票（进项发票登记、签收归档待签收的筛选结果全部，流式Excel）', tags }, config: access.list }, async (req, reply) => exportWaiting(app, req, reply, req.body));
  r.post(`${P}/sign-count`, { schema: { body: z.object({}), summary: '待签收发票数（invoiceEntrySignCount）', tags }, config: access.sign }, async () => ok({ invoiceEntrySignCount: await signCount(db()) }));
  r.post(`${P}/detail`, { schema: { body: PoolIdBody, summary: '进项发票详情：票面、签收与撤销记录、所属部门、项目分摊与变更', tags }, config: access.detail }, async (req) => ok(await entryDetail(db(), req.body.id)));
  r.post(`${P}/sign`, { schema: { body: SignBody, summary: '签收归档：一张或多张发票按报销单、合同、项目或其他单据签收，成功者取得档案号GD{yyyyMM}{序号}', tags }, config: access.sign }, async (req) => {
    assertWriter(req);
    const a = await signInvoices(app, req, req.body, gateway());
    await sendQueuedBookings(app, signedIds(a), currentUser(req).id);
    await refuseWhenNoneSigned(db(), a);
    return ok(a, signSummary(a));
  });
  r.post(`${P}/signings`, { schema: { body: SigningQuery, summary: '签收记录：签收中、已签收、签收失败（原因）、已撤销', tags }, config: access.sign }, async (req) => ok(await signingPage(db(), req.body)));
  r.post(`${P}/signings-export`, { schema: { body: SigningQuery, summary: '导出签收记录（筛选结果全部，流式Excel）', tags }, config: access.sign }, async (req, reply) => exportSignings(app, req, reply, req.body));
  r.post(`${P}/revoke/list`, { schema: { body: RevokeQuery, summary: '签收撤销记录（档案号、原因、撤销人、时间）', tags }, config: access.revokeList }, async (req) => ok(await revokePage(db(), req.body)));
  r.post(`${P}/revoke/export`, { schema: { body: RevokeQuery, summary: '导出签收撤销记录（筛选结果全部，流式Excel）', tags }, config: access.revokeList }, async (req, reply) => exportRevokes(app, req, reply, req.body));
  r.post(`${P}/revoke/signed`, { schema: { body: SigningQuery, summary: '可撤销的签收（已签收的记录）', tags }, config: access.revokeAdd }, async (req) => ok(await signingPage(db(), { ...req.body, state: 'signed' })));
  r.post(`${P}/revoke/add`, { schema: { body: RevokeBody, summary: '撤销签收（需填写原因；已入账的发票不能撤销；档案号不再使用）', tags }, config: access.revokeAdd }, async (req) => {
    assertWriter(req);
    const a = await revokeSigning(app, req, req.body, gateway());
    return ok(a, `已撤销签收，档案号 ${a.archiveNo} 作废`);
  });
  r.post(`${P}/dept/list`, { schema: { body: EntryQuery, summary: '部门签收：本人所在部门的待签收发票（发票所属部门在项目分摊中登记）', tags }, config: access.dept }, async (req) => ok(await waitingPage(db(), req.body, currentUser(req).deptId)));
  r.post(`${P}/dept/sign`, { schema: { body: SignBody, summary: '部门签收：签收本部门的发票', tags }, config: access.dept }, async (req) => {
    assertWriter(req);
    const deptId = currentUser(req).deptId;
    if (!deptId) throw refuse('您的账号未设置所属部门，不能进行部门签收');
    const a = await signInvoices(app, req, req.body, gateway(), { deptId });
    await sendQueuedBookings(app, signedIds(a), currentUser(req).id);
    await refuseWhenNoneSigned(db(), a);
    return ok(a, signSummary(a));
  });
  r.post(`${P}/project/allocations`, { schema: { body: InvoiceRef, summary: '进项发票的项目分摊', tags }, config: { access: pages(ENTRY.apportion, ENTRY.change) } }, async (req) => ok(await allocationRows(db(), req.body.invoiceId)));
  // The pickers of project/apportionment and project/change: the outgoing apportionment's lookup and the
  // department list are on pages these roles do not have.
  r.post(`${P}/project/targets`, { schema: { body: ProjectLookup, summary: '项目分摊、项目变更的项目查询（编号或名称，最多50个）', tags }, config: { access: pages(ENTRY.apportion, ENTRY.change) } }, async (req) =>
    ok(await lookupTargets(db(), { dim: 'project', keyword: req.body.keyword })),
  );
  r.post(`${P}/depts`, { schema: { body: z.object({}), summary: '项目分摊的部门选项（发票所属部门）', tags }, config: { access: pages(ENTRY.apportion) } }, async () =>
    ok(await db().selectFrom('departments').select(['id', 'name', 'parent_id as parentId']).orderBy('sort').orderBy('name').execute()),
  );
  r.post(`${P}/project/set`, { schema: { body: IncomeAllocationSetBody, summary: '项目分摊：进项发票分摊到项目（合计与发票金额相差不超过0.01元），可登记发票所属部门', tags }, config: access.apportion }, async (req) => {
    assertWriter(req);
    await setAllocations(app, req, req.body);
    return ok(null, '分摊已保存');
  });
  r.post(`${P}/project/move`, { schema: { body: IncomeAllocationMoveBody, summary: '项目变更：把一笔分摊（全部或部分）转到另一项目，需填写原因', tags }, config: access.change }, async (req) => {
    assertWriter(req);
    await moveAllocation(app, req, req.body);
    return ok(null, '项目已变更');
  });
  r.post(`${P}/project/changes`, { schema: { body: IncomeChangeQuery, summary: '项目分摊与变更记录（变更人、时间、原因、变更前后）', tags }, config: { access: pages(ENTRY.apportion, ENTRY.change) } }, async (req) => ok(await changePage(db(), req.body)));
}

export const incomeSignRoutes = fp(incomeSignModule, { name: 'income-sign' });

declare module 'fastify' {
  interface FastifyInstance {
    /** Settles signings left unfinished (signing/settle.ts). */
    incomeSignJob: SignSettleJob;
  }
}
