/** Sources for the tender export tests and the bench: generated PDFs, JPEG and PNG scans, broken and encrypted files. */
import { Readable } from 'node:stream';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { PDFDocument, StandardFonts, degrees } from 'pdf-lib';
import type { ExportFile, ExportMime } from '../src/modules/tender/export/types.js';

/** A PDF of `pages` pages, each saying "<label> p<n>". */
export async function makePdf(label: string, pages: number, opts: { rotate?: number; size?: [number, number] } = {}): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) {
    const page = doc.addPage(opts.size ?? [595.28, 841.89]);
    if (opts.rotate) page.setRotation(degrees(opts.rotate));
    page.drawText(`${label} p${i}`, { x: 72, y: 700, size: 20, font });
  }
  return Buffer.from(await doc.save());
}

export function makeJpeg(width: number, height: number, seed = 1): Buffer {
  const data = Buffer.alloc(width * height * 4);
  let x = seed;
  for (let i = 0; i < data.length; i += 4) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    data[i] = x & 0xff;
    data[i + 1] = (x >> 8) & 0xff;
    data[i + 2] = (x >> 16) & 0xff;
    data[i + 3] = 255;
  }
  return Buffer.from(jpeg.encode({ data, width, height }, 80).data);
}

export function makePng(width: number, height: number): Buffer {
  const png = new PNG({ width, height });
  for (let i = 0; i < png.data.length; i += 4) {
    png.data[i] = (i / 4) % 256;
    png.data[i + 1] = 120;
    png.data[i + 2] = 200;
    png.data[i + 3] = 255;
  }
  return PNG.sync.write(png);
}

/** A PDF whose trailer names an /Encrypt dictionary (pdf-lib refuses it as encrypted). */
export async function makeEncryptedPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage();
  const enc = doc.context.register(doc.context.obj({ Filter: 'Standard', V: 2, R: 3, Length: 128, P: -4 }));
  doc.context.trailerInfo.Encrypt = enc;
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

/** The first part of a valid PDF, cut off in the middle of its objects. */
export async function makeBrokenPdf(): Promise<Buffer> {
  const whole = await makePdf('broken', 2);
  return Buffer.concat([Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R'), whole.subarray(40, 60)]);
}

export function fileOf(name: string, mime: ExportMime, bytes: Buffer): ExportFile {
  return { name, mime, open: async () => Readable.from([bytes]) };
}
