/**
 * The price list as a sheet: the export's columns (the import template's are the first nine of them),
 * and reading an imported sheet back into windows. Columns are found by their header (brackets and
 * spaces ignored), so a re-ordered sheet or an export with its extra columns reads the same.
 */
import type ExcelJS from 'exceljs';
import { loadExcelJS } from '../../../platform/heavy.js';
import { CostCategory, CostPriceBody, TAX_RATE_LIST_TEXT, fieldSentence, type CostPriceRow } from '@zhyy/shared';
import { refuse } from '../../../platform/envelope.js';
import { shanghaiTime } from '../../../platform/listing.js';
import type { XlsxColumn } from '../../../platform/xlsx.js';
import { rateLabel, taxRateOf, windowOf, type PriceWindowInput } from './service.js';

/** What an import row needs: the template's columns. */
export const TEMPLATE_COLUMNS: XlsxColumn<CostPriceRow>[] = [
  { header: '成本项编码', width: 14, value: (r) => r.itemCode },
  { header: '成本项名称', width: 22, value: (r) => r.itemName },
  { header: '费用类别', width: 12, value: (r) => CostCategory.label(r.category) },
  { header: '规格', width: 16, value: (r) => r.spec },
  { header: '单位', width: 8, value: (r) => r.unit },
  // Text: up to 8 decimal places survive a round trip exactly (a number cell keeps 15 digits).
  { header: '不含税单价（元）', width: 18, value: (r) => r.unitPrice },
  { header: '税率', width: 8, value: (r) => rateLabel(r.taxRate) },
  { header: '生效日期', width: 12, value: (r) => r.validFrom },
  { header: '失效日期', width: 12, value: (r) => r.validTo ?? '' },
];

/**
 * The import template: the header row on the first sheet (the one read), and on 填写说明 how to fill each
 * column with example rows under the same headers (issue 31): examples on the imported sheet would be
 * imported with the user's rows whenever they were left in.
 */
export async function priceTemplate(): Promise<Buffer> {
  const wb = new (await loadExcelJS()).Workbook();
  const ws = wb.addWorksheet('价格表');
  ws.columns = TEMPLATE_COLUMNS.map((c) => ({ header: c.header, width: c.width }));
  ws.getRow(1).font = { bold: true };
  // Codes, prices and days as text: Excel keeps 0.12345678 and 2026-01-01 as typed.
  for (const c of [1, 4, 6, 8, 9]) ws.getColumn(c).numFmt = '@';
  const help = wb.addWorksheet('填写说明');
  help.columns = [{ width: 16 }, { width: 22 }, { width: 12 }, { width: 16 }, { width: 8 }, { width: 18 }, { width: 8 }, { width: 12 }, { width: 12 }];
  const line = (...cells: string[]) => help.addRow(cells);
  line('列', '说明').font = { bold: true };
  for (const [c, d] of PRICE_COLUMN_HELP) help.addRow([c, d]);
  line('');
  line('示例（按此格式填写在「价格表」工作表第2行起；本工作表不导入）').font = { bold: true };
  line(...TEMPLATE_COLUMNS.map((c) => c.header)).font = { bold: true };
  for (const r of PRICE_EXAMPLES) line(...r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const PRICE_COLUMN_HELP: [string, string][] = [
  ['成本项编码', '必填，同一成本项的各期价格用同一编码'],
  ['成本项名称', '必填'],
  ['费用类别', `必填，填写：${CostCategory.options.map((o) => o.label).join('、')}`],
  ['规格', '选填，没有规格的留空'],
  ['单位', '必填，如 工日、台班、m³'],
  ['不含税单价（元）', '必填，大于0，最多8位小数'],
  ['税率', `必填，可填 ${TAX_RATE_LIST_TEXT}`],
  ['生效日期', '必填，格式 YYYY-MM-DD'],
  ['失效日期', '选填，格式 YYYY-MM-DD；留空为长期有效。同一成本项、规格、单位的各期价格不能重叠'],
];

/** The example rows: an open-ended labour price and a machine price with an end. */
export const PRICE_EXAMPLES: string[][] = [
  ['RG001', '普工', CostCategory.label('labour'), '一般普工', '工日', '198.71', '3%', '2026-07-01', ''],
  ['JX001', '挖掘机台班', CostCategory.label('equipment'), '1.0m³', '台班', '1250.00', '13%', '2026-01-01', '2026-12-31'],
];

/** The export: the template's columns, then what the import ignores. */
export const EXPORT_COLUMNS: XlsxColumn<CostPriceRow>[] = [
  ...TEMPLATE_COLUMNS,
  { header: '引用明细行数', width: 12, value: (r) => r.usedCount },
  { header: '更新人', width: 10, value: (r) => r.updatedBy },
  { header: '更新时间', width: 20, value: (r) => shanghaiTime(r.updatedAt) },
];

/** The most data rows one import takes. */
export const IMPORT_MAX_ROWS = 5000;

const normal = (h: string) => h.replace(/[\s()（）]|元/g, '');
const FIELDS = {
  itemCode: '成本项编码', itemName: '成本项名称', category: '费用类别', spec: '规格', unit: '单位', unitPrice: '不含税单价', taxRate: '税率', validFrom: '生效日期', validTo: '失效日期',
} as const;
type Field = keyof typeof FIELDS;
const OPTIONAL: readonly Field[] = ['spec', 'validTo'];

export interface SheetRow {
  row: number;
  /** Set when the row reads as a window. */
  window: PriceWindowInput | null;
  message: string;
}

const pad = (n: number | string) => String(n).padStart(2, '0');

function cellValue(v: ExcelJS.CellValue): string | number | Date | null {
  if (v === null || v === undefined) return null;
  if (v instanceof Date || typeof v === 'number') return v;
  if (typeof v === 'object') {
    if ('richText' in v) return (v as ExcelJS.CellRichTextValue).richText.map((t) => t.text).join('').trim();
    if ('result' in v) return cellValue((v as { result: ExcelJS.CellValue }).result);
    if ('text' in v) return String((v as { text: unknown }).text ?? '').trim();
    return null;
  }
  return String(v).trim();
}

/** A plain decimal from a number cell (no exponent: 1e-7 is 0.0000001). */
function numberText(n: number): string {
  const s = String(n);
  if (!/e/i.test(s)) return s;
  return n.toFixed(12).replace(/\.?0+$/, '');
}

/** A day from a date cell, an Excel serial number, or text 2026-01-01, 2026/1/1, 2026.1.1, 2026年1月1日. */
export function dayOf(v: string | number | Date | null): string {
  if (v === null || v === '') return '';
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? 'x' : v.toISOString().slice(0, 10);
  if (typeof v === 'number') {
    // 25569 is 1970-01-01 in Excel's serial days.
    if (Number.isInteger(v) && v > 20000 && v < 80000) return new Date((v - 25569) * 86_400_000).toISOString().slice(0, 10);
    return String(v);
  }
  const m = /^(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*日?$/.exec(v);
  return m ? `${m[1]}-${pad(m[2]!)}-${pad(m[3]!)}` : v;
}

function categoryOf(v: string): string {
  const t = v.trim();
  return CostCategory.options.find((o) => o.label === t || o.value === t)?.value ?? t;
}

/** Reads the imported workbook's first sheet: one window a non-empty row, or why it is not one. */
export async function readPriceSheet(buf: Buffer): Promise<SheetRow[]> {
  const wb = new (await loadExcelJS()).Workbook();
  try {
    await wb.xlsx.load(buf as unknown as ArrayBuffer);
  } catch {
    throw refuse('文件不是有效的Excel（.xlsx）文件');
  }
  const ws = wb.worksheets[0];
  if (!ws) throw refuse('文件中没有工作表');
  const cols = new Map<Field, number>();
  ws.getRow(1).eachCell((c, col) => {
    const h = normal(String(cellValue(c.value) ?? ''));
    for (const [f, name] of Object.entries(FIELDS) as [Field, string][]) if (h === name && !cols.has(f)) cols.set(f, col);
  });
  const missing = (Object.keys(FIELDS) as Field[]).filter((f) => !cols.has(f) && !OPTIONAL.includes(f));
  if (missing.length) throw refuse(`表头缺少：${missing.map((f) => FIELDS[f]).join('、')}（请使用导入模板）`);
  const out: SheetRow[] = [];
  for (let i = 2; i <= ws.rowCount; i++) {
    const r = ws.getRow(i);
    const get = (f: Field) => (cols.has(f) ? cellValue(r.getCell(cols.get(f)!).value) : null);
    const values = (Object.keys(FIELDS) as Field[]).map(get);
    if (values.every((v) => v === null || v === '')) continue;
    if (out.length >= IMPORT_MAX_ROWS) throw refuse(`一次最多导入${IMPORT_MAX_ROWS}行价格`);
    const text = (f: Field) => {
      const v = get(f);
      if (v === null) return '';
      if (v instanceof Date) return v.toISOString().slice(0, 10);
      return typeof v === 'number' ? numberText(v) : v;
    };
    const rateCell = get('taxRate');
    const rate = rateCell === null || rateCell instanceof Date ? null : taxRateOf(rateCell);
    const to = dayOf(get('validTo'));
    const body = {
      itemCode: text('itemCode'),
      itemName: text('itemName'),
      category: categoryOf(text('category')),
      spec: text('spec'),
      unit: text('unit'),
      unitPrice: text('unitPrice').replace(/,/g, ''),
      taxRate: rate ?? '',
      validFrom: dayOf(get('validFrom')),
      validTo: to === '长期' ? '' : to,
    };
    if (rate === null) {
      out.push({ row: i, window: null, message: text('taxRate') ? `税率不正确（可填 ${TAX_RATE_LIST_TEXT}）` : '请填写税率' });
      continue;
    }
    const parsed = CostPriceBody.safeParse(body);
    if (!parsed.success) {
      const iss = parsed.error.issues[0]!;
      out.push({ row: i, window: null, message: fieldSentence(iss.path, iss.message) });
      continue;
    }
    out.push({ row: i, window: windowOf(parsed.data), message: '' });
  }
  return out;
}
