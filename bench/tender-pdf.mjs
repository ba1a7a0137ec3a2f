#!/usr/bin/env node
/**
 * The tender PDF export against pdf-lib alone merging the same pages (issue 30), with the built server
 * code (npm run -w apps/server build first; SERVER_DIST as in bench/tender-export.mjs):
 *   node bench/tender-pdf.mjs [pages=300] [mb=150] [runs=5]
 * Generates 30 source PDFs of scanned-looking pages (noise JPEGs, so nothing compresses) on disk, then runs,
 * interleaved (anchor, product, anchor, product …, after one warm-up pair), each in a fresh child process:
 *   - the anchor: pdf-lib alone — each source read (fs.readFile), loaded and its pages copied into one
 *     document, saved and written to a file; no contents, numbers, watermark or outline;
 *   - the product: assemblePdf (pdf/assemble.ts) with contents, outline, page numbers and watermark,
 *     streamed to a file: as the process's first export, and again in a process that made one small
 *     export first (the font subsetter's WebAssembly compiled: a server's every export after its first).
 * Each child reports its wall time and its peak RSS (getrusage); printed: both, and the product's ratio to the
 * anchor run just before it, min / median / max, for the wall time and for the peak memory. Asserts that
 * the product's PDF reads back with the expected page count.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { PassThrough, Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import jpeg from 'jpeg-js';
import { PDFDocument } from 'pdf-lib';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const dist = path.resolve(root, process.env.SERVER_DIST ?? 'apps/server/dist');
const mib = (n) => `${(n / 1024 / 1024).toFixed(0)} MB`;
const sourcesOf = (dir) => fs.readdirSync(dir).filter((f) => f.startsWith('source-')).sort((a, b) => parseInt(a.slice(7)) - parseInt(b.slice(7)));

// Child: one merge of the sources in a directory, written to a file.
if (process.argv[2] === '--run') {
  const [, , , what, srcDir, out] = process.argv;
  const names = sourcesOf(srcDir);
  // The server imports pdf-lib, fontkit and subset-font with its first export (assemblers.ts), not per export.
  const { assemblePdf } = what === 'anchor' ? {} : await import(pathToFileURL(path.join(dist, 'modules/tender/export/pdf/assemble.js')).href);
  if (what === 'warm') {
    // A server that has exported before: the font subsetter's WebAssembly compiled, fontkit warmed (one small export first).
    const one = fs.readFileSync(path.join(srcDir, names[0]));
    const sink = new PassThrough().resume();
    await assemblePdf([{ title: '预热', files: [{ name: 'a.pdf', mime: 'application/pdf', open: async () => Readable.from([one]) }] }], { title: '预热', watermark: '预热' }, sink);
  }
  const base = process.memoryUsage().rss;
  const start = performance.now();
  let pageCount;
  if (what === 'anchor') {
    const doc = await PDFDocument.create();
    for (const f of names) {
      const src = await PDFDocument.load(await fs.promises.readFile(path.join(srcDir, f)));
      for (const page of await doc.copyPages(src, src.getPageIndices())) doc.addPage(page);
    }
    await fs.promises.writeFile(out, await doc.save());
    pageCount = doc.getPageCount();
  } else {
    const sections = names.map((f, i) => ({
      title: `业绩合同 ${i + 1}：某某市政道路工程施工合同`,
      files: [{ name: f, mime: 'application/pdf', open: async () => fs.createReadStream(path.join(srcDir, f)) }],
    }));
    const stream = fs.createWriteStream(out);
    const closed = new Promise((r) => stream.once('close', r));
    pageCount = (await assemblePdf(sections, { title: '某某项目投标业绩文件', watermark: '仅供某某项目投标使用' }, stream)).pageCount;
    stream.end();
    await closed;
  }
  const ms = performance.now() - start;
  console.log(JSON.stringify({ ms, base, peak: process.resourceUsage().maxRSS * 1024, size: fs.statSync(out).size, pageCount }));
  process.exit(0);
}

const pages = Number(process.argv[2] ?? 300);
const mb = Number(process.argv[3] ?? 150);
const runs = Number(process.argv[4] ?? 5);
const SOURCES = 30;
const perSource = Math.ceil(pages / SOURCES);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tender-pdf-bench-'));
const target = (mb * 1024 * 1024) / pages;
function noiseJpeg(seed) {
  const side = Math.round(Math.sqrt(target / 2.35));
  const w = side;
  const h = Math.round(side * 1.3);
  const data = Buffer.alloc(w * h * 4);
  let x = seed;
  for (let i = 0; i < data.length; i += 4) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    data[i] = x & 0xff;
    data[i + 1] = (x >> 8) & 0xff;
    data[i + 2] = (x >> 16) & 0xff;
    data[i + 3] = 255;
  }
  return jpeg.encode({ data, width: w, height: h }, 90).data;
}
const images = Array.from({ length: 6 }, (_, i) => noiseJpeg(i + 1));
for (let s = 0; s < SOURCES; s++) {
  const doc = await PDFDocument.create();
  for (let p = 0; p < perSource && s * perSource + p < pages; p++) {
    const embedded = await doc.embedJpg(images[(s + p) % images.length]);
    doc.addPage([595.28, 841.89]).drawImage(embedded, { x: 20, y: 20, width: 555, height: 800 });
  }
  fs.writeFileSync(path.join(dir, `source-${s + 1}.pdf`), await doc.save());
}
const sourceBytes = sourcesOf(dir).reduce((a, f) => a + fs.statSync(path.join(dir, f)).size, 0);
console.log(`${SOURCES} source PDFs, ${pages} scanned pages, ${mib(sourceBytes)}; server code ${path.relative(root, dist)}; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);

const run = (what) => JSON.parse(execFileSync(process.execPath, [new URL(import.meta.url).pathname, '--run', what, dir, path.join(dir, `out-${what}.pdf`)], { cwd: root }).toString());
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const range = (xs) => `×${Math.min(...xs).toFixed(2)} / ${median(xs).toFixed(2)} / ${Math.max(...xs).toFixed(2)}`;
run('anchor');
let last = run('product');
const rows = [];
for (let i = 0; i < runs; i++) {
  const a = run('anchor');
  const p = run('product');
  const w = run('warm');
  rows.push({ a, p, w });
  last = p;
}
console.log('| run | anchor wall | product wall (first export / after one) | ÷ | anchor RSS at start → peak | product RSS at start → peak (first export) | ÷ (peaks) |\n| --- | --- | --- | --- | --- | --- | --- |');
rows.forEach(({ a, p, w }, i) =>
  console.log(`| ${i + 1} | ${(a.ms / 1000).toFixed(2)} s | ${(p.ms / 1000).toFixed(2)} s / ${(w.ms / 1000).toFixed(2)} s | ×${(p.ms / a.ms).toFixed(2)} / ${(w.ms / a.ms).toFixed(2)} | ${mib(a.base)} → ${mib(a.peak)} | ${mib(p.base)} → ${mib(p.peak)} | ×${(p.peak / a.peak).toFixed(2)} |`),
);
console.log(`wall ÷ anchor, the process's first export, min / median / max: ${range(rows.map(({ a, p }) => p.ms / a.ms))} (aim ≤ ×1.5)`);
console.log(`wall ÷ anchor, after one small export, min / median / max: ${range(rows.map(({ a, w }) => w.ms / a.ms))}`);
console.log(`peak memory ÷ anchor (first export) min / median / max: ${range(rows.map(({ a, p }) => p.peak / a.peak))} (aim ≤ ×0.5)`);
console.log(`load average after: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);

const counted = (await PDFDocument.load(fs.readFileSync(path.join(dir, 'out-product.pdf')))).getPageCount();
fs.rmSync(dir, { recursive: true, force: true });
if (counted !== last.pageCount) {
  console.error(`page count: expected ${last.pageCount}, read back ${counted}`);
  process.exit(1);
}
console.log(`read back: ${counted} pages (${pages} + contents)`);
