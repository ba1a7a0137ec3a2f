/**
 * The tender export's PDF assembly (modules/tender/export/pdf): page count, contents page, outline,
 * page numbers, watermark, images, and the refusal of encrypted and broken sources by name. The output
 * is read back with pdf-lib and with pdf.js.
 */
import { PassThrough } from 'node:stream';
import { PDFDocument, PDFDict, PDFName, PDFRef } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { assemblePdf, footText, tocPageCount } from '../src/modules/tender/export/pdf/assemble.js';
import { exportFileName } from '../src/modules/tender/export/jobs.js';
import type { ExportSection } from '../src/modules/tender/export/types.js';
import { fileOf, makeBrokenPdf, makeEncryptedPdf, makeJpeg, makePdf, makePng } from './tender-export-fixtures.js';

async function build(sections: ExportSection[], watermark?: string) {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const steps: number[] = [];
  const result = await assemblePdf(sections, { title: '某某项目投标业绩文件', watermark }, out, (r) => void steps.push(r));
  out.end();
  return { bytes: Buffer.concat(chunks), result, steps };
}

async function pdfjsText(bytes: Buffer) {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0 }).promise;
  const pages: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const content = await (await doc.getPage(n)).getTextContent();
    pages.push(content.items.map((it) => ('str' in it ? it.str : '')).join('|'));
  }
  // Where each page's number is, as displayed (x from the left, y from the top, in points).
  const feet: { x: number; y: number; width: number; height: number }[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    const viewport = page.getViewport({ scale: 1 });
    const item = (await page.getTextContent()).items.find((it) => 'str' in it && it.str.startsWith('第 ')) as { transform: number[] } | undefined;
    const [x, y] = item ? viewport.convertToViewportPoint(item.transform[4]!, item.transform[5]!) : [NaN, NaN];
    feet.push({ x: x!, y: y!, width: viewport.width, height: viewport.height });
  }
  const outline = (await doc.getOutline()) ?? [];
  const dests: number[] = [];
  for (const o of outline) dests.push((await doc.getPageIndex((o.dest as [{ num: number; gen: number }])[0])) + 1);
  const numPages = doc.numPages;
  await doc.destroy();
  return { pages, outline: outline.map((o) => o.title), dests, numPages, feet };
}

describe('tender export PDF', () => {
  it('merges PDFs and images with contents, outline, page numbers and watermark', async () => {
    const sections: ExportSection[] = [
      { title: '合同一：某某道路工程施工合同', files: [fileOf('合同首页.pdf', 'application/pdf', await makePdf('alpha', 3)), fileOf('验收证书.jpg', 'image/jpeg', makeJpeg(400, 560))] },
      { title: '合同二：某某桥梁养护框架合同', files: [fileOf('扫描件.png', 'image/png', makePng(800, 500)), fileOf('订单.pdf', 'application/pdf', await makePdf('beta', 2, { rotate: 90 }))] },
    ];
    const { bytes, result, steps } = await build(sections, '仅供某某项目投标使用');
    expect(result.pageCount).toBe(1 + 4 + 3);
    expect(result.sections.map((s) => [s.startPage, s.pageCount])).toEqual([[2, 4], [6, 3]]);
    expect(steps.at(-1)).toBe(1);
    expect(steps.every((s, i) => i === 0 || s >= steps[i - 1]!)).toBe(true);

    // pdf-lib reads it back: pages, outline dictionaries, image page sizes.
    const doc = await PDFDocument.load(bytes);
    expect(doc.getPageCount()).toBe(8);
    expect(doc.getTitle()).toBe('某某项目投标业绩文件');
    const outlines = doc.catalog.lookup(PDFName.of('Outlines'), PDFDict);
    expect(outlines.get(PDFName.of('Count'))?.toString()).toBe('2');
    const first = doc.context.lookup(outlines.get(PDFName.of('First')) as PDFRef, PDFDict);
    expect(first.get(PDFName.of('Title'))).toBeDefined();
    const pages = doc.getPages();
    expect(pages[4]!.getSize()).toEqual({ width: 595.28, height: 841.89 }); // the portrait JPEG
    expect(pages[5]!.getSize()).toEqual({ width: 841.89, height: 595.28 }); // the landscape PNG
    expect(pages[6]!.getRotation().angle).toBe(90);
    const xobjects = (i: number) => pages[i]!.node.Resources()?.lookupMaybe(PDFName.of('XObject'), PDFDict)?.keys().length ?? 0;
    expect(xobjects(4)).toBe(1);
    expect(xobjects(5)).toBe(1);

    // pdf.js: the text of the contents page, the page numbers, the sources' text, the watermark, the bookmarks.
    const read = await pdfjsText(bytes);
    expect(read.numPages).toBe(8);
    expect(read.outline).toEqual(['合同一：某某道路工程施工合同', '合同二：某某桥梁养护框架合同']);
    expect(read.dests).toEqual([2, 6]);
    const toc = read.pages[0]!;
    expect(toc).toContain('某某项目投标业绩文件');
    expect(toc).toContain('目录');
    expect(toc).toContain('1. 合同一：某某道路工程施工合同');
    expect(toc).toContain('2. 合同二：某某桥梁养护框架合同');
    expect(toc.split('|').filter((t) => t.trim() === '2' || t.trim() === '6')).toHaveLength(2);
    read.pages.forEach((text, i) => {
      expect(text).toContain(footText(i + 1, 8));
      expect(text).toContain('仅供某某项目投标使用');
    });
    // The page number sits at the foot of every page as displayed, the rotated source's pages too.
    read.feet.forEach((f) => {
      expect(f.y).toBeGreaterThan(f.height - 30);
      expect(f.x).toBeGreaterThan(f.width / 2 - 60);
      expect(f.x).toBeLessThan(f.width / 2);
    });
    expect(read.feet[6]!.width).toBeCloseTo(841.89, 1);
    expect(read.pages[1]).toContain('alpha p1');
    expect(read.pages[3]).toContain('alpha p3');
    expect(read.pages[7]).toContain('beta p2');
  });

  it('sets the contents as a typesetter would: contract numbers in plain figures, the leader clear of the title (issue 31)', async () => {
    const pdf = await makePdf('gamma', 1);
    const titles = ['TB-DD-2024-001-06 南京江北新区道路工程第6批', 'HT-2024-007 某某桥梁养护框架合同', '第10批 2025年度市政养护（三标段）'];
    const { bytes } = await build(titles.map((title, i) => ({ title, files: [fileOf(`${i}.pdf`, 'application/pdf', pdf)] })));
    const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const doc = await pdfjs.getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0 }).promise;
    const items = ((await (await doc.getPage(1)).getTextContent()).items as { str: string; transform: number[]; width: number }[]).filter((it) => it.str.trim());
    await doc.destroy();
    titles.forEach((t, i) => {
      // The title reads back exactly as written (no letter-spaced or substituted figures).
      const label = items.find((it) => it.str === `${i + 1}. ${t}`);
      expect(label, t).toBeDefined();
      const y = label!.transform[5];
      const line = items.filter((it) => it.transform[5] === y).sort((a, b) => a.transform[4]! - b.transform[4]!);
      const leader = line.find((it) => /^\.( \.)*$/.test(it.str))!;
      const number = line.at(-1)!;
      expect(number.str).toBe(String(i + 2));
      // At least half a quad (5.5 pt) clear of the title on the left and of the page number on the right.
      expect(leader.transform[4]!).toBeGreaterThanOrEqual(label!.transform[4]! + label!.width + 5.5);
      expect(leader.transform[4]! + leader.width).toBeLessThanOrEqual(number.transform[4]! - 5.5 + 0.01);
    });
    // The leaders end on one line down the page.
    const ends = items.filter((it) => /^\.( \.)*$/.test(it.str)).map((it) => Math.round((it.transform[4]! + it.width) * 10) / 10);
    expect(new Set(ends).size).toBe(1);
  });

  it('dates the file in Asia/Shanghai: made at 02:23 on 11-28 Beijing time, it is named …_20261128 (issue 31)', () => {
    expect(exportFileName('某某项目投标业绩文件', 'pdf', new Date('2026-11-27T18:23:00Z'))).toBe('某某项目投标业绩文件_20261128.pdf');
    expect(exportFileName('某某项目投标业绩文件', 'zip', new Date('2026-11-28T15:59:59Z'))).toBe('某某项目投标业绩文件_20261128.zip');
    expect(exportFileName('某某项目投标业绩文件', 'zip', new Date('2026-11-28T16:00:00Z'))).toBe('某某项目投标业绩文件_20261129.zip');
  });

  it('leaves the watermark out when none is asked, and continues the contents over pages', async () => {
    const one = await makePdf('s', 1);
    const sections = Array.from({ length: 40 }, (_, i) => ({ title: `第${i + 1}个业绩合同`, files: [fileOf(`f${i}.pdf`, 'application/pdf', one)] }));
    const { bytes, result } = await build(sections);
    expect(tocPageCount(40)).toBe(2);
    expect(result.pageCount).toBe(42);
    expect(result.sections[0]!.startPage).toBe(3);
    const read = await pdfjsText(bytes);
    expect(read.outline).toHaveLength(40);
    expect(read.pages[1]).toContain('目录（续）');
    expect(read.pages[1]).toContain('40. 第40个业绩合同');
    expect(read.pages.join('')).not.toContain('仅供');
    expect(read.pages[41]).toContain(footText(42, 42));
  });

  it('refuses an encrypted source, naming it (a source is checked when its turn comes: what was written is the job\'s to remove)', async () => {
    const sections = [
      { title: '合同', files: [fileOf('好的.pdf', 'application/pdf', await makePdf('ok', 1)), fileOf('加密的合同.pdf', 'application/pdf', await makeEncryptedPdf())] },
    ];
    await expect(assemblePdf(sections, { title: 't' }, new PassThrough())).rejects.toThrow('文件「加密的合同.pdf」已加密');
  });

  it('refuses a broken source and a broken image, naming them', async () => {
    await expect(
      assemblePdf([{ title: '合同', files: [fileOf('坏文件.pdf', 'application/pdf', await makeBrokenPdf())] }], { title: 't' }, new PassThrough()),
    ).rejects.toThrow('文件「坏文件.pdf」不是有效的 PDF 或已损坏');
    await expect(
      assemblePdf([{ title: '合同', files: [fileOf('照片.jpg', 'image/jpeg', Buffer.from('not a jpeg'))] }], { title: 't' }, new PassThrough()),
    ).rejects.toThrow('文件「照片.jpg」不是有效的 JPEG 图片');
    await expect(assemblePdf([{ title: '空的', files: [] }], { title: 't' }, new PassThrough())).rejects.toThrow('「空的」没有可导出的文件');
  });
});
