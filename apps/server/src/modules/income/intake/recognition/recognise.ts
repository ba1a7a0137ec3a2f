/**
 * Recognition of one uploaded invoice file (issue 13), a pure function of its bytes: no database, no
 * network. The format comes from the content: 数电 XML is read field by field, a PDF's text by its
 * labels and its embedded images for the QR code, an OFD's XML and images, a PNG or JPEG for the QR
 * code. Never throws: whatever cannot be read is a Chinese warning beside what could.
 */
import { detectFormat } from './detect.js';
import { decodeJpeg, decodePng, MAX_PIXELS, statedPixels } from './image-decode.js';
import { checkFigures, mergeReadings } from './merge.js';
import { readOfd } from './ofd.js';
import { readPdf } from './pdf.js';
import { decodeQr } from './qr-decode.js';
import { readInvoiceQr } from './qr-invoice.js';
import { readInvoiceText } from './text-fields.js';
import type { FileKind, RecognisedLine, Recognition, RgbaImage, SourceReading } from './types.js';
import { readInvoiceXml } from './xml-invoice.js';
import { decodeXml, parseXml } from './xml-tree.js';

export interface UploadedFile {
  name: string;
  bytes: Uint8Array;
}

/** Larger files are not read (an invoice file is well below this). */
export const MAX_FILE_BYTES = 20 * 1024 * 1024;

export const Messages = {
  empty: '文件为空，请重新选择',
  tooLarge: '文件超过20MB，未识别，请上传原始发票文件',
  unsupported: '无法识别的文件格式：请上传 PDF、OFD、XML、JPG 或 PNG 格式的发票文件',
  zipNotOfd: '压缩文件不是 OFD 发票（缺少 OFD.xml），请上传 PDF、OFD、XML、JPG 或 PNG 格式的发票文件',
  xmlBroken: 'XML 文件格式错误，无法解析',
  xmlNotInvoice: 'XML 文件不是数电发票（未找到 EInvoice 发票数据）',
  pdfBroken: 'PDF 文件已损坏或已加密，无法读取',
  pdfNoText: 'PDF 中没有可读取的文字（可能是扫描件），只能从二维码识别',
  ofdBroken: 'OFD 文件已损坏，无法读取',
  imageBroken: '图片已损坏，无法读取',
  imageTooManyPixels: `图片像素过多（超过${MAX_PIXELS / 10_000}万像素），未识别，请降低分辨率后再上传或上传原始发票文件`,
  noQr: '未在文件中找到发票二维码',
  notInvoiceQr: (text: string) => `文件中的二维码不是发票二维码（${text.length > 40 ? `${text.slice(0, 40)}…` : text}）`,
  nothing: '未能识别出任何发票字段，请手工填写',
} as const;

interface Found {
  readings: SourceReading[];
  lines?: RecognisedLine[];
  warnings: string[];
}

/** The first invoice QR among the images, as a reading; warnings when there is none. */
function qrReading(images: RgbaImage[], found: Found, warnWhenNone: boolean): void {
  let other: string | null = null;
  for (const img of images) {
    const text = decodeQr(img);
    if (text === null) continue;
    const fields = readInvoiceQr(text);
    if (fields) {
      found.readings.push({ source: 'qr', fields });
      return;
    }
    other ??= text;
  }
  if (other !== null) found.warnings.push(Messages.notInvoiceQr(other));
  else if (warnWhenNone) found.warnings.push(Messages.noQr);
}

async function readXml(bytes: Uint8Array, found: Found): Promise<void> {
  let root;
  try {
    root = parseXml(decodeXml(bytes));
  } catch {
    found.warnings.push(Messages.xmlBroken);
    return;
  }
  const inv = readInvoiceXml(root);
  if (!inv) {
    found.warnings.push(Messages.xmlNotInvoice);
    return;
  }
  found.readings.push({ source: 'xml', fields: inv.fields });
  if (inv.lines.length > 0) found.lines = inv.lines;
}

async function readPdfFile(bytes: Uint8Array, found: Found): Promise<void> {
  let content;
  try {
    content = await readPdf(bytes);
  } catch {
    found.warnings.push(Messages.pdfBroken);
    return;
  }
  if (content.text.replace(/\s/g, '') === '') found.warnings.push(Messages.pdfNoText);
  else found.readings.push({ source: 'pdf-text', fields: readInvoiceText(content.text) });
  qrReading(content.images, found, true);
}

async function readImage(bytes: Uint8Array, format: 'png' | 'jpeg', found: Found): Promise<void> {
  if ((statedPixels(bytes, format) ?? 0) > MAX_PIXELS) {
    found.warnings.push(Messages.imageTooManyPixels);
    return;
  }
  let img;
  try {
    img = format === 'png' ? decodePng(bytes) : decodeJpeg(bytes);
  } catch {
    found.warnings.push(Messages.imageBroken);
    return;
  }
  qrReading([img], found, true);
}

/** Reads an OFD; false when the zip is not one. */
async function readOfdFile(bytes: Uint8Array, found: Found): Promise<boolean> {
  let ofd;
  try {
    ofd = await readOfd(bytes);
  } catch {
    found.warnings.push(Messages.ofdBroken);
    return true;
  }
  if (!ofd) return false;
  found.warnings.push(...ofd.warnings);
  if (Object.keys(ofd.fields).length > 0) found.readings.push({ source: 'xml', fields: ofd.fields });
  if (Object.keys(ofd.tagFields).length > 0) found.readings.push({ source: 'ofd-tag', fields: ofd.tagFields });
  if (ofd.lines.length > 0) found.lines = ofd.lines;
  qrReading(ofd.images, found, false);
  return true;
}

export async function recognise(file: UploadedFile): Promise<Recognition> {
  const { bytes } = file;
  const found: Found = { readings: [], warnings: [] };
  if (bytes.length === 0) return { kind: 'unknown', fields: {}, warnings: [Messages.empty] };
  if (bytes.length > MAX_FILE_BYTES) return { kind: 'unknown', fields: {}, warnings: [Messages.tooLarge] };
  const format = detectFormat(bytes);
  let kind: FileKind = 'unknown';
  if (format === 'xml') {
    kind = 'xml';
    await readXml(bytes, found);
  } else if (format === 'pdf') {
    kind = 'pdf';
    await readPdfFile(bytes, found);
  } else if (format === 'png' || format === 'jpeg') {
    kind = 'image';
    await readImage(bytes, format, found);
  } else if (format === 'zip' && (await readOfdFile(bytes, found))) {
    kind = 'ofd';
  } else {
    return { kind: 'unknown', fields: {}, warnings: [format === 'zip' ? Messages.zipNotOfd : Messages.unsupported] };
  }
  const { fields, warnings } = mergeReadings(found.readings);
  const all = [...found.warnings, ...warnings, ...checkFigures(fields)];
  if (Object.keys(fields).length === 0) all.push(Messages.nothing);
  return { kind, fields, ...(found.lines ? { lines: found.lines } : {}), warnings: all };
}
