/**
 * /api/tender/contract/* and /api/tender/project/*: 合同台账 (list, detail, add, edit, export, the
 * editors' choices), 框架合同开票统计 and 项目管理. Access by page (modules/tender/paths.ts): reading
 * contracts is for the group, adding for 1, 4, 6, editing for 1, 4, 6, 7, 8; projects for 1, 4.
 */
import type { FastifyInstance } from 'fastify';
import {
  ContractType, FrameStatisticFilter, ManagerExceptionBody, FrameStatisticQuery, ProjectState, TenderContractBody, TenderContractFilter, TenderContractOptionsQuery, TenderContractQuery, TenderIdBody,
  TenderProjectBody, TenderProjectFilter, TenderProjectOptionsQuery, TenderProjectQuery, TenderUserOptionsQuery, type TenderContractDetail,
} from '@zhyy/shared';
import { notFound, ok, refuse } from '../../../platform/envelope.js';
import { typed } from '../../../platform/route.js';
import { exportXlsx } from '../../syslog/fileExports.js';
import { access, tags } from '../paths.js';
import { presentPagesOf, registerContractOwner } from './pages.js';
import { ManagerExceptionService, exceptionsOfProjects, registerExceptionOwner } from './exceptions.js';
import { TenderProjectService, projectBatches, projectCount, projectDetail, projectOptions, projectPage, userOptions } from './projects.js';
import { contractBatches, contractById, contractCount, contractOptions, contractPage, contractsWhere, historyOf, invoicedOn } from './queries.js';
import { TenderContractService } from './service.js';
import { CONTRACT_COLUMNS, FRAME_COLUMNS, PROJECT_COLUMNS } from './sheet.js';
import { frameBatches, frameCount, frameStatistic, frameTotalsRow } from './statistic.js';

export const EXPORT_MAX_ROWS = 200_000;

function describeContracts(f: TenderContractFilter): string {
  const parts: string[] = [];
  if (f.keyword) parts.push(`关键字 ${f.keyword}`);
  if (f.contractType) parts.push(ContractType.label(f.contractType));
  if (f.customer) parts.push(`客户 ${f.customer}`);
  if (f.signedFrom || f.signedTo) parts.push(`签订 ${f.signedFrom ?? ''}至${f.signedTo ?? ''}`);
  if (f.acceptedFrom || f.acceptedTo) parts.push(`验收 ${f.acceptedFrom ?? ''}至${f.acceptedTo ?? ''}`);
  if (f.complete) parts.push(f.complete === 'complete' ? '附件完整' : '附件不完整');
  return parts.length ? parts.join('，') : '全部';
}

export async function tenderContractRoutes(app: FastifyInstance): Promise<void> {
  registerContractOwner();
  registerExceptionOwner();
  const exceptions = new ManagerExceptionService(app);
  const contracts = new TenderContractService(app);
  const projects = new TenderProjectService(app);
  const r = typed(app);
  const db = () => app.db.kysely;
  const C = '/api/tender/contract';
  const P = '/api/tender/project';
  const tooMany = (n: number) => {
    if (n > EXPORT_MAX_ROWS) throw refuse(`筛选结果 ${n} 条，超过导出上限 ${EXPORT_MAX_ROWS} 条，请缩小筛选范围`);
  };

  r.post(`${C}/list`, { schema: { body: TenderContractQuery, summary: '合同台账：框架、单项、订单合同（类型、客户、项目、签订与验收日期、附件完整性），分页', tags }, config: access.contractRead }, async (req) =>
    ok(await contractPage(db(), req.body)),
  );
  r.post(`${C}/detail`, { schema: { body: TenderIdBody, summary: '合同详情：字段、附件页、框架合同的订单、已开票金额、修改记录', tags }, config: access.contractRead }, async (req) => {
    const row = await contractById(db(), req.body.id);
    if (!row) throw notFound('合同不存在或已删除');
    const orders = row.contractType === ContractType.frame ? await contractsWhere(db(), 'c.parent_id', row.id) : [];
    const [pages, invoiced, history] = await Promise.all([presentPagesOf(db(), [row.id]), invoicedOn(db(), [row.id, ...orders.map((o) => o.id)]), historyOf(db(), 'contract', row.id)]);
    const detail: TenderContractDetail = { ...row, presentPages: pages.get(row.id) ?? [], orders, invoiced, history };
    return ok(detail);
  });
  r.post(`${C}/add`, { schema: { body: TenderContractBody, summary: '新增合同（框架合同、单项合同或订单合同；订单须属于框架合同；合同编号唯一）', tags }, config: access.contractAdd }, async (req) =>
    ok(await contracts.add(req, req.body, ContractType.values), '已新增'),
  );
  r.post(`${C}/edit`, { schema: { body: TenderContractBody, summary: '修改合同（记录修改前后）', tags }, config: access.contractEdit }, async (req) =>
    ok(await contracts.edit(req, req.body), '保存成功'),
  );
  r.post(`${C}/export`, { schema: { body: TenderContractFilter, summary: '导出合同台账（筛选结果全部，流式Excel）', tags }, config: access.contractRead }, async (req, reply) => {
    const n = await contractCount(db(), req.body);
    tooMany(n);
    return exportXlsx(app, req, reply, {
      fileName: '合同台账', sheetName: '合同', category: '合同台账', rowCount: n, description: `导出合同台账 ${n} 条（${describeContracts(req.body)}）`, columns: CONTRACT_COLUMNS,
      rows: contractBatches(db(), req.body),
    });
  });
  r.post(`${C}/options`, { schema: { body: TenderContractOptionsQuery, summary: '合同选项（按编号或名称，最多50条；订单合同的框架合同选 contractType 1）', tags }, config: access.contractPick }, async (req) =>
    ok(await contractOptions(db(), req.body)),
  );
  r.post(`${C}/users`, { schema: { body: TenderUserOptionsQuery, summary: '负责人选项：在职人员（按姓名或登录名，最多50条）', tags }, config: access.staffPick }, async (req) =>
    ok(await userOptions(db(), req.body.keyword)),
  );

  r.post(`${C}/frame-statistic`, { schema: { body: FrameStatisticQuery, summary: '框架合同开票统计：每个框架合同的订单金额合计、订单上的已开票、未开票与开票比例，另列直接开在框架合同上的发票（框架合同直接开票，不计入已开票与未开票），合计与图表数据', tags }, config: access.frameStatistic }, async (req) =>
    ok(await frameStatistic(db(), req.body)),
  );
  r.post(`${C}/frame-statistic/export`, { schema: { body: FrameStatisticFilter, summary: '导出框架合同开票统计（流式Excel）', tags }, config: access.frameStatistic }, async (req, reply) => {
    const n = await frameCount(db(), req.body);
    tooMany(n);
    return exportXlsx(app, req, reply, {
      fileName: '框架合同开票统计', sheetName: '框架合同开票统计', category: '框架合同开票统计', rowCount: n, description: `导出框架合同开票统计 ${n} 条`, columns: FRAME_COLUMNS,
      rows: frameBatches(db(), req.body),
      totals: () => frameTotalsRow(db(), req.body),
    });
  });

  r.post(`${P}/list`, { schema: { body: TenderProjectQuery, summary: '项目列表（关键字、客户、状态、项目经理、开工日期），分页', tags }, config: access.project }, async (req) =>
    ok(await projectPage(db(), req.body)),
  );
  r.post(`${P}/detail`, { schema: { body: TenderIdBody, summary: '项目详情：字段、合同、销项发票与已开票金额、修改记录', tags }, config: access.project }, async (req) =>
    ok(await projectDetail(db(), req.body.id)),
  );
  r.post(`${P}/save`, { schema: { body: TenderProjectBody, summary: '新增或修改项目（项目编号唯一；注册建造师不能同时担任两个在建项目的项目经理，第九条的例外须已登记并在有效期内、有证明材料）', tags }, config: access.project }, async (req) => {
    const { row, allowed } = await projects.save(req, req.body);
    const done = req.body.id ? '保存成功' : '已新增';
    return ok(row, allowed.length ? `${done}（${allowed.join('；')}）` : done);
  });
  r.post(`${P}/exception/list`, { schema: { body: TenderIdBody, summary: '项目经理例外：项目所涉的例外（注册建造师执业管理办法（试行）第九条），含今日是否可用', tags }, config: access.project }, async (req) =>
    ok(await exceptionsOfProjects(db(), [req.body.id])),
  );
  r.post(`${P}/exception/save`, { schema: { body: ManagerExceptionBody, summary: '登记或修改项目经理例外（情形、日期、所涉项目；停工须满120天、相邻分段与分期须同一发包人）', tags }, config: access.project }, async (req) =>
    ok(await exceptions.save(req, req.body), req.body.id ? '保存成功' : '已登记'),
  );
  r.post(`${P}/exception/delete`, { schema: { body: TenderIdBody, summary: '删除项目经理例外（正在使用时不能删除），连同证明材料', tags }, config: access.project }, async (req) => {
    await exceptions.remove(req, req.body.id);
    return ok(null, '删除成功');
  });
  r.post(`${P}/export`, { schema: { body: TenderProjectFilter, summary: '导出项目列表（流式Excel）', tags }, config: access.project }, async (req, reply) => {
    const n = await projectCount(db(), req.body);
    tooMany(n);
    const state = req.body.state ? `，${ProjectState.label(req.body.state)}` : '';
    return exportXlsx(app, req, reply, {
      fileName: '项目列表', sheetName: '项目', category: '项目列表', rowCount: n, description: `导出项目列表 ${n} 条${state}`, columns: PROJECT_COLUMNS, rows: projectBatches(db(), req.body),
    });
  });
  r.post(`${P}/options`, { schema: { body: TenderProjectOptionsQuery, summary: '项目选项（按编号或名称，最多50条）', tags }, config: access.contractPick }, async (req) =>
    ok(await projectOptions(db(), req.body.keyword)),
  );
}
