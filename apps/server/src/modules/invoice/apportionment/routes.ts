/**
 * Apportionment (issue 7): the two ledgers with exports, one invoice's allocations and history,
 * setting / splitting, project-change and contract-change, the change history and the target lookup.
 * The ledger pages are open to roles 1, 5, 11; every change also needs the invoice writers' roles
 * (those of invoice-upload: 1, 5), so role 11 reads everything and gets 403 权限不足 on each change.
 */
import type { FastifyInstance } from 'fastify';
import { AllocationChangeQuery, AllocationMoveBody, AllocationSetBody, ApportionmentQuery, InvoiceColour, InvoiceKind, InvoiceRef, TargetLookup, type AllocationDim, type AllocationRow } from '@zhyy/shared';
import { pages, pagesAnd, type Access } from '../../../platform/access.js';
import { ok } from '../../../platform/envelope.js';
import { shanghaiDay } from '../../../platform/listing.js';
import { typed } from '../../../platform/route.js';
import { batches } from '../../../platform/xlsx.js';
import { exportXlsx } from '../../syslog/fileExports.js';
import { allocationPage, allocationTotals, changeHistory, invoiceApportionment, listAllocations, lookupTargets } from './repo.js';
import { yuan } from './rules.js';
import { ApportionmentService } from './service.js';

const A = '/invoice/invoiceaccount';
export const ITEM_LEDGER = `${A}/invoice-item-apportionment`;
export const CONTRACT_LEDGER = `${A}/contract-apportionment`;
export const PROJECT_CHANGE = `${A}/project-change`;
export const CONTRACT_CHANGE = `${A}/contract-change`;
export const APPORTIONMENT_PAGES = [ITEM_LEDGER, CONTRACT_LEDGER, PROJECT_CHANGE, CONTRACT_CHANGE];
const S = '/invoice/invoicestatistics';
export const STATISTICS_PAGES = [`${S}/apportionment-statistics`, `${S}/temp-project-invoice`, `${S}/contract-statistics`, `${S}/temp-contract-invoice`];

/** Callers who may open one of these pages and who are invoice writers (the roles of invoice-upload). */
export function writeOn(...patterns: string[]): Access {
  return pagesAnd(patterns, [`${A}/invoice-upload/:id`]);
}

const tags = ['销项发票-分摊'];
const money = (fen: number) => Number(yuan(fen));

export function ledgerColumns(dim: AllocationDim) {
  const what = dim === 'project' ? '项目' : '合同';
  return [
    { header: '发票号码', width: 24, value: (r: AllocationRow) => r.invoiceNo },
    { header: '开票日期', width: 12, value: (r: AllocationRow) => r.issueDate ?? '' },
    { header: '发票种类', width: 12, value: (r: AllocationRow) => InvoiceKind.label(r.kind) },
    { header: '颜色', width: 8, value: (r: AllocationRow) => InvoiceColour.label(r.colour) },
    { header: '购方名称', width: 30, value: (r: AllocationRow) => r.buyerName },
    { header: `${what}编号`, width: 16, value: (r: AllocationRow) => r.targetCode },
    { header: `${what}名称`, width: 30, value: (r: AllocationRow) => r.targetName },
    { header: '分摊不含税金额', width: 16, value: (r: AllocationRow) => money(r.amountExcl) },
    { header: '分摊税额', width: 14, value: (r: AllocationRow) => money(r.tax) },
    { header: '分摊价税合计', width: 16, value: (r: AllocationRow) => money(r.amountIncl) },
    { header: '发票价税合计', width: 16, value: (r: AllocationRow) => money(r.invoiceAmountIncl) },
  ];
}

export async function apportionmentRoutes(app: FastifyInstance): Promise<void> {
  const r = typed(app);
  const db = () => app.db.kysely;
  const service = new ApportionmentService(app);

  for (const [dim, page, base, title] of [['project', ITEM_LEDGER, 'invoice-item-apportionment', '项目分摊台账'], ['contract', CONTRACT_LEDGER, 'contract-apportionment', '订单分摊台账']] as const) {
    r.post(`/api/invoice/${base}/list`, { schema: { body: ApportionmentQuery, summary: `${title}（分摊明细、筛选、合计）`, tags }, config: { access: pages(page) } }, async (req) => ok(await allocationPage(db(), dim, req.body)));
    r.post(`/api/invoice/${base}/export`, { schema: { body: ApportionmentQuery, summary: `导出${title}（Excel，流式）`, tags }, config: { access: pages(page) } }, async (req, reply) => {
      const f = req.body;
      const { total } = await allocationTotals(db(), dim, f);
      const range = f.from || f.to ? `（开票日期 ${f.from ?? '不限'} 至 ${f.to ?? '不限'}）` : '';
      return exportXlsx(app, req, reply, {
        category: title, description: `导出${title}${range}，共 ${total} 条`, fileName: `${title}-${shanghaiDay().replaceAll('-', '')}`, sheetName: title, rowCount: total,
        columns: ledgerColumns(dim), rows: batches((offset, limit) => listAllocations(db(), dim, { ...f, sort: undefined }, offset, limit)),
      });
    });
  }

  const readers = pages(...APPORTIONMENT_PAGES, ...STATISTICS_PAGES);
  r.post('/api/invoice/apportionment/detail', { schema: { body: InvoiceRef, summary: '一张发票的项目分摊、订单分摊及变更记录', tags }, config: { access: readers } }, async (req) => ok(await invoiceApportionment(db(), req.body.invoiceId)));
  r.post('/api/invoice/apportionment/targets', { schema: { body: TargetLookup, summary: '分摊对象查询（项目或合同）', tags }, config: { access: readers } }, async (req) => ok(await lookupTargets(db(), req.body)));
  r.post('/api/invoice/apportionment/changes', { schema: { body: AllocationChangeQuery, summary: '分摊变更记录（变更前后、金额、原因、操作人、时间）', tags }, config: { access: pages(...APPORTIONMENT_PAGES) } }, async (req) => ok(await changeHistory(db(), req.body)));
  r.post('/api/invoice/apportionment/set', { schema: { body: AllocationSetBody, summary: '设置或拆分一张发票的分摊（合计须与发票金额一致，误差不超过0.01元）', tags }, config: { access: writeOn(ITEM_LEDGER, CONTRACT_LEDGER) } }, async (req) => {
    await service.set(req, req.body);
    return ok(undefined, '分摊已保存');
  });
  r.post('/api/invoice/project-change', { schema: { body: AllocationMoveBody, summary: '项目变更：将分摊（或其一部分）转到另一个项目，须填写原因', tags }, config: { access: writeOn(PROJECT_CHANGE) } }, async (req) => {
    await service.move(req, 'project', req.body);
    return ok(undefined, '项目变更成功');
  });
  r.post('/api/invoice/contract-change', { schema: { body: AllocationMoveBody, summary: '订单变更：将分摊（或其一部分）转到另一个合同，须填写原因', tags }, config: { access: writeOn(CONTRACT_CHANGE) } }, async (req) => {
    await service.move(req, 'contract', req.body);
    return ok(undefined, '订单变更成功');
  });
}
