/**
 * An OFD file (GB/T 33190: a zip of XML documents) read with jszip: the invoice fields that e-invoice
 * OFDs carry in OFD.xml's DocInfo/CustomDatas (发票代码, 发票号码, 开票日期, 合计金额, 合计税额,
 * 价税合计, 校验码, 购买方/销售方名称 and 纳税人识别号, and the kind as 发票种类/发票类型/票种, a code or a name), an original invoice XML (EInvoice) packed
 * inside (usually under Attachs; every XML part is looked at), and the PNG/JPEG images of its resources for the QR code; and the fields its custom tags
 * (Doc_0/Tags/CustomTag.xml) map to the text objects of its pages (ofd-tags.ts). Page text is not otherwise read:
 * OFD invoices keep labels in a template and values in the page, so they cannot be paired by order.
 */
import JSZip from 'jszip';
import type { FieldValues, RecognisedLine, RgbaImage } from './types.js';
import { decodeJpeg, decodePng } from './image-decode.js';
import { imageFormat } from './detect.js';
import { kindOfTitle, kindOfTypeCode } from './kinds.js';
import { day, digits, money, plain, taxNo } from './values.js';
import { readOfdTags } from './ofd-tags.js';
import { readInvoiceXml } from './xml-invoice.js';
import { decodeXml, descendants, parseXml, type XmlNode } from './xml-tree.js';

const MAX_ENTRIES = 2000;
/** A part larger than this once inflated is not read (a zip bomb stops here, not in memory). */
const MAX_PART_BYTES = 5_000_000;
const MAX_IMAGES = 8;

/** The inflated bytes of a part, or null when they pass MAX_PART_BYTES (inflating stops there). */
function partBytes(f: JSZip.JSZipObject): Promise<Uint8Array | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stream = f.nodeStream('nodebuffer');
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_PART_BYTES) {
        stream.removeAllListeners('data');
        (stream as { destroy?: () => void }).destroy?.();
        resolve(null);
      } else chunks.push(chunk);
    });
    stream.on('error', reject);
    stream.on('end', () => resolve(size > MAX_PART_BYTES ? null : new Uint8Array(Buffer.concat(chunks))));
  });
}

/** A kind in custom data: a type code (51 → rail …) or a name (铁路电子客票 …), kinds.ts. */
function kindOf(v: string): string | null {
  return kindOfTypeCode(v) ?? kindOfTitle(v) ?? null;
}

const CUSTOM_DATA: Record<string, [keyof FieldValues, (v: string) => string | null]> = {
  发票代码: ['invoiceCode', (v) => digits(v, 10, 12)],
  发票号码: ['invoiceNo', (v) => digits(v, 8, 20)],
  开票日期: ['issueDate', day],
  合计金额: ['amount', money],
  合计税额: ['tax', money],
  价税合计: ['total', money],
  校验码: ['checkCode', (v) => digits(v, 20)],
  购买方名称: ['buyerName', plain],
  购买方纳税人识别号: ['buyerTaxNo', taxNo],
  销售方名称: ['sellerName', plain],
  销售方纳税人识别号: ['sellerTaxNo', taxNo],
  发票种类: ['kindCode', kindOf],
  发票类型: ['kindCode', kindOf],
  票种: ['kindCode', kindOf],
};

export interface OfdContent {
  /** Fields of OFD.xml's CustomDatas and of an invoice XML inside, the latter winning. */
  fields: FieldValues;
  /** Fields the custom tags (Doc_0/Tags/CustomTag.xml …) map to the page text, ofd-tags.ts. */
  tagFields: FieldValues;
  lines: RecognisedLine[];
  images: RgbaImage[];
  warnings: string[];
}

/** Null when the zip holds no OFD.xml (it is then not an OFD file); throws when it is not a zip. */
export async function readOfd(bytes: Uint8Array): Promise<OfdContent | null> {
  const zip = await JSZip.loadAsync(bytes);
  const entries = Object.values(zip.files).filter((f) => !f.dir);
  const main = entries.find((f) => f.name.replace(/^\//, '').toLowerCase() === 'ofd.xml');
  if (!main) return null;
  const out: OfdContent = { fields: {}, tagFields: {}, lines: [], images: [], warnings: [] };
  if (entries.length > MAX_ENTRIES) {
    out.warnings.push('OFD 文件包含的条目过多，未读取');
    return out;
  }
  const tooLarge = (f: JSZip.JSZipObject) => out.warnings.push(`OFD 中的 ${f.name} 超过5MB，未读取`);
  const xmlOf = async (f: JSZip.JSZipObject) => {
    const data = await partBytes(f);
    if (!data) tooLarge(f);
    return data && parseXml(decodeXml(data));
  };
  // The few parts the tag reader opens (OFD.xml, Document.xml, the tag files, the pages it needs) are kept,
  // so the look for an invoice XML below does not inflate and parse them again.
  const parsedParts = new Map<JSZip.JSZipObject, Promise<XmlNode | null>>();
  const keptXmlOf = (f: JSZip.JSZipObject) => {
    let held = parsedParts.get(f);
    if (!held) parsedParts.set(f, (held = xmlOf(f)));
    return held;
  };
  // Paths in OFD are compared without a leading '/' and without case (producers write TPLS or Tpls).
  const byPath = new Map(entries.map((f) => [f.name.replace(/^\/+/, '').toLowerCase(), f]));
  let root: XmlNode | null = null;
  try {
    root = await xmlOf(main);
    for (const cd of root ? descendants(root, 'CustomData') : []) {
      const rule = CUSTOM_DATA[(cd.attrs.Name ?? '').trim()];
      const value = rule?.[1](cd.text.trim());
      if (rule && value) out.fields[rule[0]] = value;
    }
  } catch {
    out.warnings.push('OFD 文件的 OFD.xml 无法解析');
  }
  if (root) {
    const open = async (path: string) => {
      const f = byPath.get(path.toLowerCase());
      return f ? keptXmlOf(f) : null;
    };
    out.tagFields = await readOfdTags(root, open, (part) => out.warnings.push(`OFD 文件的 ${part} 无法解析`));
  }
  for (const f of entries) {
    const name = f.name.toLowerCase();
    if (name.endsWith('.xml') && f !== main) {
      try {
        const root = await (parsedParts.get(f) ?? xmlOf(f));
        const inv = root && readInvoiceXml(root);
        if (inv) {
          Object.assign(out.fields, inv.fields);
          out.lines = inv.lines;
        }
      } catch {
        // Only an invoice XML matters here; other parts of the package are not checked.
      }
    } else if (out.images.length < MAX_IMAGES && /\.(png|jpe?g|bmp|gif|tiff?)$/.test(name)) {
      const data = await partBytes(f);
      if (!data) {
        tooLarge(f);
        continue;
      }
      const format = imageFormat(data);
      try {
        if (format === 'png') out.images.push(decodePng(data));
        if (format === 'jpeg') out.images.push(decodeJpeg(data));
      } catch {
        // A resource image that cannot be decoded is not the QR; the others are still tried.
      }
    }
  }
  return out;
}
