/**
 * The 导入勾选 sheet: a header row naming 发票代码, 发票号码 / 数电号码, 缴款书号码 (海关缴款书, issue 29), 有效税额; then one
 * invoice or customs notice a row, checked.
 */
import type ExcelJS from 'exceljs';
import { loadExcelJS } from '../../../platform/heavy.js';
import { refuse } from '../../../platform/envelope.js';

export interface SheetRow {
  row: number;
  number: string;
  invoiceNo: string;
  effectiveTax: number | null;
  message: string;
  /** A customs notice (海关缴款书): `number` is its 缴款书号码. */
  customs: boolean;
}

/** 缴款书号码 as printed: letters, digits and '-' (e.g. 220120251000012345-L01). */
const NOTICE_NO = /^[0-9A-Za-z-]{1,40}$/;
/** A number in the 发票号码 column that is no invoice number but reads as a 缴款书号码 (digits, '-', a letter). */
const NOTICE_LIKE = /^\d{10,}-[A-Za-z]\d{2}$/;

const cellText = (v: ExcelJS.CellValue): string => {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object' && 'text' in v) return String((v as { text: unknown }).text ?? '').trim();
  if (typeof v === 'object' && 'result' in v) return String((v as { result: unknown }).result ?? '').trim();
  if (typeof v === 'object' && 'richText' in v) return (v as ExcelJS.CellRichTextValue).richText.map((t) => t.text).join('').trim();
  return String(v).trim();
};

/** 元 with at most 2 decimals -> 分 (null: empty; NaN: not a sum of money). */
function yuanToFen(s: string): number | null {
  if (s === '') return null;
  if (!/^\d+(\.\d{1,2})?$/.test(s)) return Number.NaN;
  const [y, f = ''] = s.split('.');
  return Number(y) * 100 + Number(f.padEnd(2, '0'));
}

/** Reads the import sheet: a header row naming 发票代码, 发票号码 / 数电号码, 有效税额; then one invoice a row. */
export async function readTickSheet(buf: Buffer): Promise<SheetRow[]> {
  const wb = new (await loadExcelJS()).Workbook();
  try {
    await wb.xlsx.load(buf as unknown as ArrayBuffer);
  } catch {
    throw refuse('文件不是有效的Excel（.xlsx）文件');
  }
  const ws = wb.worksheets[0];
  if (!ws) throw refuse('文件中没有工作表');
  const header = ws.getRow(1);
  let codeCol = 0;
  let noCol = 0;
  let digitalCol = 0;
  let customsCol = 0;
  let taxCol = 0;
  header.eachCell((c, col) => {
    const t = cellText(c.value);
    if (t.includes('缴款书')) customsCol = col;
    else if (t.includes('代码')) codeCol = col;
    else if (t.includes('数电')) digitalCol = col;
    else if (t.includes('号码')) noCol = col;
    else if (t.includes('有效税额') || t.includes('税额')) taxCol = col;
  });
  if (!noCol && !digitalCol && !customsCol) throw refuse('表头须包含"发票号码"、"数电号码"或"缴款书号码"列');
  const out: SheetRow[] = [];
  for (let i = 2; i <= ws.rowCount; i++) {
    const r = ws.getRow(i);
    const code = codeCol ? cellText(r.getCell(codeCol).value) : '';
    const rawNo = noCol ? r.getCell(noCol).value : null;
    // A number typed as a number loses its leading zeros: 8-digit invoice numbers get them back.
    const no = typeof rawNo === 'number' && Number.isInteger(rawNo) && rawNo < 1e8 ? String(rawNo).padStart(8, '0') : cellText(rawNo);
    const dig = digitalCol ? cellText(r.getCell(digitalCol).value) : '';
    const notice = customsCol ? cellText(r.getCell(customsCol).value) : '';
    const taxText = taxCol ? cellText(r.getCell(taxCol).value) : '';
    if (!code && !no && !dig && !notice && !taxText) continue;
    const eff = yuanToFen(taxText);
    let message = '';
    let number = '';
    let customs = false;
    if (notice || (!code && !dig && NOTICE_LIKE.test(no))) {
      // A customs notice: by its 缴款书号码 (its own column, or one in the 发票号码 column that reads as one).
      customs = true;
      number = notice || no;
      if (!NOTICE_NO.test(number) || code || dig || (notice && no)) message = '海关缴款书号码不正确（只能包含字母、数字和短横线，且同一行不能再填发票代码或号码）';
    } else if (/^\d{20}$/.test(dig) || /^\d{20}$/.test(no)) number = /^\d{20}$/.test(dig) ? dig : no;
    else if (/^\d{8}$/.test(no) && /^\d{10}(\d{2})?$/.test(code)) number = `${code}${no}`;
    else message = '发票代码、号码不正确（数电发票填20位数电号码；其他发票填10或12位代码和8位号码；海关缴款书填缴款书号码）';
    if (!message && Number.isNaN(eff)) message = '有效税额须为金额（元，最多两位小数）';
    out.push({ row: i, number: number || `${code}${no || dig}`, invoiceNo: number.length === 20 ? number : no, effectiveTax: Number.isNaN(eff) ? null : eff, message, customs });
  }
  return out;
}

