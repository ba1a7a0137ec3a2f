#!/usr/bin/env node
/**
 * Time to recognise 100 uploaded invoice files (issue 13) with the built server code (npm run build
 * first): the sample files of apps/server/test/fixtures/income/ taken in turn (数电 XML, PDF with
 * text and QR, the same invoice as OFD and as a QR PNG, an older e-invoice PDF and its QR as JPEG)
 * until there are 100, recognised one after another in one process as the upload call does.
 *   node bench/income-recognition.mjs [files=100]
 * Prints the total, the first PDF's time (it loads pdf.js), the median by format and the peak RSS.
 * Asserts only that every file was recognised (an invoice number found). SERVER_DIST as in
 * bench/invoice-ledger.mjs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const dist = path.join(root, process.env.SERVER_DIST ?? 'apps/server/dist');
const { recognise } = await import(pathToFileURL(path.join(dist, 'modules/income/intake/recognition/index.js')).href);

const count = Number(process.argv[2] ?? 100);
const dir = path.join(root, 'apps/server/test/fixtures/income');
const samples = ['invoice-sd.xml', 'invoice-sd.pdf', 'invoice-sd.ofd', 'invoice-sd-qr.png', 'invoice-vat.pdf', 'invoice-vat-qr.jpg'].map((name) => ({
  name,
  bytes: new Uint8Array(fs.readFileSync(path.join(dir, name))),
}));
const files = Array.from({ length: count }, (_, i) => samples[i % samples.length]);

const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const byKind = new Map();
let firstPdf = null;
let peak = process.memoryUsage().rss;
const start = performance.now();
for (const [i, file] of files.entries()) {
  const t = performance.now();
  const r = await recognise(file);
  const ms = performance.now() - t;
  if (!r.fields.invoiceNo) throw new Error(`${file.name}: no invoice number (${r.warnings.join('; ')})`);
  const ext = path.extname(file.name).slice(1);
  if (ext === 'pdf' && firstPdf === null) firstPdf = ms;
  byKind.set(ext, [...(byKind.get(ext) ?? []), ms]);
  peak = Math.max(peak, process.memoryUsage().rss);
}
const total = performance.now() - start;
console.log(`recognised ${count} files in ${(total / 1000).toFixed(2)} s (${(total / count).toFixed(0)} ms a file; the first PDF, which loads pdf.js, ${firstPdf?.toFixed(0)} ms)`);
console.log('| format | files | median | max |\n| --- | --- | --- | --- |');
for (const [ext, xs] of byKind) console.log(`| ${ext} | ${xs.length} | ${median(xs).toFixed(0)} ms | ${Math.max(...xs).toFixed(0)} ms |`);
console.log(`peak RSS ${(peak / 1024 / 1024).toFixed(0)} MB`);
