/**
 * 导入成本单 (issue 16): an Excel sheet of cost lines (月份, 部门, 项目编码, 成本项编码, 规格, 单位, 数量,
 * 备注), grouped into orders by month + department + project. Each group is one new order (source
 * import) in its own transaction: a group with any bad row (or that cannot become an order: month
 * closed, an order already there, a line without price) fails as a whole, every row of it with a
 * reason; the other groups go in. The answer has each row's outcome.
 */
import type ExcelJS from 'exceljs';
import { loadExcelJS } from '../../../platform/heavy.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { COST_MONTH, CostOrderLineBody, CostOrderSource, monthLabel, OperationLogType, type CostImportResult, type CostImportRowResult } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import type { AuthUser } from '../../../platform/context.js';
import { AppError, refuse } from '../../../platform/envelope.js';
import { closedForNew, insertOrder, isClosed, lockDeptMonths, liveMessage, liveOrder, priceLines, priceLinesOrRefuse, sumsText, writeOrder, type DeptRef, type LineInput, type ProjectRef } from './store.js';
import '../tables.js';

type Db = Kysely<Database>;

export const IMPORT_COLUMNS = ['月份', '部门', '项目编码', '成本项编码', '规格', '单位', '数量', '备注'] as const;
const REQUIRED = ['月份', '部门', '项目编码', '成本项编码', '单位', '数量'] as const;
export const IMPORT_MAX_ROWS = 5000;
const MAX_LINES = 200;

export interface ImportRow {
  row: number;
  month: string;
  deptName: string;
  projectCode: string;
  line: LineInput;
  /** Why the row itself is wrong ('' when it reads well). */
  message: string;
}

const cellText = (v: ExcelJS.CellValue): string => {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if (typeof v === 'object' && 'richText' in v) return (v as ExcelJS.CellRichTextValue).richText.map((t) => t.text).join('').trim();
  if (typeof v === 'object' && 'text' in v) return String((v as { text: unknown }).text ?? '').trim();
  if (typeof v === 'object' && 'result' in v) return String((v as { result: unknown }).result ?? '').trim();
  return String(v).trim();
};

/** A month cell: 2026-10, 2026/10, 2026.10, 202610, 2026年10月, a date (its month) → 'YYYY-MM', else ''. */
export function monthOfCell(v: ExcelJS.CellValue): string {
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? '' : v.toISOString().slice(0, 7);
  const t = cellText(v);
  const m = /^(\d{4})\s*(?:[-/.年]\s*(\d{1,2})\s*月?(?:[-/.]\d{1,2}日?)?|(\d{2}))$/.exec(t);
  if (!m) return '';
  const month = `${m[1]}-${(m[2] ?? m[3]!).padStart(2, '0')}`;
  return COST_MONTH.test(month) ? month : '';
}

/** A quantity cell: a number as typed (Excel keeps doubles: 12.35 stays 12.35), or text. */
function quantityOf(v: ExcelJS.CellValue): string {
  if (typeof v === 'number') return Number.isFinite(v) ? String(Number(v.toFixed(10))) : '';
  if (v && typeof v === 'object' && 'result' in v && typeof (v as { result: unknown }).result === 'number') return String(Number(((v as { result: number }).result).toFixed(10)));
  return cellText(v);
}

/** Reads the sheet: the header row names the columns (any order); then one cost line a row. */
export async function readOrderSheet(buf: Buffer): Promise<ImportRow[]> {
  const wb = new (await loadExcelJS()).Workbook();
  try {
    await wb.xlsx.load(buf as unknown as ArrayBuffer);
  } catch {
    throw refuse('文件不是有效的Excel（.xlsx）文件');
  }
  const ws = wb.worksheets[0];
  if (!ws) throw refuse('文件中没有工作表');
  const col = new Map<string, number>();
  ws.getRow(1).eachCell((c, i) => {
    const t = cellText(c.value).replace(/\s+/g, '').replace(/^\*/, '');
    if ((IMPORT_COLUMNS as readonly string[]).includes(t) && !col.has(t)) col.set(t, i);
  });
  const missing = REQUIRED.filter((h) => !col.has(h));
  if (missing.length) throw refuse(`表头须包含：${IMPORT_COLUMNS.join('、')}（缺少${missing.join('、')}）`);
  const at = (r: ExcelJS.Row, h: string) => (col.has(h) ? r.getCell(col.get(h)!).value : null);
  const out: ImportRow[] = [];
  for (let i = 2; i <= ws.rowCount; i++) {
    const r = ws.getRow(i);
    const texts = IMPORT_COLUMNS.map((h) => cellText(at(r, h)));
    if (texts.every((t) => !t)) continue;
    if (out.length >= IMPORT_MAX_ROWS) throw refuse(`一次最多导入${IMPORT_MAX_ROWS}行`);
    const [monthText, deptName, projectCode, itemCode, spec, unit, , remark] = texts as [string, string, string, string, string, string, string, string];
    const month = monthOfCell(at(r, '月份'));
    const parsed = CostOrderLineBody.safeParse({ itemCode, spec, unit, quantity: quantityOf(at(r, '数量')), remark });
    let message = '';
    if (!monthText) message = '请填写月份';
    else if (!month) message = '月份格式须为YYYY-MM（如2026-10）';
    else if (!deptName) message = '请填写部门';
    else if (!projectCode) message = '请填写项目编码';
    else if (!parsed.success) message = parsed.error.issues[0]?.message ?? '成本明细不正确';
    const line = parsed.success ? { itemCode: parsed.data.itemCode, spec: parsed.data.spec, unit: parsed.data.unit, quantity: parsed.data.quantity, remark: parsed.data.remark ?? '' } : { itemCode, spec, unit, quantity: '', remark };
    out.push({ row: i, month, deptName, projectCode, line, message });
  }
  return out;
}

/** '2、3、4' (at most 20 shown). */
const rowList = (g: readonly ImportRow[]) => `${g.slice(0, 20).map((r) => r.row).join('、')}${g.length > 20 ? '等' : ''}`;
const SIBLING_FAILED = '同组（同月份、部门、项目）其他行有误，本单未导入';

export async function importOrders(app: FastifyInstance, req: FastifyRequest, user: AuthUser, file: string): Promise<CostImportResult> {
  const db: Db = app.db.kysely;
  const rows = await readOrderSheet(Buffer.from(file, 'base64'));
  if (!rows.length) throw refuse(`文件中没有成本明细行（第一行为表头：${IMPORT_COLUMNS.join('、')}）`);
  const results = new Map<number, CostImportRowResult>();
  const fail = (r: ImportRow, message: string) => results.set(r.row, { row: r.row, ok: false, message });

  // Rows that cannot be placed in a group fail on their own.
  const groups = new Map<string, ImportRow[]>();
  for (const r of rows) {
    if (!r.month || !r.deptName || !r.projectCode) {
      fail(r, r.message);
      continue;
    }
    const key = `${r.month}\u0000${r.deptName}\u0000${r.projectCode}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }

  // Departments by name (unique names only), projects by code.
  const deptNames = [...new Set([...groups.values()].map((g) => g[0]!.deptName))];
  const depts = new Map<string, DeptRef[]>();
  for (let i = 0; i < deptNames.length; i += 500) {
    for (const d of await db.selectFrom('departments').select(['id', 'name']).where('name', 'in', deptNames.slice(i, i + 500)).execute()) depts.set(d.name, [...(depts.get(d.name) ?? []), d]);
  }
  const codes = [...new Set([...groups.values()].map((g) => g[0]!.projectCode))];
  const projects = new Map<string, ProjectRef>();
  for (let i = 0; i < codes.length; i += 500) {
    for (const p of await db.selectFrom('projects').select(['id', 'code', 'name']).where('code', 'in', codes.slice(i, i + 500)).execute()) projects.set(p.code, p);
  }

  let orders = 0;
  let lineCount = 0;
  for (const group of groups.values()) {
    const { month, deptName, projectCode } = group[0]!;
    const all = (message: string) => group.forEach((r) => fail(r, message));
    const found = depts.get(deptName) ?? [];
    const project = projects.get(projectCode);
    let groupProblem = '';
    if (!found.length) groupProblem = `部门"${deptName}"不存在`;
    else if (found.length > 1) groupProblem = `部门名称"${deptName}"不唯一，无法确定部门`;
    else if (!project) groupProblem = `项目编码"${projectCode}"不存在`;
    else if (group.length > MAX_LINES) groupProblem = `同一成本单最多${MAX_LINES}行（本组${group.length}行）`;
    if (groupProblem) {
      group.forEach((r) => fail(r, r.message || groupProblem));
      continue;
    }
    const dept = found[0]!;
    if (await isClosed(db, dept.id, month)) {
      all(closedForNew(dept, month));
      continue;
    }
    const live = await liveOrder(db, month, dept.id, project!.id);
    if (live) {
      all(liveMessage(month, live.order_no));
      continue;
    }
    const good = group.filter((r) => !r.message);
    const pricedLines = await priceLines(db, month, good.map((r) => r.line));
    const noPrice = new Map(pricedLines.problems.map((p) => [good[p.index]!.row, p.message]));
    if (group.some((r) => r.message) || noPrice.size) {
      group.forEach((r) => fail(r, r.message || noPrice.get(r.row) || SIBLING_FAILED));
      continue;
    }
    try {
      const made = await writeOrder(db, { month, deptId: dept.id, projectId: project!.id }, async (trx) => {
        await lockDeptMonths(trx, app.db, [{ deptId: dept.id, month }]);
        if (await isClosed(trx, dept.id, month)) throw refuse(closedForNew(dept, month));
        // Priced again in the transaction: the price list may have changed since the check above.
        const lines = await priceLinesOrRefuse(trx, month, good.map((r) => r.line));
        return insertOrder(trx, {
          month, dept, project: project!, source: CostOrderSource.import, remark: '', lines, user: { id: user.id, name: user.name },
          log: { action: 'import', message: () => `Excel导入新建（第${rowList(group)}行），${sumsText(lines)}` },
        });
      });
      orders++;
      lineCount += group.length;
      group.forEach((r) => results.set(r.row, { row: r.row, ok: true, message: `已导入成本单 ${made.orderNo}` }));
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      all(err.message);
    }
  }

  const out = [...results.values()].sort((a, b) => a.row - b.row);
  const succeeded = out.filter((r) => r.ok).length;
  const answer: CostImportResult = { total: out.length, succeeded, failed: out.length - succeeded, rows: out };
  const months = [...new Set(rows.map((r) => r.month).filter(Boolean))].sort();
  await app.oplog.record(
    req,
    OperationLogType.import,
    `导入成本单${months.length ? `（${months.map(monthLabel).slice(0, 6).join('、')}${months.length > 6 ? '等' : ''}）` : ''}：新建 ${orders} 张（${lineCount} 行），失败 ${answer.failed} 行`,
  );
  return answer;
}
