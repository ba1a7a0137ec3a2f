/**
 * One PDF from the sections of an export: a contents page (the export's title, each section's title and
 * its first page), the sections' pages in order (each PDF source's pages copied in one copyPages call,
 * each image on an A4 page of its orientation, scaled to fit), an outline with one bookmark per section,
 * "第 N 页 / 共 M 页" at the foot of every page and, when asked, a diagonal watermark.
 *
 * Memory stays bounded by the largest sources: each source is read once, the next one while this one is
 * merged, and the output is written object by object through StreamingPdfWriter (pdf/writer.ts): after
 * each source its objects are written and dropped. What needs the totals is written last: the contents
 * pages (first in the page tree, at the end of the file) and each page's "第 N 页 / 共 M 页", a content
 * stream of its own whose object number the page refers to from the start (issue 30: the sources were
 * read twice, the first time only to count their pages). Text is drawn in Noto Sans SC, subset with HarfBuzz to
 * exactly the characters drawn and embedded whole (as the invoice PDF does: pdf-lib's own subsetter
 * loses composite glyphs of this font).
 */
import type { Writable } from 'node:stream';
import fontkit from '@pdf-lib/fontkit';
import {
  EncryptedPDFError,
  PDFArray,
  PDFContentStream,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNull,
  PDFNumber,
  PDFPage,
  PDFRef,
  degrees,
  drawLinesOfText,
  rgb,
  type PDFFont,
} from 'pdf-lib';
import { subsetFor } from '../../../../integrations/tax/pdf/font.js';
import { ExportInputError, readAll, type ExportFile, type ExportProgress, type ExportSection } from '../types.js';
import { StreamingPdfWriter } from './writer.js';

export interface PdfOptions {
  /** The export's title, at the top of the contents page and in the document info. */
  title: string;
  /** Drawn diagonally on every page, e.g. 仅供××项目投标使用. */
  watermark?: string;
}

export interface PdfResult {
  pageCount: number;
  /** Each section's first page (1-based, counting the contents pages) and its page count. */
  sections: { title: string; startPage: number; pageCount: number }[];
}

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 56;
const IMAGE_MARGIN = 28;
const FIRST_TOC_LINES = 28;
const NEXT_TOC_LINES = 31;
const LINE = 22;
const FOOT_SIZE = 9;
const GREY = rgb(0.35, 0.35, 0.35);

/**
 * fontkit shapes a line that mixes Latin and Chinese as a Latin run and applies the font's 'locl' lookups,
 * which swap the digits of a contract number for other figure glyphs: printed as if letter-spaced
 * (TB-DD-2 0 2 4) and read back as other characters (those glyphs have no ToUnicode entry). Figures are set
 * with the font's plain glyphs, as a digits-only run gets them (issue 31).
 */
const PLAIN_FIGURES = { locl: false } as const;

/** How many pages the contents takes for n sections. */
export const tocPageCount = (n: number) => (n <= FIRST_TOC_LINES ? 1 : 1 + Math.ceil((n - FIRST_TOC_LINES) / NEXT_TOC_LINES));

export const footText = (n: number, m: number) => `第 ${n} 页 / 共 ${m} 页`;

export async function assemblePdf(sections: ExportSection[], options: PdfOptions, out: Writable, progress?: ExportProgress): Promise<PdfResult> {
  if (!sections.length) throw new ExportInputError('没有可导出的内容');
  for (const s of sections) if (!s.files.length) throw new ExportInputError(`「${s.title}」没有可导出的文件`);
  const files = sections.flatMap((s, si) => s.files.map((f, fi) => ({ s, si, f, first: fi === 0 })));
  const tocPages = tocPageCount(sections.length);
  // The first source is read while the font is subset.
  let pending = files.length ? prefetch(files[0]!.f) : undefined;

  // The document: catalog, page tree root and info stay in memory until the end.
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.registerFontkit(fontkit);
  doc.setTitle(options.title, { showInWindowTitleBar: true });
  doc.setProducer('综合运营支撑平台');
  doc.setCreator('综合运营支撑平台 投标文件导出');
  doc.setCreationDate(new Date());
  const ctx = doc.context;
  const pagesRef = doc.catalog.get(PDFName.of('Pages')) as PDFRef;
  const infoRef = ctx.trailerInfo.Info as PDFRef;
  const writer = new StreamingPdfWriter(out, ctx);
  writer.keepUntilEnd(ctx.trailerInfo.Root as PDFRef, pagesRef, infoRef);
  const chars = [options.title, options.watermark ?? '', ...sections.map((s) => s.title), '目录（续）第页共/0123456789. …'].join('');
  const font = await doc.embedFont(await subsetFor(chars), { subset: false, features: PLAIN_FIGURES });
  const feet: Foot[] = [];
  const place = (page: PDFPage) => {
    page.node.set(PDFName.of('Parent'), pagesRef);
    feet.push(decorate(doc, page, font, options.watermark));
  };

  await writer.header();
  // The sections, one source at a time, each read once; the next one is read while this one is merged.
  const kids: PDFRef[] = [];
  const starts: PDFRef[] = [];
  const counts = sections.map(() => 0);
  for (const [i, { s, si, f, first }] of files.entries()) {
    await progress?.((0.98 * i) / files.length, `合并「${s.title}」：${f.name}`);
    const bytes = await pending!;
    pending = i + 1 < files.length ? prefetch(files[i + 1]!.f) : undefined;
    const before = kids.length;
    if (f.mime === 'application/pdf') {
      const src = await loadSource(bytes, f);
      let pages: PDFPage[];
      try {
        pages = await doc.copyPages(src, src.getPageIndices());
      } catch {
        throw new ExportInputError(`文件「${f.name}」的页面无法复制（文件结构有误），无法合并`);
      }
      for (const page of pages) (kids.push(page.ref), place(page));
    } else {
      checkImage(bytes, f);
      const image = await embedImage(doc, bytes, f);
      const landscape = image.width > image.height;
      const page = PDFPage.create(doc);
      page.setSize(...(landscape ? ([A4[1], A4[0]] as [number, number]) : A4));
      const { width, height } = page.getSize();
      const scale = Math.min((width - 2 * IMAGE_MARGIN) / image.width, (height - 2 * IMAGE_MARGIN - 20) / image.height);
      const w = image.width * scale;
      const h = image.height * scale;
      page.drawImage(image, { x: (width - w) / 2, y: (height - h) / 2 + 10, width: w, height: h });
      kids.push(page.ref);
      place(page);
      await image.embed();
      // The document keeps its images to embed them on save(); this one is written already.
      const images = (doc as unknown as { images: unknown[] }).images;
      images.splice(images.indexOf(image), 1);
    }
    if (first) starts.push(kids[before]!);
    counts[si]! += kids.length - before;
    await writer.flush();
  }

  // Now the totals are known: the contents pages (first in the page tree, written last) and every page's foot.
  await progress?.(0.98, '生成目录与书签');
  const layout: PdfResult['sections'] = [];
  let next = tocPages + 1;
  for (const [si, s] of sections.entries()) {
    const pageCount = counts[si]!;
    layout.push({ title: s.title, startPage: next, pageCount });
    next += pageCount;
  }
  const total = next - 1;
  const tocKids: PDFRef[] = [];
  const tocFeet: Foot[] = [];
  for (let p = 0; p < tocPages; p++) {
    const page = PDFPage.create(doc);
    page.setSize(...A4);
    const from = p === 0 ? 0 : FIRST_TOC_LINES + (p - 1) * NEXT_TOC_LINES;
    const lines = layout.slice(from, from + (p === 0 ? FIRST_TOC_LINES : NEXT_TOC_LINES));
    drawContents(page, font, p === 0 ? options.title : null, lines, from);
    tocKids.push(page.ref);
    page.node.set(PDFName.of('Parent'), pagesRef);
    tocFeet.push(decorate(doc, page, font, options.watermark));
  }
  [...tocFeet, ...feet].forEach((foot, i) => foot(i + 1, total));
  const root = ctx.lookup(pagesRef, PDFDict);
  root.set(PDFName.of('Kids'), ctx.obj([...tocKids, ...kids]));
  root.set(PDFName.of('Count'), PDFNumber.of(total));
  const outlineRef = buildOutline(doc, layout, starts);
  doc.catalog.set(PDFName.of('Outlines'), outlineRef);
  doc.catalog.set(PDFName.of('PageMode'), PDFName.of('UseOutlines'));
  await font.embed();
  await writer.finish(ctx.trailerInfo.Root as PDFRef, infoRef);
  await progress?.(1, '完成');
  return { pageCount: total, sections: layout };
}

/** Starts reading a source; a failure is thrown where it is awaited (and not reported unhandled if the export stopped first). */
function prefetch(f: ExportFile): Promise<Buffer> {
  const read = readAll(f);
  read.catch(() => undefined);
  return read;
}

/** Parses a PDF source; an encrypted, broken or empty one is refused with the file's name. */
async function loadSource(bytes: Uint8Array, f: ExportFile): Promise<PDFDocument> {
  let src: PDFDocument;
  try {
    src = await PDFDocument.load(bytes, { updateMetadata: false, throwOnInvalidObject: true });
  } catch (err) {
    // pdf-lib's error classes are compiled to ES5, so instanceof does not recognise them: the message does.
    if (err instanceof EncryptedPDFError || (err instanceof Error && /is encrypted/.test(err.message))) throw new ExportInputError(`文件「${f.name}」已加密，无法合并，请上传未加密的 PDF`);
    throw new ExportInputError(`文件「${f.name}」不是有效的 PDF 或已损坏，无法合并`);
  }
  let n = 0;
  try {
    n = src.getPageCount();
    for (const p of src.getPages()) p.getMediaBox();
  } catch {
    n = 0;
  }
  if (!n) throw new ExportInputError(`文件「${f.name}」不是有效的 PDF 或已损坏（没有可读的页面），无法合并`);
  return src;
}

/** Checks an image's signature and size without decoding it; one page. */
function checkImage(bytes: Buffer, f: ExportFile): number {
  const ok =
    f.mime === 'image/jpeg'
      ? bytes.length > 4 && bytes[0] === 0xff && bytes[1] === 0xd8
      : bytes.length > 24 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) && bytes.readUInt32BE(16) > 0 && bytes.readUInt32BE(20) > 0;
  if (!ok) throw new ExportInputError(`文件「${f.name}」不是有效的${f.mime === 'image/jpeg' ? ' JPEG' : ' PNG'} 图片或已损坏`);
  return 1;
}

async function embedImage(doc: PDFDocument, bytes: Buffer, f: ExportFile) {
  try {
    return f.mime === 'image/jpeg' ? await doc.embedJpg(bytes) : await doc.embedPng(bytes);
  } catch {
    throw new ExportInputError(`文件「${f.name}」不是有效的${f.mime === 'image/jpeg' ? ' JPEG' : ' PNG'} 图片或已损坏`);
  }
}

/** A point of the page as displayed (x right, y up from the visible bottom left) in the page's own space. */
function viewer(page: PDFPage) {
  const box = page.getCropBox();
  const r = (((page.getRotation().angle % 360) + 360) % 360) as 0 | 90 | 180 | 270;
  const quarter = r === 90 || r === 270;
  const width = quarter ? box.height : box.width;
  const height = quarter ? box.width : box.height;
  const x0 = box.x;
  const y0 = box.y;
  const x1 = box.x + box.width;
  const y1 = box.y + box.height;
  const at = (vx: number, vy: number): [number, number] =>
    r === 0 ? [x0 + vx, y0 + vy] : r === 90 ? [x1 - vy, y0 + vx] : r === 180 ? [x1 - vx, y1 - vy] : [x0 + vy, y1 - vx];
  return { width, height, at, rotation: r };
}

/** Draws a page's number once the total is known: n of m. */
type Foot = (n: number, m: number) => void;

/**
 * Wraps the page's own content in a clean state and draws the watermark over it; the page number goes in a
 * content stream of its own whose object number is taken now and which is written at the end (returned),
 * when the total is known: the page itself is written with the rest of its source.
 */
function decorate(doc: PDFDocument, page: PDFPage, font: PDFFont, watermark?: string): Foot {
  const ctx = doc.context;
  page.node.normalize();
  page.node.wrapContentStreams(ctx.getPushGraphicsStateContentStream(), ctx.getPopGraphicsStateContentStream());
  const v = viewer(page);
  const key = page.node.newFontDictionary(font.name, font.ref);
  const footRef = ctx.nextRef();
  page.node.addContentStream(footRef);
  if (watermark) {
    const angle = Math.atan2(v.height, v.width);
    const unit = font.widthOfTextAtSize(watermark, 1);
    const size = Math.max(12, Math.min(54, (Math.hypot(v.width, v.height) * 0.7) / unit));
    const w = unit * size;
    const h = size * 0.8;
    // Start so that the text's middle is at the page's middle.
    const vx = v.width / 2 - (w / 2) * Math.cos(angle) + (h / 2) * Math.sin(angle);
    const vy = v.height / 2 - (w / 2) * Math.sin(angle) - (h / 2) * Math.cos(angle);
    const [x, y] = v.at(vx, vy);
    page.drawText(watermark, { x, y, size, font, color: rgb(0.55, 0.55, 0.55), opacity: 0.22, rotate: degrees((angle * 180) / Math.PI + v.rotation) });
  }
  return (n, m) => {
    const foot = footText(n, m);
    const fw = font.widthOfTextAtSize(foot, FOOT_SIZE);
    const [x, y] = v.at((v.width - fw) / 2, 16);
    const ops = drawLinesOfText([font.encodeText(foot)], { color: GREY, font: key, size: FOOT_SIZE, lineHeight: FOOT_SIZE, rotate: degrees(v.rotation), xSkew: degrees(0), ySkew: degrees(0), x, y });
    ctx.assign(footRef, PDFContentStream.of(ctx.obj({}), ops));
  };
}

function fit(font: PDFFont, text: string, size: number, width: number): string {
  if (font.widthOfTextAtSize(text, size) <= width) return text;
  const chars = [...text];
  while (chars.length && font.widthOfTextAtSize(`${chars.join('')}…`, size) > width) chars.pop();
  return `${chars.join('')}…`;
}

function drawContents(page: PDFPage, font: PDFFont, title: string | null, lines: PdfResult['sections'], from: number): void {
  const { width, height } = page.getSize();
  const right = width - MARGIN;
  let y = height - 62;
  if (title !== null) {
    const t = fit(font, title, 18, width - 2 * MARGIN);
    page.drawText(t, { x: (width - font.widthOfTextAtSize(t, 18)) / 2, y, size: 18, font });
    y -= 40;
    page.drawText('目录', { x: (width - font.widthOfTextAtSize('目录', 14)) / 2, y, size: 14, font });
    y -= 35;
  } else {
    page.drawText('目录（续）', { x: MARGIN, y, size: 12, font, color: GREY });
    y -= 35;
  }
  // As a typesetter sets contents: the title from the left margin, the page number flush right, and between
  // them a dot leader that keeps at least a quad clear of both; the dots stand on one grid counted from the
  // right margin, so the leaders of all lines line up.
  const pitch = font.widthOfTextAtSize('. ', 11);
  const quad = 11;
  const widest = Math.max(0, ...lines.map((s) => font.widthOfTextAtSize(String(s.startPage), 11)));
  const leaderEnd = right - widest - quad / 2;
  lines.forEach((s, i) => {
    const num = String(s.startPage);
    const nw = font.widthOfTextAtSize(num, 11);
    const label = fit(font, `${from + i + 1}. ${s.title}`, 11, right - MARGIN - 60);
    const lw = font.widthOfTextAtSize(label, 11);
    page.drawText(label, { x: MARGIN, y, size: 11, font });
    const count = Math.max(0, Math.floor((leaderEnd - (MARGIN + lw + quad / 2)) / pitch));
    if (count) page.drawText('. '.repeat(count).trimEnd(), { x: leaderEnd - count * pitch + (pitch - font.widthOfTextAtSize('.', 11)), y, size: 11, font, color: GREY });
    page.drawText(num, { x: right - nw, y, size: 11, font });
    y -= LINE;
  });
}

/** The outline: one bookmark per section, to its first page. */
function buildOutline(doc: PDFDocument, layout: PdfResult['sections'], starts: PDFRef[]): PDFRef {
  const ctx = doc.context;
  const outlineRef = ctx.nextRef();
  const refs = layout.map(() => ctx.nextRef());
  layout.forEach((s, i) => {
    const item = ctx.obj({}) as PDFDict;
    item.set(PDFName.of('Title'), PDFHexString.fromText(s.title));
    item.set(PDFName.of('Parent'), outlineRef);
    if (i > 0) item.set(PDFName.of('Prev'), refs[i - 1]!);
    if (i < refs.length - 1) item.set(PDFName.of('Next'), refs[i + 1]!);
    const dest = PDFArray.withContext(ctx);
    dest.push(starts[i]!);
    dest.push(PDFName.of('XYZ'));
    dest.push(PDFNull);
    dest.push(PDFNull);
    dest.push(PDFNull);
    item.set(PDFName.of('Dest'), dest);
    ctx.assign(refs[i]!, item);
  });
  ctx.assign(outlineRef, ctx.obj({ Type: 'Outlines', First: refs[0]!, Last: refs[refs.length - 1]!, Count: refs.length }));
  return outlineRef;
}
