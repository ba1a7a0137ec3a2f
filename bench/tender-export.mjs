#!/usr/bin/env node
/**
 * The tender export's memory and time on a large export (issue 17): 300 pages, about 150 MB, with the
 * built server code (npm run -w apps/server build first; SERVER_DIST as in bench/invoice-ledger.mjs).
 *   node bench/tender-export.mjs [pages=300] [mb=150]
 * Generates 30 source PDFs of pages/30 scanned-looking pages each (noise JPEGs, so nothing compresses)
 * on disk, then assembles them into one PDF (contents, outline, page numbers, watermark) and into a zip,
 * each streamed to a file in a fresh child process (so that generating the sources does not count), and
 * prints the time, the output size, the child's RSS after start-up and its peak RSS (getrusage). Asserts
 * only that the PDF has the expected page count (read back with pdf-lib afterwards).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import jpeg from 'jpeg-js';
import { PDFDocument } from 'pdf-lib';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const dist = path.join(root, process.env.SERVER_DIST ?? 'apps/server/dist');
const { assemblePdf } = await import(pathToFileURL(path.join(dist, 'modules/tender/export/pdf/assemble.js')).href);
const { assembleZip } = await import(pathToFileURL(path.join(dist, 'modules/tender/export/zip.js')).href);

const mib = (n) => `${(n / 1024 / 1024).toFixed(1)} MB`;

// Child: one assembly of the source PDFs in a directory, written to a file.
if (process.argv[2] === '--run') {
  const [, , , format, srcDir, out] = process.argv;
  const names = fs.readdirSync(srcDir).filter((f) => f.startsWith('source-')).sort((a, b) => parseInt(a.slice(7)) - parseInt(b.slice(7)));
  const sections = names.map((f, i) => ({
    title: `业绩合同 ${i + 1}：某某市政道路工程施工合同`,
    files: [{ name: f, mime: 'application/pdf', open: async () => fs.createReadStream(path.join(srcDir, f)) }],
  }));
  const base = process.memoryUsage().rss;
  const stream = fs.createWriteStream(out);
  const closed = new Promise((r) => stream.once('close', r));
  const start = performance.now();
  const result =
    format === 'pdf'
      ? await assemblePdf(sections, { title: '某某项目投标业绩文件', watermark: '仅供某某项目投标使用' }, stream)
      : await assembleZip(sections, stream);
  stream.end();
  await closed;
  const ms = performance.now() - start;
  console.log(JSON.stringify({ ms, size: fs.statSync(out).size, base, peak: process.resourceUsage().maxRSS * 1024, pageCount: result.pageCount ?? null }));
  process.exit(0);
}

const pages = Number(process.argv[2] ?? 300);
const mb = Number(process.argv[3] ?? 150);
const SOURCES = 30;
const perSource = Math.ceil(pages / SOURCES);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tender-export-bench-'));
// Noise JPEGs of about mb/pages each (a few distinct ones, reused: each source PDF carries its own copies).
const target = (mb * 1024 * 1024) / pages;
function noiseJpeg(seed) {
  const side = Math.round(Math.sqrt(target / 2.35));
  const w = side, h = Math.round(side * 1.3);
  const data = Buffer.alloc(w * h * 4);
  let x = seed;
  for (let i = 0; i < data.length; i += 4) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    data[i] = x & 0xff; data[i + 1] = (x >> 8) & 0xff; data[i + 2] = (x >> 16) & 0xff; data[i + 3] = 255;
  }
  return { bytes: jpeg.encode({ data, width: w, height: h }, 90).data, w, h };
}
const t0 = performance.now();
const images = Array.from({ length: 6 }, (_, i) => noiseJpeg(i + 1));
const files = [];
for (let s = 0; s < SOURCES; s++) {
  const doc = await PDFDocument.create();
  for (let p = 0; p < perSource && s * perSource + p < pages; p++) {
    const img = images[(s + p) % images.length];
    const embedded = await doc.embedJpg(img.bytes);
    const page = doc.addPage([595.28, 841.89]);
    page.drawImage(embedded, { x: 20, y: 20, width: 555, height: 800 });
  }
  const file = path.join(dir, `source-${s + 1}.pdf`);
  fs.writeFileSync(file, await doc.save());
  files.push(file);
}
const sourceBytes = files.reduce((a, f) => a + fs.statSync(f).size, 0);
console.log(`sources: ${files.length} PDFs, ${pages} pages, ${mib(sourceBytes)} (generated in ${((performance.now() - t0) / 1000).toFixed(1)} s)`);

function measure(format) {
  const out = path.join(dir, `out.${format}`);
  const r = JSON.parse(execFileSync(process.execPath, [new URL(import.meta.url).pathname, '--run', format, dir, out], { cwd: root }).toString());
  console.log(`${format}: ${(r.ms / 1000).toFixed(1)} s, ${mib(r.size)}, RSS after start-up ${mib(r.base)}, peak ${mib(r.peak)}`);
  return { out, result: r };
}

const pdf = measure('pdf');
measure('zip');

const counted = execFileSync(process.execPath, ['--input-type=module', '-e', `import { PDFDocument } from 'pdf-lib'; import fs from 'node:fs'; const d = await PDFDocument.load(fs.readFileSync(${JSON.stringify(pdf.out)})); console.log(d.getPageCount());`], { cwd: root, maxBuffer: 1 << 20 }).toString().trim();
fs.rmSync(dir, { recursive: true, force: true });
if (Number(counted) !== pdf.result.pageCount) {
  console.error(`page count: expected ${pdf.result.pageCount}, read back ${counted}`);
  process.exit(1);
}
console.log(`read back: ${counted} pages (${pages} + contents)`);
