/**
 * Outgoing invoices, part 2 (issue 7): the ledgers. /api/invoice/list, export, print, the detail's
 * history, files of history invoices, re-sending; /api/invoiceredconfirm/digital-electric-red-ledger*.
 * Role 11 reads every ledger; changes (upload, send) are for the upload page's roles (1, 5).
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import {
  canAccessAny, InvoiceColour, InvoiceKind, InvoiceStatus, LedgerExportQuery, LedgerQuery, OperationLogType, RedConfirmIdBody, RedConfirmState, RedLedgerExportQuery,
  RedLedgerQuery, RedReason, requirementForPages, SendInvoiceBody, SourceKind, UPLOAD_MAX_BYTES, UploadInvoiceFileBody, Uuid, type LedgerRow, type RedConfirmRow,
  text, ledgerRowCount,
} from '@zhyy/shared';
import { pages } from '../../../platform/access.js';
import { currentUser } from '../../../platform/context.js';
import { ok, refuse } from '../../../platform/envelope.js';
import { shanghaiTime } from '../../../platform/listing.js';
import { typed } from '../../../platform/route.js';
import { batches } from '../../../platform/xlsx.js';
import { exportXlsx } from '../../syslog/fileExports.js';
import { listRed, redDetail } from '../redletter/read.js';
import { InvoiceSettings } from '../settings/service.js';
import { sendInvoice, uploadInvoiceFile } from './actions.js';
import { describeFilters } from './filters.js';
import { invoiceHistory } from './history.js';
import { ledgerBatches, ledgerBuyers, ledgerHead, ledgerOptions, ledgerPage, ledgerTotals } from './repo.js';

const A = '/invoice/invoiceaccount';
export const LEDGER = { list: `${A}/invoice-list`, detail: `${A}/invoice-detail/:id`, upload: `${A}/invoice-upload/:id`, red: `${A}/digital-electric-red-ledger`, redDetail: `${A}/digital-electric-red-ledger-detail/:id` };
const access = {
  list: { access: pages(LEDGER.list) },
  read: { access: pages(LEDGER.list, LEDGER.detail) },
  detail: { access: pages(LEDGER.detail) },
  files: { access: pages(LEDGER.detail, LEDGER.upload) },
  change: { access: pages(LEDGER.upload) },
  red: { access: pages(LEDGER.red) },
  redDetail: { access: pages(LEDGER.red, LEDGER.redDetail) },
};
const CHANGE = requirementForPages([LEDGER.upload]);
const tags = ['销项发票台账'];
/** The largest export (an Excel sheet holds 1,048,576 rows). */
export const EXPORT_MAX_ROWS = 1_000_000;
export const PRINT_MAX_ROWS = 500;
const yuan = (fen: number) => fen / 100;

const LEDGER_COLUMNS = [
  { header: '开票日期', width: 12, value: (r: LedgerRow) => r.issueDate },
  { header: '发票种类', width: 22, value: (r: LedgerRow) => InvoiceKind.label(r.kind) },
  { header: '颜色', width: 6, value: (r: LedgerRow) => InvoiceColour.label(r.colour) },
  { header: '状态', width: 10, value: (r: LedgerRow) => InvoiceStatus.label(r.status) },
  { header: '来源', width: 6, value: (r: LedgerRow) => SourceKind.label(r.source) },
  { header: '发票代码', width: 14, value: (r: LedgerRow) => r.invoiceCode },
  { header: '发票号码', width: 22, value: (r: LedgerRow) => r.invoiceNo },
  { header: '数电号码', width: 22, value: (r: LedgerRow) => r.digitalNo },
  { header: '订单号', width: 22, value: (r: LedgerRow) => r.orderNo },
  { header: '购方名称', width: 32, value: (r: LedgerRow) => r.buyerName },
  { header: '购方税号', width: 20, value: (r: LedgerRow) => r.buyerTaxNo },
  { header: '项目', width: 24, value: (r: LedgerRow) => r.projectName },
  { header: '合同', width: 24, value: (r: LedgerRow) => r.contractName },
  { header: '金额（元）', width: 14, value: (r: LedgerRow) => yuan(r.amountExcl) },
  { header: '税额（元）', width: 12, value: (r: LedgerRow) => yuan(r.tax) },
  { header: '价税合计（元）', width: 14, value: (r: LedgerRow) => yuan(r.amountIncl) },
  { header: '蓝字发票号码', width: 22, value: (r: LedgerRow) => r.blueInvoiceNo },
  { header: '创建人', width: 10, value: (r: LedgerRow) => r.createdByName },
];

const RED_COLUMNS = [
  { header: '确认单编号', width: 24, value: (r: RedConfirmRow) => r.billNo },
  { header: '录入方', width: 8, value: (r: RedConfirmRow) => (r.direction === 'seller' ? '销方' : '购方') },
  { header: '状态', width: 22, value: (r: RedConfirmRow) => RedConfirmState.label(r.state) },
  { header: '蓝字发票号码', width: 22, value: (r: RedConfirmRow) => r.blueInvoiceNo },
  { header: '购方名称', width: 32, value: (r: RedConfirmRow) => r.buyerName },
  { header: '红冲原因', width: 10, value: (r: RedConfirmRow) => RedReason.label(r.redReason) },
  { header: '金额（元）', width: 14, value: (r: RedConfirmRow) => yuan(r.amountExcl) },
  { header: '税额（元）', width: 12, value: (r: RedConfirmRow) => yuan(r.tax) },
  { header: '价税合计（元）', width: 14, value: (r: RedConfirmRow) => yuan(r.amountIncl) },
  { header: '红字发票号码', width: 22, value: (r: RedConfirmRow) => r.redInvoiceNo },
  { header: '申请人', width: 10, value: (r: RedConfirmRow) => r.createdByName },
  { header: '申请时间', width: 20, value: (r: RedConfirmRow) => shanghaiTime(r.createdAt) },
  { header: '更新时间', width: 20, value: (r: RedConfirmRow) => shanghaiTime(r.updatedAt) },
];

async function ledgerModule(app: FastifyInstance): Promise<void> {
  const r = typed(app);
  const db = () => app.db.kysely;
  const settings = new InvoiceSettings(app);

  r.post('/api/invoice/list', { schema: { body: LedgerQuery, summary: '销项发票台账：筛选、排序、分页，含筛选结果的合计', tags }, config: access.list }, async (req) => ok(await ledgerPage(db(), req.body)));
  r.post('/api/invoice/ledger-options', { schema: { body: z.object({}), summary: '台账筛选用的项目与合同', tags }, config: access.list }, async () => ok(await ledgerOptions(db())));
  r.post('/api/invoice/ledger-buyers', { schema: { body: z.object({ keyword: text().trim().max(100, '关键字不能超过100个字符').default('') }), summary: '台账筛选用的购方（名称或税号包含关键字，最多30个）', tags }, config: access.list }, async (req) =>
    ok(await ledgerBuyers(db(), req.body.keyword)),
  );
  r.post('/api/invoice/export', { schema: { body: LedgerExportQuery, summary: '导出台账（筛选结果全部，流式Excel）', tags }, config: access.list }, async (req, reply) => {
    const count = ledgerRowCount(await ledgerTotals(db(), req.body));
    if (count > EXPORT_MAX_ROWS) throw refuse(`筛选结果 ${count} 条，超过导出上限 ${EXPORT_MAX_ROWS} 条，请缩小筛选范围`);
    return exportXlsx(app, req, reply, {
      fileName: '销项发票台账', sheetName: '销项发票台账', category: '销项发票台账', rowCount: count,
      description: `导出销项发票台账 ${count} 条（${describeFilters(req.body)}）`,
      columns: LEDGER_COLUMNS, rows: ledgerBatches(db(), req.body),
    });
  });
  r.post('/api/invoice/print', { schema: { body: LedgerExportQuery, summary: `打印台账：筛选结果的前${PRINT_MAX_ROWS}条与合计`, tags }, config: access.read }, async (req) => {
    const [rows, totals] = await Promise.all([ledgerHead(db(), req.body, PRINT_MAX_ROWS), ledgerTotals(db(), req.body)]);
    await app.oplog.record(req, OperationLogType.print, `打印销项发票台账 ${Math.min(ledgerRowCount(totals), PRINT_MAX_ROWS)} 条（${describeFilters(req.body)}）`);
    return ok({ rows, totals, truncated: ledgerRowCount(totals) > rows.length, limit: PRINT_MAX_ROWS, printedAt: new Date().toISOString(), printedBy: currentUser(req).name });
  });
  r.post('/api/invoice/detail-history', { schema: { body: z.object({ id: Uuid }), summary: '发票详情的关联记录：蓝字原票、红字确认单、同步日志、操作记录', tags }, config: access.detail }, async (req) =>
    ok(await invoiceHistory(db(), req.body.id, canAccessAny([...currentUser(req).roles], CHANGE))),
  );
  r.post('/api/invoice/invoice-image', { schema: { body: z.object({ id: Uuid }), summary: '发票的文件（原件、扫描页、截图）', tags }, config: access.files }, async (req) => {
    const inv = await db().selectFrom('invoices').select(['id', 'source', 'order_no', 'invoice_no', 'digital_no', 'buyer_name', 'amount_incl', 'issue_date', 'status']).where('id', '=', req.body.id).executeTakeFirst();
    if (!inv) throw refuse('发票不存在', 404);
    const files = await db().selectFrom('invoice_files as f').leftJoin('users as u', 'u.id', 'f.created_by').select(['f.id', 'f.type', 'f.format', 'f.name', 'f.size', 'f.created_at', 'u.name as user_name']).where('f.invoice_id', '=', inv.id).orderBy('f.created_at').execute();
    return ok({
      invoice: { id: inv.id, source: inv.source, orderNo: inv.order_no, invoiceNo: inv.invoice_no, digitalNo: inv.digital_no, buyerName: inv.buyer_name, amountIncl: Number(inv.amount_incl), issueDate: inv.issue_date, status: inv.status },
      files: files.map((f) => ({ id: f.id, type: f.type, format: f.format, name: f.name, size: f.size, createdAt: f.created_at, createdByName: f.user_name ?? '系统' })),
      maxBytes: UPLOAD_MAX_BYTES,
    });
  });
  r.post('/api/invoice/upload-invoiceimg', { bodyLimit: Math.ceil(UPLOAD_MAX_BYTES * 1.4) + 4096, schema: { body: UploadInvoiceFileBody, summary: '为历史发票上传原件或扫描件（PDF/OFD/XML/JPG/PNG，10MB以内）', tags }, config: access.change }, async (req) =>
    ok(await uploadInvoiceFile(app, req, req.body), '上传成功'),
  );
  r.post('/api/invoice/send-invoice', { schema: { body: SendInvoiceBody, summary: '通过税务端重新交付发票给购方（邮箱或手机）', tags }, config: access.change }, async (req) => {
    const to = await sendInvoice(app, settings, req, req.body);
    return ok({ to }, `已交付至 ${to}`);
  });

  const P = '/api/invoiceredconfirm';
  r.post(`${P}/digital-electric-red-ledger`, { schema: { body: RedLedgerQuery, summary: '数电红字确认单台账：状态与生成的红字发票', tags }, config: access.red }, async (req) => ok(await listRed(db(), req.body)));
  r.post(`${P}/digital-electric-red-ledger-detail`, { schema: { body: RedConfirmIdBody, summary: '红字确认单台账详情', tags }, config: access.redDetail }, async (req) => {
    const { can: _can, ...d } = await redDetail(db(), req.body.id);
    return ok(d);
  });
  r.post(`${P}/export-digital-electric-red-ledger`, { schema: { body: RedLedgerExportQuery, summary: '导出数电红字确认单台账', tags }, config: access.red }, async (req, reply) => {
    const first = await listRed(db(), { ...req.body, pageIndex: 1, pageSize: 1 });
    return exportXlsx(app, req, reply, {
      fileName: '数电红字确认单台账', sheetName: '红字确认单', category: '数电红字确认单台账', rowCount: first.total,
      description: `导出数电红字确认单台账 ${first.total} 条`, columns: RED_COLUMNS,
      rows: batches(async (offset, limit) => (await listRed(db(), { ...req.body, pageIndex: offset / limit + 1, pageSize: limit })).items, 500),
    });
  });
}

export const invoiceLedgerRoutes = fp(ledgerModule, { name: 'invoice-ledger', dependencies: ['invoice'] });
